// The gateway's view of the backend services: one promise client per service,
// every call with the configured deadline and through two breakers
// (breaker.ts): the service's, which opens when the process cannot be
// reached, and the method's, which opens when that method keeps running out
// of time, so one slow listing does not take the service's other routes down.
// A client-streaming method (reader's content upload) takes as long as its
// file takes to arrive: its own deadline, and no backstop timeout on its
// method breaker.
import { connectivityState, type Client } from '@grpc/grpc-js';
import { checkHealth, createPromiseClient, isClientStreaming, type CallSettings, type PromiseClient } from '@folio/grpc';
import type { Logger } from '@folio/logger';
import { catalog, commerce, identity, integrations, notes, reader, readerSync } from '@folio/proto';
import type { GatewayConfig } from '../config.js';
import { Breaker, isDomainError, isTooSlow, isUnreachable, markUnreachable, type BreakerSettings } from './breaker.js';

/** The promise methods of a client, each run through a breaker. */
export type GuardedClient<C> = Omit<PromiseClient<C>, 'close' | 'raw'>;

export interface Upstream<C> {
  name: UpstreamName;
  address: string;
  /** Fully qualified gRPC service name, as reported by grpc.health.v1. */
  serviceName: string;
  client: GuardedClient<C>;
  /** The service's breaker: open while the process cannot be reached. */
  breaker: Breaker;
  /** The breaker of one method (created on its first call): open while that method keeps timing out. */
  methodBreaker(method: string): Breaker;
  close(): void;
}

type ClientConstructor<C> = (new (address: string, creds: never, options?: object) => C) & { serviceName: string };

export function createUpstream<C extends Client>(
  name: UpstreamName,
  Constructor: ClientConstructor<C>,
  address: string,
  settings: { deadlineMs: number; breaker: BreakerSettings; sharedBreaker?: Breaker; streamingDeadlineMs?: number },
  logger?: Logger,
): Upstream<C> {
  const raw = createPromiseClient(Constructor as never, address, { defaultDeadlineMs: settings.deadlineMs }) as PromiseClient<C>;
  // A second service of the same process shares its breaker: one process, one state.
  // The method breakers below it carry the backstop timeout.
  const breaker = settings.sharedBreaker ?? new Breaker(name, { ...settings.breaker, timeoutMs: false, countsAsFailure: isUnreachable }, logger);
  const channel = raw.raw.getChannel();
  const connected = () => channel.getConnectivityState(false) === connectivityState.READY;
  const methodBreakers = new Map<string, Breaker>();
  const methodBreaker = (method: string): Breaker => {
    let found = methodBreakers.get(method);
    if (!found) {
      const streaming = isClientStreaming(Constructor, method);
      found = new Breaker(`${name}.${method}`, { ...settings.breaker, ...(streaming && { timeoutMs: false }), countsAsFailure: isTooSlow }, logger);
      methodBreakers.set(method, found);
    }
    return found;
  };
  const guardedOf = (method: string | symbol) => {
    const call = (raw as Record<string | symbol, unknown>)[method];
    if (typeof call !== 'function' || typeof method !== 'string' || method === 'close' || method === 'raw') return undefined;
    const streamingDeadline = settings.streamingDeadlineMs !== undefined && isClientStreaming(Constructor, method) ? settings.streamingDeadlineMs : undefined;
    let own: Breaker | undefined; // created on the method's first call
    return (request: unknown, given?: CallSettings) => {
      const callSettings = streamingDeadline !== undefined ? { deadlineMs: streamingDeadline, ...given } : given;
      return breaker.run((service) =>
        (own ??= methodBreaker(method)).run((mine) =>
          (call as (r: unknown, s?: CallSettings) => Promise<unknown>)(
            request,
            service.trial || mine.trial ? { ...callSettings, waitForReady: true } : callSettings,
          ).catch((error: unknown) => {
            // A deadline that ran out with no connection (a trial waiting for one, a
            // service that went away mid-call) is the service's failure, not the method's slowness.
            if (isDomainError(error) && error.code === 'DEADLINE_EXCEEDED' && !connected()) markUnreachable(error);
            throw error;
          }),
        ),
      );
    };
  };
  // Each method's guarded caller is built on its first use, not on every property read.
  const guarded = new Map<string | symbol, ReturnType<typeof guardedOf>>();
  const client = new Proxy({} as GuardedClient<C>, {
    get(_target, method) {
      if (!guarded.has(method)) guarded.set(method, guardedOf(method));
      return guarded.get(method);
    },
  });
  return {
    name,
    address,
    serviceName: Constructor.serviceName,
    client,
    breaker,
    methodBreaker,
    close() {
      if (!settings.sharedBreaker) breaker.shutdown();
      for (const each of methodBreakers.values()) each.shutdown();
      raw.close();
    },
  };
}

