// Traces and metrics for every Folio process. Tracing starts from the
// `@folio/telemetry/register` entry (see register.ts; `@folio/telemetry/tracing`
// starts it by hand); this light entry, which never loads the SDK, holds what
// the code calls: trace-context carriers for hops the instrumentations do not
// see, and the Prometheus series.
export { tracingSettings, type TracingSettings } from './settings.js';
export { currentTraceCarrier, contextFromCarrier, inTraceOf, traceLogFields, SpanKind, type TraceCarrier } from './carrier.js';
export { metricsRegistry, enableServiceMetrics, renderMetrics } from './metrics/registry.js';
export { httpMetricsMiddleware, metricsEndpoint, routeTemplate, UNMATCHED_ROUTE } from './metrics/http.js';
export { observeGrpcCall, grpcCodeName, splitGrpcPath } from './metrics/grpc.js';
export {
  recordBreakerState,
  countRateLimitRejection,
  recordOutbox,
  recordConsumerBacklog,
  countDeadLetter,
  countCacheLookup,
  type BreakerState,
} from './metrics/signals.js';
export { startMetricsServer, metricsPortFromEnv, DEFAULT_METRICS_PORT, type MetricsServer } from './metrics/server.js';
