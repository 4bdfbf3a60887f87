// Keeps catalog's caches honest on every replica: commerce's access.changed
// drops cached access decisions and offers, identity's tenant.updated drops
// the tenant's settings and (free access, currency) its offers, and catalog's
// own favorites.changed (subscribeUserChanges of @folio/messaging, in app.ts)
// drops a user's cached favorite flags. Broadcast subscriptions (a queue per process), not the
// shared work queues, because each replica holds its own cache. After a
// broker outage the subscription is new and everything is dropped, since
// events published meanwhile were missed; while the broker stays down, the
// caches' TTLs bound what a user sees (ACCESS_CACHE_TTL_MS, TENANT_CACHE_TTL_MS).
import type { Logger } from '@folio/logger';
import { accessChangeOf, ACCESS_CHANGED, subscribeBroadcast, tenantUpdateOf, TENANT_UPDATED, type BroadcastSubscription, type Broker } from '@folio/messaging';

export interface AccessCache {
  forget(scope?: { tenantId?: number; userId?: number }): void;
}

export interface TenantCache {
  forget(tenantId?: number): void;
}

export async function subscribeCacheInvalidation(deps: {
  broker: Broker;
  logger: Logger;
  access: AccessCache;
  tenants: TenantCache;
  exchanges: { commerce: string; identity: string };
}): Promise<BroadcastSubscription[]> {
  const { broker, logger, access, tenants, exchanges } = deps;
  const accessChanges = await subscribeBroadcast(broker, {
    exchange: exchanges.commerce,
    bindings: [ACCESS_CHANGED],
    logger,
    handler: (event) => {
      const change = accessChangeOf(event);
      if (change) access.forget(change);
    },
    onSubscribed: () => access.forget(),
  });
  const tenantUpdates = await subscribeBroadcast(broker, {
    exchange: exchanges.identity,
    bindings: [TENANT_UPDATED],
    logger,
    handler: (event) => {
      const update = tenantUpdateOf(event);
      if (!update) return;
      tenants.forget(update.tenantId);
      access.forget(update.tenantId === undefined ? {} : { tenantId: update.tenantId });
    },
    onSubscribed: () => tenants.forget(),
  });
  return [accessChanges, tenantUpdates];
}

/** catalog.events: a user's favorites changed on some replica (payload `{user_id}` or `{user_ids}`; @folio/messaging user-changes). */
export const FAVORITES_CHANGED = 'favorites.changed';
