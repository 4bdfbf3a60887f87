import { lstat, unlink } from 'node:fs/promises';
import {
  Server,
  ServerCredentials,
  type ServerReadableStream,
  type ServerUnaryCall,
  type sendUnaryData,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { internalReply, toGrpcError } from '@folio/errors';
import { runWithContext, type Logger, type RequestContext } from '@folio/logger';
import { observeGrpcCall } from '@folio/telemetry';
import { HealthImplementation } from 'grpc-health-check';
import { contextFromMetadata } from './context.js';

/** What a handler knows about the call besides its request. */
export interface CallContext extends RequestContext {
  /** Milliseconds left before the caller's deadline, if it sent one. */
  remainingMs?: number;
}

/**
 * Async handlers typed from a ts-proto service definition. A client-streaming
 * method's handler gets its messages as an async iterable: reading it at its
 * own pace is the backpressure (HTTP/2 flow control holds the sender).
 */
export type ServiceHandlers<D> = {
  [K in keyof D]: D[K] extends {
    requestStream: true;
    responseStream: false;
    requestDeserialize: (bytes: Buffer) => infer Req;
    responseSerialize: (value: infer Res) => Buffer;
  }
    ? (requests: AsyncIterable<Req>, call: CallContext) => Promise<Res>
    : D[K] extends {
          requestDeserialize: (bytes: Buffer) => infer Req;
          responseSerialize: (value: infer Res) => Buffer;
        }
      ? (request: Req, call: CallContext) => Promise<Res>
      : never;
};

export interface GrpcServer {
  server: Server;
  health: HealthImplementation;
  port: number;
  /** Stops taking calls, lets running ones finish up to `timeoutMs`, then forces. */
  shutdown(timeoutMs?: number): Promise<void>;
}

export interface ServiceRegistration<D> {
  /** Fully qualified service name, e.g. svc.identity.v1.IdentityService: used for health status. */
  name: string;
  definition: D;
  handlers: ServiceHandlers<D>;
}

function remainingMs(call: ServerUnaryCall<unknown, unknown> | ServerReadableStream<unknown, unknown>): number | undefined {
  const deadline = call.getDeadline();
  if (deadline === Infinity) return undefined;
  const at = deadline instanceof Date ? deadline.getTime() : Number(deadline);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

// Every unary and client-streaming call goes through here (a client-streaming
// call hands the handler its readable stream of messages instead of one request). Whatever a handler or the error mapping
// throws, the call is answered exactly once and the process keeps serving: a
// failure while replying is logged and answered INTERNAL, never left to become
// an unhandled rejection (which ends a Node process).
function wrap(logger: Logger, path: string, handler: (request: unknown, call: CallContext) => Promise<unknown>, clientStreaming = false) {
  return (call: ServerUnaryCall<unknown, unknown> | ServerReadableStream<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    let answered = false;
    const observed = observeGrpcCall(path); // RED metrics: one count and duration per answer, by code
    const answer: sendUnaryData<unknown> = (error, response) => {
      if (answered) return;
      answered = true;
      observed(error ? (error.code ?? 2) : 0);
      callback(error, response);
    };
    const lastResort = (error: unknown) => {
      logger.error({ rpc: path, err: error }, 'rpc failed while replying; answered INTERNAL');
      try {
        const reply = internalReply();
        answer({ code: reply.code, details: reply.details, metadata: reply.metadata });
      } catch (replyError) {
        logger.error({ rpc: path, err: replyError }, 'rpc could not be answered');
      }
    };
    try {
      const context = contextFromMetadata(call.metadata);
      runWithContext(context, async () => {
        const started = performance.now();
        try {
          const input = clientStreaming ? (call as ServerReadableStream<unknown, unknown>) : (call as ServerUnaryCall<unknown, unknown>).request;
          const response = await handler(input, { ...context, remainingMs: remainingMs(call) });
          logger.debug({ rpc: path, ms: Math.round(performance.now() - started) }, 'rpc ok');
          answer(null, response);
        } catch (error) {
          const sent = toGrpcError(error);
          if (sent.isInternal) logger.error({ rpc: path, err: error }, 'rpc failed');
          else if (sent.isOutage) logger.warn({ rpc: path, err: error }, 'rpc failed: a dependency is unavailable');
          else logger.info({ rpc: path, code: sent.code, reason: sent.details }, 'rpc refused');
          answer({ code: sent.code, details: sent.details, metadata: sent.metadata });
        }
      }).catch(lastResort);
    } catch (error) {
      lastResort(error);
    }
  };
}

/**
 * Options of every server. A caller keeps one HTTP/2 connection per replica it
 * resolved, and resolves again only when a connection ends: without an age limit
 * the replicas an autoscaler adds would get no calls from the callers that were
 * already connected. Past its age (grpc-js adds +/-10 % jitter, so the callers do
 * not all reconnect at once) the server asks the caller to go away; the caller
 * opens a new connection, resolving the peer's headless Service again, while the
 * calls in flight finish within the grace, which covers the longest deadline a
 * caller gives (the gateway's UPLOAD_DEADLINE_MS for a streamed upload).
 */
export const SERVER_OPTIONS = {
  'grpc.max_receive_message_length': 16 * 1024 * 1024,
  // No channelz: see CHANNEL_OPTIONS.
  'grpc.enable_channelz': 0,
  'grpc.max_connection_age_ms': 5 * 60_000,
  'grpc.max_connection_age_grace_ms': 10 * 60_000,
} as const;

/**
 * Starts a gRPC server with the given services and grpc.health.v1.
 * Port 0 picks a free port (component tests).
 */
export async function startGrpcServer(options: {
  logger: Logger;
  port: number;
  host?: string;
  /** A Unix socket to listen on as well (absolute path), for callers on the same host. */
  unixSocket?: string;
  services: ServiceRegistration<any>[];
  /** How long a caller's connection may live before it must reconnect (SERVER_OPTIONS's by default; shorter in tests). */
  maxConnectionAgeMs?: number;
}): Promise<GrpcServer> {
  const { logger } = options;
  const server = new Server({
    ...SERVER_OPTIONS,
    ...(options.maxConnectionAgeMs !== undefined && { 'grpc.max_connection_age_ms': options.maxConnectionAgeMs }),
  });
  const statusMap: Record<string, 'SERVING' | 'NOT_SERVING'> = { '': 'SERVING' };
  for (const service of options.services) statusMap[service.name] = 'SERVING';
  const health = new HealthImplementation(statusMap);
  health.addToServer(server);

  for (const service of options.services) {
    const definition = service.definition as ServiceDefinition;
    const implementation: UntypedServiceImplementation = {};
    for (const [method, spec] of Object.entries(definition)) {
      const handler = (service.handlers as Record<string, (req: unknown, call: CallContext) => Promise<unknown>>)[method];
      if (!handler) throw new Error(`${service.name}: no handler for ${method}`);
      if (spec.responseStream) throw new Error(`${service.name}: ${method} streams its responses, which no service serves`);
      implementation[method] = wrap(logger, spec.path, handler, spec.requestStream);
    }
    server.addService(definition, implementation);
  }

  const host = options.host ?? '0.0.0.0';
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  if (options.unixSocket) {
    // A socket file left by a killed process refuses the bind (nothing listens on it any
    // more); anything else at the path is not ours to remove, and the bind names it.
    if ((await lstat(options.unixSocket).catch(() => undefined))?.isSocket()) await unlink(options.unixSocket);
    await new Promise<void>((resolve, reject) =>
      server.bindAsync(`unix:${options.unixSocket}`, ServerCredentials.createInsecure(), (error) => (error ? reject(error) : resolve())),
    );
  }
  logger.info({ port, ...(options.unixSocket && { unix_socket: options.unixSocket }) }, 'gRPC server listening');

  return {
    server,
    health,
    port,
    shutdown: (timeoutMs = 10_000) =>
      new Promise<void>((resolve) => {
        for (const name of Object.keys(statusMap)) health.setStatus(name, 'NOT_SERVING');
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, timeoutMs);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
