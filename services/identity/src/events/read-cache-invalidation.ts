// Keeps every identity replica's read cache (data/read-cache.ts) honest about
// changes made through another replica or by the seed: tenant.updated drops
// the tenant, account.deleted the user. A broadcast subscription (a queue per
// process), because each replica holds its own cache; a fresh subscription
// drops everything, since events published while there was none were missed.
import type { Logger } from '@folio/logger';
import { subscribeBroadcast, tenantUpdateOf, TENANT_UPDATED, type BroadcastSubscription, type Broker } from '@folio/messaging';
import type { IdentityReadCache } from '../data/index.js';
import { EVENT } from '../domain/events.js';

export async function subscribeReadCacheInvalidation(deps: {
  broker: Broker;
  logger: Logger;
  cache: IdentityReadCache;
  exchange: string;
}): Promise<BroadcastSubscription> {
  const { broker, logger, cache, exchange } = deps;
  return subscribeBroadcast(broker, {
    exchange,
    bindings: [TENANT_UPDATED, EVENT.accountDeleted],
    logger,
    handler: (event) => {
      const update = tenantUpdateOf(event);
      if (update) return cache.forgetTenant(update.tenantId);
      const userId = (event.payload as { user_id?: unknown } | null)?.user_id;
      if (typeof userId === 'number') return cache.forgetUser(userId);
      cache.users.clear();
      cache.memberships.clear();
    },
    onSubscribed: () => {
      cache.forgetTenant();
      cache.users.clear();
      cache.memberships.clear();
    },
  });
}
