// `@folio/telemetry/tracing`: starting the SDK by hand (tests, tools). Kept
// apart from the main entry so code that only counts things never loads the SDK.
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { startTracing } from './tracing.js';

export { startTracing, runningTracing, type Tracing, type TracingOptions } from './tracing.js';
export { INSTRUMENTED_MODULES, folioInstrumentations, registerInstrumentationHook } from './instrumentations.js';

/** For tests: tracing into memory; `spans()` flushes and returns every span ended so far. */
export function startInMemoryTracing(serviceName = 'test'): { spans(): Promise<ReadableSpan[]>; shutdown(): Promise<void> } {
  const exporter = new InMemorySpanExporter();
  const tracing = startTracing({ serviceName, spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  return {
    async spans() {
      await tracing.flush();
      return exporter.getFinishedSpans();
    },
    shutdown: () => tracing.shutdown(),
  };
}
