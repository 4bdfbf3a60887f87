// Starts the OpenTelemetry Node SDK: W3C tracecontext propagation, OTLP
// (http/protobuf by default) export configured by OTEL_* variables, the
// instrumentations of every hop. Metrics are Prometheus' job (see metrics/),
// and logs stay on stdout, so neither is pushed over OTLP unless the
// OTEL_METRICS_EXPORTER / OTEL_LOGS_EXPORTER variables ask for it.
import { trace, type ProxyTracerProvider } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { folioInstrumentations } from './instrumentations.js';
import { setTelemetryShutdown } from './lifecycle.js';

export interface TracingOptions {
  serviceName: string;
  /** Tests pass an in-memory exporter's processor; otherwise OTLP from the environment. */
  spanProcessors?: SpanProcessor[];
  env?: Record<string, string | undefined>;
}

export interface Tracing {
  /** Hands every ended span to the exporter (export waits for async resource detection). */
  flush(): Promise<void>;
  /** Exports what is buffered and stops; call it last in a graceful stop. */
  shutdown(): Promise<void>;
}

let running: Tracing | undefined;

export function startTracing({ serviceName, spanProcessors, env = process.env }: TracingOptions): Tracing {
  if (running) return running;
  const sdk = new NodeSDK({
    serviceName,
    instrumentations: folioInstrumentations(),
    ...(spanProcessors && { spanProcessors }),
    ...(!env.OTEL_METRICS_EXPORTER && { metricReaders: [] }),
    ...(!env.OTEL_LOGS_EXPORTER && { logRecordProcessors: [] }),
  });
  sdk.start();
  const tracing: Tracing = {
    async flush() {
      const provider = (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() as { forceFlush?: () => Promise<void> };
      await provider.forceFlush?.();
    },
    async shutdown() {
      if (running === tracing) running = undefined;
      setTelemetryShutdown(undefined);
      await sdk.shutdown();
    },
  };
  running = tracing;
  setTelemetryShutdown(() => tracing.shutdown());
  return tracing;
}

/** The tracing started in this process, if any (the register entry starts it). */
export function runningTracing(): Tracing | undefined {
  return running;
}
