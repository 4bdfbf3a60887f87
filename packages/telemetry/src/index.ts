// Traces and metrics for every Folio process. Tracing starts from the
// `@folio/telemetry/register` entry (see register.ts; `@folio/telemetry/tracing`
// starts it by hand); this light entry, which never loads the SDK, holds what
// the code calls: trace-context carriers for hops the instrumentations do not
// see, and the Prometheus series.
export { tracingSettings, type TracingSettings } from './settings.js';
export { currentTraceCarrier, contextFromCarrier, inTraceOf, inSpan, traceLogFields, SpanKind, type TraceCarrier } from './carrier.js';
export { shutdownTelemetry } from './lifecycle.js';
export { metricsRegistry, enableServiceMetrics, renderMetrics, onScrape } from './metrics/registry.js';
export { httpMetricsMiddleware, metricsEndpoint, recordMatchedRoute, routeTemplate, UNMATCHED_ROUTE } from './metrics/http.js';
export { observeGrpcCall, grpcCodeName, splitGrpcPath } from './metrics/grpc.js';
export {
  recordBreakerState,
  registerBreaker,
  countBreakerOpened,
  countRateLimitRejection,
  recordOutbox,
  recordConsumerBacklog,
  countDeadLetter,
  recordDeadLetterQueue,
  countConsumed,
  countRedelivered,
  registerConsumerQueue,
  registerCache,
  countCacheLookup,
  type BreakerState,
  type ConsumeOutcome,
} from './metrics/signals.js';
export { startMetricsServer, metricsPortFromEnv, DEFAULT_METRICS_PORT, type MetricsServer } from './metrics/server.js';
