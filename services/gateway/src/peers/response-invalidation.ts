// Drops cached responses (http/response-cache.ts) on every gateway replica
// when their owners announce a change the gateway did not make itself:
// commerce's access.changed (a purchase paid in the browser, a grant, a
// revocation; one user, a tenant, or everything) and identity's
// tenant.updated (free access, currency, storefront flags), and catalog's
// issues.changed (an issue published, withdrawn or edited: the tenant's
// listings; this is what keeps a publish visible within its bound). Broadcast
// subscriptions, as for the services' own caches: each replica holds its own.
// After a broker outage the subscriptions are new and everything is dropped;
// while it is down, `live()` is false and the cache is not used at all.
import type { Logger } from '@folio/logger';
import {
  accessChangeOf,
  ACCESS_CHANGED,
  ISSUES_CHANGED,
  issuesChangeOf,
  subscribeBroadcast,
  tenantUpdateOf,
  TENANT_UPDATED,
  type Broker,
} from '@folio/messaging';

export interface DroppableCache {
  forget(scope?: { userId?: number; tenantId?: number }): void;
}

export interface ResponseInvalidation {
  /** Every subscription is bound on a connected broker: drops arrive. */
  live(): boolean;
  stop(): Promise<void>;
}

export async function subscribeResponseInvalidation(deps: {
  broker: Broker;
  logger: Logger;
  cache: DroppableCache;
  exchanges: { commerce: string; identity: string; catalog: string };
}): Promise<ResponseInvalidation> {
  const { broker, logger, cache, exchanges } = deps;
  const bound = new Set<string>();
  const subscribed = (name: string) => () => {
    bound.add(name);
    cache.forget();
  };
  const subscriptions = [
    await subscribeBroadcast(broker, {
      exchange: exchanges.commerce,
      bindings: [ACCESS_CHANGED],
      logger,
      handler: (event) => {
        const change = accessChangeOf(event);
        if (change) cache.forget(change);
      },
      onSubscribed: subscribed(ACCESS_CHANGED),
    }),
    await subscribeBroadcast(broker, {
      exchange: exchanges.identity,
      bindings: [TENANT_UPDATED],
      logger,
      handler: (event) => {
        const update = tenantUpdateOf(event);
        if (update) cache.forget(update.tenantId === undefined ? {} : { tenantId: update.tenantId });
      },
      onSubscribed: subscribed(TENANT_UPDATED),
    }),
    await subscribeBroadcast(broker, {
      exchange: exchanges.catalog,
      bindings: [ISSUES_CHANGED],
      logger,
      handler: (event) => {
        const change = issuesChangeOf(event);
        if (change) cache.forget(change.tenantId === undefined ? {} : { tenantId: change.tenantId });
      },
      onSubscribed: subscribed(ISSUES_CHANGED),
    }),
  ];
  return {
    live: () => bound.size === subscriptions.length && broker.isConnected(),
    stop: async () => {
      await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    },
  };
}