export const UPSTREAM_NAMES = ['identity', 'catalog', 'commerce', 'reader', 'notes', 'integrations'] as const;
export type UpstreamName = (typeof UPSTREAM_NAMES)[number];

export interface Upstreams {
  identity: Upstream<identity.IdentityServiceClient>;
  catalog: Upstream<catalog.CatalogServiceClient>;
  commerce: Upstream<commerce.CommerceServiceClient>;
  reader: Upstream<reader.ReaderServiceClient>;
  /** A second service of the reader process: the reader's breaker and health. */
  readerSync: Upstream<readerSync.ReaderSyncServiceClient>;
  notes: Upstream<notes.NotesServiceClient>;
  integrations: Upstream<integrations.IntegrationsServiceClient>;
}

export function createUpstreams(config: GatewayConfig, logger?: Logger): Upstreams {
  const settings = {
    deadlineMs: config.GRPC_DEADLINE_MS,
    breaker: {
      timeoutMs: config.BREAKER_TIMEOUT_MS,
      resetMs: config.BREAKER_RESET_MS,
      volumeThreshold: config.BREAKER_VOLUME_THRESHOLD,
      errorThresholdPercentage: config.BREAKER_ERROR_PERCENTAGE,
    },
  };
  const readerUpstream = createUpstream(
    'reader',
    reader.ReaderServiceClient,
    config.READER_ADDR,
    { ...settings, streamingDeadlineMs: config.UPLOAD_DEADLINE_MS },
    logger,
  );
  return {
    identity: createUpstream('identity', identity.IdentityServiceClient, config.IDENTITY_ADDR, settings, logger),
    catalog: createUpstream('catalog', catalog.CatalogServiceClient, config.CATALOG_ADDR, settings, logger),
    commerce: createUpstream('commerce', commerce.CommerceServiceClient, config.COMMERCE_ADDR, settings, logger),
    reader: readerUpstream,
    readerSync: createUpstream(
      'reader',
      readerSync.ReaderSyncServiceClient,
      config.READER_ADDR,
      { ...settings, sharedBreaker: readerUpstream.breaker },
      logger,
    ),
    notes: createUpstream('notes', notes.NotesServiceClient, config.NOTES_ADDR, settings, logger),
    integrations: createUpstream(
      'integrations',
      integrations.IntegrationsServiceClient,
      config.INTEGRATIONS_ADDR,
      { deadlineMs: config.INTEGRATIONS_DEADLINE_MS, breaker: { ...settings.breaker, timeoutMs: config.INTEGRATIONS_BREAKER_TIMEOUT_MS } },
      logger,
    ),
  };
}

export function allUpstreams(upstreams: Upstreams): Upstream<Client>[] {
  return UPSTREAM_NAMES.map((name) => upstreams[name] as unknown as Upstream<Client>);
}

/** grpc.health.v1 of every upstream, by name: true only when SERVING. */
export async function upstreamHealth(upstreams: Upstreams, timeoutMs = 1_000): Promise<Record<UpstreamName, boolean>> {
  const results = await Promise.all(
    allUpstreams(upstreams).map(async (upstream) => [upstream.name, await checkHealth(upstream.address, upstream.serviceName, timeoutMs)] as const),
  );
  return Object.fromEntries(results) as Record<UpstreamName, boolean>;
}

export function closeUpstreams(upstreams: Upstreams): void {
  for (const upstream of allUpstreams(upstreams)) upstream.close();
  upstreams.readerSync.close();
}
