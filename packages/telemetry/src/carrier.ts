// A trace context in a plain object: the `traceparent` (and `tracestate`)
// header values, for places the instrumentations cannot see, such as an outbox
// row written inside an HTTP request and published later by the relay.
import { context, propagation, trace, INVALID_SPAN_CONTEXT, SpanKind, SpanStatusCode, type Context, type Span } from '@opentelemetry/api';

export type TraceCarrier = Record<string, string>;
export { SpanKind };

/** The active span's context as `{ traceparent, tracestate? }`; `{}` when nothing is traced. */
export function currentTraceCarrier(from: Context = context.active()): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagation.inject(from, carrier);
  return carrier;
}

/** The context a carrier describes, to start spans in; the active one when the carrier is empty. */
export function contextFromCarrier(carrier: Record<string, unknown> | undefined): Context {
  if (!carrier) return context.active();
  const strings: TraceCarrier = {};
  for (const [key, value] of Object.entries(carrier)) {
    if (typeof value === 'string') strings[key] = value;
    else if (Buffer.isBuffer(value)) strings[key] = value.toString();
  }
  return propagation.extract(context.active(), strings);
}

/**
 * Runs `fn` inside a new span that continues the trace the carrier came from,
 * e.g. the relay publishing an outbox row in the trace of the request that wrote it.
 */
export function inTraceOf<T>(
  carrier: Record<string, unknown> | undefined,
  name: string,
  fn: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  const tracer = trace.getTracer('@folio/telemetry');
  return tracer.startActiveSpan(name, { kind }, contextFromCarrier(carrier), async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Runs `fn` inside a child span of the active one (a hop no instrumentation
 * sees, such as an SMTP send). Without an active trace it starts none.
 */
export function inSpan<T>(
  name: string,
  fn: (span: Span) => Promise<T>,
  options: { kind?: SpanKind; attributes?: Record<string, string | number | boolean> } = {},
): Promise<T> {
  if (!trace.getActiveSpan()) return fn(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  const tracer = trace.getTracer('@folio/telemetry');
  return tracer.startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** `{ trace_id, span_id }` of the active span for a log line; `{}` outside a trace. */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const spanContext = span.spanContext();
  if (!trace.isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}
