// Structured logging (pino) with a per-request context that follows the
// request across async calls and, via gRPC metadata, across services.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import pino, { type Logger as PinoLogger } from 'pino';

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
      if (!ctx) return {};
      return {
        request_id: ctx.requestId,
        ...(ctx.tenantId !== undefined && { tenant_id: ctx.tenantId }),
        ...(ctx.userId !== undefined && { user_id: ctx.userId }),
      };
    },
    redact: {
      paths: ['*.password', '*.code', '*.refresh_token', '*.access_token', '*.authorization', 'req.headers.authorization'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
