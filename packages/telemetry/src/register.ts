// `node --import @folio/telemetry/register dist/main.js`: starts tracing before
// the service's modules load, which is the only way to patch ESM imports.
// Does nothing (no loader hook, not even loading the SDK) unless an OTLP
// endpoint is configured, so the same start command serves every environment.
import { tracingSettings } from './settings.js';

const settings = tracingSettings();
if (settings.enabled) {
  const { registerInstrumentationHook, startTracing } = await import('./tracing-entry.js');
  registerInstrumentationHook();
  startTracing({ serviceName: settings.serviceName });
}
