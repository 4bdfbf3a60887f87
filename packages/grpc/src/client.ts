import {
  credentials,
  makeGenericClientConstructor,
  Metadata,
  type CallOptions,
  type Client,
  type ClientUnaryCall,
  type ClientWritableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import { fromGrpcError } from '@folio/errors';
import { service as healthService } from 'grpc-health-check';
import { contextToMetadata } from './context.js';

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

type ClientStreamingMethod<Req, Res> = (
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientWritableStream<Req>;

export interface CallSettings {
  /** Per-call deadline; the client's default applies otherwise. */
  deadlineMs?: number;
  /**
   * Wait (up to the deadline) for the channel to connect instead of failing at
   * once while it is reconnecting. For a breaker's trial call: without it the
   * trial meets the reconnect backoff, fails, and opens the breaker again.
   */
  waitForReady?: boolean;
}

/**
 * How a channel spreads its calls: round robin over every address its target
 * resolves to, so a peer given as all its replicas (`ipv4:a:p,b:p` from
 * `./dev up --replicas=N`, `dns:///name:port` of a headless Service in
 * Kubernetes) gets an even share of calls on each, and a replica that is gone
 * leaves the rotation as soon as its connection drops. grpc-js's default,
 * pick_first, would send everything to the first replica.
 */
const ROUND_ROBIN = [{ round_robin: {} }];

/**
 * One peer process (`host:port`, `unix:`): pick_first, grpc-js's default. Its
 * channel, once its connection dropped, connects again on the next call and
 * holds that call until it is connected; round robin instead fails calls at
 * once while its only address waits out its reconnect backoff, so a peer
 * restarted under a single-replica stack answered 503s for up to two seconds.
 */
const PICK_FIRST = [{ pick_first: {} }];

/** Whether a target names several endpoints: a list (`ipv4:a:p,b:p`) or a name that resolves to each replica (`dns:`). */
export function isBalancedTarget(address: string): boolean {
  return /^dns:/.test(address) || (/^ipv[46]:/.test(address) && address.includes(','));
}

/**
 * A method that only reads: its name starts with one of these verbs (the
 * protos name their methods so: proto/svc/*). A read that failed with
 * UNAVAILABLE (the replica died before it answered, the connection broke) is
 * tried again on another replica. A write never is: one that reached a dying
 * replica may have been applied, and must never be applied twice; its caller
 * sees the failure instead.
 */
const READ_VERBS = ['Get', 'BatchGet', 'List', 'Search', 'Filter', 'Resolve', 'Check', 'Verify', 'Authorize', 'Pull'];
const READ_METHOD = new RegExp(`^(?:${READ_VERBS.join('|')})[A-Z]`);

export function isReadMethod(method: string): boolean {
  return READ_METHOD.test(method);
}

/**
 * Three attempts in all, the second after up to 50 ms, the third after up to
 * 100 ms (grpc-js draws each backoff at random below its bound): a replica
 * killed under load fails its calls at once, and the other answers the retry
 * well within the caller's deadline. Only the status that says "never
 * reached an answer" is retried. grpc-js retries only until the server's
 * first response headers; a read cut off after them is asked once more by
 * createPromiseClient (reads are idempotent; a write never is).
 */
const READ_RETRY = {
  maxAttempts: 3,
  initialBackoff: '0.05s',
  maxBackoff: '0.1s',
  backoffMultiplier: 2,
  retryableStatusCodes: ['UNAVAILABLE'],
};

/** The read methods of a generated client (unary only: a stream cannot be replayed), as grpc.service_config names them. */
function readMethodNames(Constructor: unknown): { service: string; method: string }[] {
  const service = (Constructor as { service?: Record<string, { path?: string; requestStream?: boolean; responseStream?: boolean }> }).service ?? {};
  const names: { service: string; method: string }[] = [];
  for (const spec of Object.values(service)) {
    const match = /^\/([^/]+)\/([^/]+)$/.exec(spec.path ?? '');
    if (!match || spec.requestStream || spec.responseStream || !isReadMethod(match[2]!)) continue;
    names.push({ service: match[1]!, method: match[2]! });
  }
  return names;
}

/**
 * The service config of a client's channel (gRPC's JSON form): round robin
 * over a target of several endpoints (pick_first over one),
 * and the retry policy on the client's read methods, named one by one so
 * that a method missing from the list is a write and is never retried.
 */
export function serviceConfigFor(Constructor: unknown, address = 'dns:'): string {
  const reads = readMethodNames(Constructor);
  return JSON.stringify({
    loadBalancingConfig: isBalancedTarget(address) ? ROUND_ROBIN : PICK_FIRST,
    methodConfig: reads.length ? [{ name: reads, retryPolicy: READ_RETRY }] : [],
  });
}

/**
 * Channel options for every client of a peer service. grpc-js grows the
 * reconnect backoff up to 120 s by default, so after a long outage a peer that
 * is back can stay unreached for minutes; bounded, the channel notices within
 * about two seconds (plus jitter). A client made by createPromiseClient adds
 * its retry policy to the service config (serviceConfigFor).
 */
export const CHANNEL_OPTIONS = {
  'grpc.keepalive_time_ms': 30_000,
  // Fail fast while a peer is down instead of queueing calls until the deadline.
  'grpc.enable_retries': 1,
  'grpc.initial_reconnect_backoff_ms': 250,
  'grpc.max_reconnect_backoff_ms': 2_000,
  // channelz (grpc-js's introspection service, which we do not serve) keeps
  // per-call counters and timestamps on every channel and subchannel.
  'grpc.enable_channelz': 0,
} as const;

/**
 * A ts-proto client whose unary and client-streaming methods return promises
 * and always carry a deadline and the caller's context. A client-streaming
 * method takes its messages as an (async) iterable, written one at a time as
 * the stream drains, so a slow server holds the source back instead of the
 * messages piling up in memory.
 */
export type PromiseClient<C> = {
  [K in keyof C as C[K] extends ClientStreamingMethod<any, any> ? K : C[K] extends UnaryMethod<any, any> ? K : never]: C[K] extends ClientStreamingMethod<
    infer Req,
    infer Res
  >
    ? (requests: AsyncIterable<Req> | Iterable<Req>, settings?: CallSettings) => Promise<Res>
    : C[K] extends UnaryMethod<infer Req, infer Res>
      ? (request: Req, settings?: CallSettings) => Promise<Res>
      : never;
} & { close(): void; raw: C };

/** Whether a method of a generated client streams its requests (its service definition says). */
export function isClientStreaming(Constructor: unknown, method: string): boolean {
  const service = (Constructor as { service?: Record<string, { requestStream?: boolean; responseStream?: boolean }> }).service;
  const spec = service?.[method];
  return spec?.requestStream === true && spec.responseStream !== true;
}

/** Messages of a client-streaming call in grpc-js's hands before the source is read further. */
const STREAM_WINDOW = 4;

/**
 * Writes every message of `requests` into a client-streaming call, each once
 * the ones before it are on the wire (STREAM_WINDOW), then ends it; resolves with the answer.
 * A source that fails cancels the call and rejects with the source's error.
 */
function streamInto<Res>(
  start: (callback: (error: ServiceError | null, response: Res) => void) => ClientWritableStream<unknown>,
  requests: AsyncIterable<unknown> | Iterable<unknown>,
  name: string,
): Promise<Res> {
  return new Promise<Res>((resolve, reject) => {
    let settled = false;
    let wake: () => void = () => {};
    // The answer (an early refusal, say) may come while the source is still being written.
    const answered = new Promise<void>((done) => (wake = done));
    const settle = (error: unknown, response?: Res) => {
      if (settled) return;
      settled = true;
      wake();
      if (error) reject(error);
      else resolve(response as Res);
    };
    const call = start((error, response) => settle(error ? fromGrpcError(error, name) : null, response));
    void (async () => {
      try {
        // At most STREAM_WINDOW messages handed to grpc-js and not yet written to the HTTP/2
        // stream (which HTTP/2 flow control holds back): the source is read no further ahead.
        const unwritten: Promise<void>[] = [];
        for await (const request of requests) {
          if (settled) return;
          unwritten.push(new Promise<void>((written) => call.write(request, () => written())));
          if (unwritten.length >= STREAM_WINDOW) await Promise.race([unwritten.shift()!, answered]);
        }
        call.end();
      } catch (error) {
        call.cancel();
        settle(error);
      }
    })();
  });
}

type ClientConstructor<C> = new (address: string, creds: ReturnType<typeof credentials.createInsecure>, options?: object) => C;

/**
 * Runs `start` (a grpc-js call method) without the stack trace grpc-js takes
 * of its caller on every call: it appends that trace to the error of a call
 * that fails, and fromGrpcError replaces the error's stack with one naming
 * the RPC, so the trace was never read, and capturing it is a large share of
 * what starting a call costs. Only the synchronous start runs without traces.
 */
/** A read asks again after UNAVAILABLE only when this much of its deadline is left. */
const MIN_RETRY_BUDGET_MS = 100;

function withoutCallerStack<T>(start: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return start();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export function createPromiseClient<C extends Client>(
  Constructor: ClientConstructor<C>,
  address: string,
  { defaultDeadlineMs = 2_000 }: { defaultDeadlineMs?: number } = {},
): PromiseClient<C> {
  const raw = new Constructor(address, credentials.createInsecure(), { ...CHANNEL_OPTIONS, 'grpc.service_config': serviceConfigFor(Constructor, address) });
  const readMethods = new Set(
    Object.entries((Constructor as { service?: Record<string, { path?: string }> }).service ?? {})
      .filter(([, spec]) => isReadMethod(spec.path?.split('/').pop() ?? ''))
      .map(([property]) => property),
  );
  const methodOf = (property: string | symbol) => {
    const method = (raw as unknown as Record<string | symbol, unknown>)[property];
    if (typeof method !== 'function') return undefined;
    const name = `${Constructor.name}.${String(property)}`;
    const streaming = typeof property === 'string' && isClientStreaming(Constructor, property);
    const read = !streaming && readMethods.has(String(property));
    return (request: unknown, settings: CallSettings = {}) => {
      const deadline = new Date(Date.now() + (settings.deadlineMs ?? defaultDeadlineMs));
      const metadata = contextToMetadata();
      // grpc-js takes wait-for-ready as a metadata option, not a call option.
      if (settings.waitForReady) metadata.setOptions({ waitForReady: true });
      if (streaming) {
        return streamInto(
          (callback) => withoutCallerStack(() => (method as ClientStreamingMethod<unknown, unknown>).call(raw, metadata, { deadline }, callback)),
          request as AsyncIterable<unknown>,
          name,
        );
      }
      const call = () =>
        new Promise((resolve, reject) => {
          withoutCallerStack(() =>
            (method as UnaryMethod<unknown, unknown>).call(raw, request, metadata, { deadline }, (error, response) => {
              if (error) reject(fromGrpcError(error, name));
              else resolve(response);
            }),
          );
        });
      if (!read) return call();
      // grpc-js retries a read only until the server's first response headers: a replica killed
      // after it began its answer (the connection reset mid-response) fails the call unretried.
      // A read asks again once, on the next replica, within the same deadline.
      return call().catch((error: { code?: string }) => {
        if (error.code !== 'UNAVAILABLE' || deadline.getTime() - Date.now() < MIN_RETRY_BUDGET_MS) throw error;
        return call();
      });
    };
  };
  // Each method's caller is built on its first use, not on every property read.
  const methods = new Map<string | symbol, ReturnType<typeof methodOf>>();
  return new Proxy({} as PromiseClient<C>, {
    get(_target, property) {
      if (property === 'close') return () => raw.close();
      if (property === 'raw') return raw;
      if (!methods.has(property)) methods.set(property, methodOf(property));
      return methods.get(property);
    },
  });
}

type HealthCheckClient = Client & {
  check(
    request: { service: string },
    options: Partial<CallOptions>,
    callback: (error: ServiceError | null, response: { status: string | number }) => void,
  ): ClientUnaryCall;
};
const HealthClient = makeGenericClientConstructor(healthService as never, 'grpc.health.v1.Health') as unknown as new (
  address: string,
  creds: ReturnType<typeof credentials.createInsecure>,
  options?: object,
) => HealthCheckClient;
const healthClients = new Map<string, HealthCheckClient>();

/** grpc.health.v1 Check of one service at an address: true only when SERVING. */
export function checkHealth(address: string, service = '', timeoutMs = 1_000): Promise<boolean> {
  let client = healthClients.get(address);
  if (!client) {
    client = new HealthClient(address, credentials.createInsecure(), { ...CHANNEL_OPTIONS });
    healthClients.set(address, client);
  }
  const healthClient = client;
  return new Promise((resolve) => {
    healthClient.check({ service }, { deadline: new Date(Date.now() + timeoutMs) }, (error, response) =>
      resolve(!error && (response.status === 'SERVING' || response.status === 1)),
    );
  });
}

export function closeHealthClients(): void {
  for (const client of healthClients.values()) client.close();
  healthClients.clear();
}
