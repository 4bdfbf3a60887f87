// `@folio/telemetry/tracing`: starting the SDK by hand (tests, tools). Kept
// apart from the main entry so code that only counts things never loads the SDK.
export { startTracing, runningTracing, type Tracing, type TracingOptions } from './tracing.js';
export { INSTRUMENTED_MODULES, folioInstrumentations, registerInstrumentationHook } from './instrumentations.js';
