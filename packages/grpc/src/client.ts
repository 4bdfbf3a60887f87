import { credentials, makeGenericClientConstructor, Metadata, type CallOptions, type Client, type ClientUnaryCall, type ServiceError } from '@grpc/grpc-js';
import { fromGrpcError } from '@folio/errors';
import { service as healthService } from 'grpc-health-check';
import { contextToMetadata } from './context.js';

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

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
 * Channel options for every client of a peer service. grpc-js grows the
 * reconnect backoff up to 120 s by default, so after a long outage a peer that
 * is back can stay unreached for minutes; bounded, the channel notices within
 * about two seconds (plus jitter).
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

/** A ts-proto client whose unary methods return promises and always carry a deadline and the caller's context. */
export type PromiseClient<C> = {
  [K in keyof C as C[K] extends UnaryMethod<any, any> ? K : never]: C[K] extends UnaryMethod<infer Req, infer Res>
    ? (request: Req, settings?: CallSettings) => Promise<Res>
    : never;
} & { close(): void; raw: C };

type ClientConstructor<C> = new (address: string, creds: ReturnType<typeof credentials.createInsecure>, options?: object) => C;

export function createPromiseClient<C extends Client>(
  Constructor: ClientConstructor<C>,
  address: string,
  { defaultDeadlineMs = 2_000 }: { defaultDeadlineMs?: number } = {},
): PromiseClient<C> {
  const raw = new Constructor(address, credentials.createInsecure(), { ...CHANNEL_OPTIONS });
  return new Proxy({} as PromiseClient<C>, {
    get(_target, property) {
      if (property === 'close') return () => raw.close();
      if (property === 'raw') return raw;
      const method = (raw as unknown as Record<string | symbol, unknown>)[property];
      if (typeof method !== 'function') return undefined;
      return (request: unknown, settings: CallSettings = {}) =>
        new Promise((resolve, reject) => {
          const deadline = new Date(Date.now() + (settings.deadlineMs ?? defaultDeadlineMs));
          const metadata = contextToMetadata();
          // grpc-js takes wait-for-ready as a metadata option, not a call option.
          if (settings.waitForReady) metadata.setOptions({ waitForReady: true });
          (method as UnaryMethod<unknown, unknown>).call(raw, request, metadata, { deadline }, (error, response) => {
            if (error) reject(fromGrpcError(error, `${Constructor.name}.${String(property)}`));
            else resolve(response);
          });
        });
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
