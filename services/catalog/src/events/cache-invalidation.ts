// Keeps catalog's caches honest on every replica: commerce's access.changed
// drops cached access decisions and offers, identity's tenant.updated drops
// the tenant's settings and (free access, currency) its offers, and catalog's
// own favorites.changed drops a user's cached favorite flags. Broadcast subscriptions (a queue per process), not the
// shared work queues, because each replica holds its own cache. After a
// broker outage the subscription is new and everything is dropped, since
// events published meanwhile were missed; while the broker stays down, the
// caches' TTLs bound what a user sees (ACCESS_CACHE_TTL_MS, TENANT_CACHE_TTL_MS).
import type { Logger } from '@folio/logger';
import {
  accessChangeOf,
  ACCESS_CHANGED,
  createEvent,
  subscribeBroadcast,
  tenantUpdateOf,
  TENANT_UPDATED,
  type BroadcastSubscription,
  type Broker,
} from '@folio/messaging';

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

/** catalog.events: a user's favorites changed on some replica (payload `{user_id}`). */
export const FAVORITES_CHANGED = 'favorites.changed';

/**
 * Tells every replica to drop a user's cached favorite flags. Not through an
 * outbox: losing one leaves another replica's flag stale until
 * FAVORITE_CACHE_TTL_MS, and the change itself is stored. Never awaited by the
 * request that wrote.
 */
export function announceFavoritesChanged(broker: Broker, exchange: string, userId: number, logger: Logger): void {
  broker.publish(exchange, createEvent(FAVORITES_CHANGED, { user_id: userId })).catch((error: unknown) => {
    logger.debug({ err: error, user_id: userId }, 'favorites.changed not announced; other replicas catch up within the TTL');
  });
}

export function subscribeFavoriteInvalidation(deps: {
  broker: Broker;
  logger: Logger;
  favorites: { forgetUser(userId: number): void; clear(): void };
  exchange: string;
}): Promise<BroadcastSubscription> {
  const { broker, logger, favorites, exchange } = deps;
  return subscribeBroadcast(broker, {
    exchange,
    bindings: [FAVORITES_CHANGED],
    logger,
    handler: (event) => {
      const userId = (event.payload as { user_id?: unknown } | null)?.user_id;
      if (typeof userId === 'number' && Number.isSafeInteger(userId)) favorites.forgetUser(userId);
      else favorites.clear();
    },
    // Changes announced while this replica had no queue are lost to it: start afresh.
    onSubscribed: () => favorites.clear(),
  });
}
