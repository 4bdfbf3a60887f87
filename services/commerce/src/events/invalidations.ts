// Cache invalidation in commerce: identity's tenant.updated drops the cached
// tenant settings (currency, free access, app schemes) of this replica, and
// commerce's own tenant-wide access.changed (an offer put, on or off sale, by
// any replica) drops the tenant's cached offers. Broadcast subscriptions, not
// work queues, because every replica holds its own copy; while the broker is
// away, TENANT_CACHE_SECONDS and OFFER_CACHE_SECONDS bound staleness.
import type { Logger } from '@folio/logger';
import { accessChangeOf, ACCESS_CHANGED, subscribeBroadcast, tenantUpdateOf, TENANT_UPDATED, type Broker, type BroadcastSubscription } from '@folio/messaging';

export interface TenantCache {
  forget(tenantId?: number): void;
}

export function subscribeTenantUpdates(deps: {
  broker: Broker;
  identityExchange: string;
  tenants: TenantCache;
  logger: Logger;
}): Promise<BroadcastSubscription> {
  const { broker, identityExchange, tenants, logger } = deps;
  return subscribeBroadcast(broker, {
    exchange: identityExchange,
    bindings: [TENANT_UPDATED],
    logger,
    handler: (event) => {
      const update = tenantUpdateOf(event);
      if (update) tenants.forget(update.tenantId);
    },
    // Updates published while we had no queue are lost to us: start afresh.
    onSubscribed: () => tenants.forget(),
  });
}

export interface OfferCache {
  forgetTenant(tenantId?: number): void;
}

export function subscribeOfferChanges(deps: { broker: Broker; exchange: string; offers: OfferCache; logger: Logger }): Promise<BroadcastSubscription> {
  const { broker, exchange, offers, logger } = deps;
  return subscribeBroadcast(broker, {
    exchange,
    bindings: [ACCESS_CHANGED],
    logger,
    handler: (event) => {
      const change = accessChangeOf(event);
      // One user's change (a purchase, an erasure) leaves offers as they are.
      if (change && change.userId === undefined) offers.forgetTenant(change.tenantId);
    },
    onSubscribed: () => offers.forgetTenant(),
  });
}
