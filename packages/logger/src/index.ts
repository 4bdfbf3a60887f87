// Structured logging (pino) with a per-request context that follows the
// request across async calls and, via gRPC metadata, across services; lines
// written inside a trace carry its trace_id and span_id.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import pino, { type Logger as PinoLogger } from 'pino';
import { censorSecrets } from './redaction.js';

export type Logger = PinoLogger;

/** Who is asking: carried in gRPC metadata and attached to every log line. */
export interface RequestContext {
  requestId: string;
  tenantId?: number;
  userId?: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

export function newRequestId(): string {
  return randomUUID();
}

/**
 * The active span's ids (`trace_id`, `span_id`), the names Jaeger, Tempo and
 * the OTel log data model use; nothing outside a trace or when tracing is off
 * (the OTel API then has no span to give).
 */
function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  if (!trace.isSpanContextValid(span.spanContext())) return {};
  return { trace_id: traceId, span_id: spanId };
}

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where lines go; tests pass a stream to read them back. */
  destination?: pino.DestinationStream;
}

export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Every line written inside a request carries its ids, without callers passing them.
    mixin() {
      const ctx = storage.getStore();
      const traced = traceFields();
      if (!ctx) return traced;
      return {
        ...traced,
        request_id: ctx.requestId,
        ...(ctx.tenantId !== undefined && { tenant_id: ctx.tenantId }),
        ...(ctx.userId !== undefined && { user_id: ctx.userId }),
      };
    },
    // Secrets are censored here rather than by pino's `redact` paths: see redaction.ts for why.
    formatters: { log: censorSecrets },
  };
  return destination ? pino(options, destination) : pino(options);
}
