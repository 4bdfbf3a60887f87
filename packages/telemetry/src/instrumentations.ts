// The libraries every service's hops go through, and the instrumentation for each.
import { register } from 'node:module';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';

/**
 * Modules the ESM loader hook intercepts. grpc-js, express and the rest are
 * CommonJS: their inner files are patched by the require hook, but an ESM
 * `import` of the package itself is only seen by import-in-the-middle, so
 * without this list grpc-js calls make no spans (checked: mongodb still
 * would, grpc-js would not). Listing them keeps the hook off every other module.
 */
export const INSTRUMENTED_MODULES = ['@grpc/grpc-js', 'mongodb', 'express', 'amqplib', 'ioredis', 'http', 'https', 'node:http', 'node:https'];

/**
 * Installs import-in-the-middle's loader hook for INSTRUMENTED_MODULES. Must run
 * before those modules are imported: from `--import`, or first thing in a test.
 */
export function registerInstrumentationHook(): void {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: INSTRUMENTED_MODULES } });
}

/** Probes and scrapes are not requests anyone wants to see in a trace. */
const UNTRACED_PATHS = new Set(['/metrics', '/health', '/healthz', '/ready', '/readyz', '/livez']);

export function folioInstrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0] ?? ''),
    }),
    new ExpressInstrumentation(),
    new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
    // A query outside any request (startup, timers) would be a one-span trace of noise.
    new MongoDBInstrumentation({ requireParentSpan: true }),
    new AmqplibInstrumentation(),
    new IORedisInstrumentation({ requireParentSpan: true }),
    // Log lines carry trace_id and span_id through @folio/logger's mixin, which
    // reads the active span (no pino instrumentation needed, whatever loaded pino).
  ];
}
