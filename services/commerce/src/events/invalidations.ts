// Cache invalidation in commerce: identity's tenant.updated drops the cached
// tenant settings (currency, free access, app schemes) of this replica. A
// broadcast subscription, not a work queue, because every replica holds its
// own copy; while the broker is away, TENANT_CACHE_SECONDS bounds staleness.
import type { Logger } from '@folio/logger';
import { subscribeBroadcast, tenantUpdateOf, TENANT_UPDATED, type Broker, type BroadcastSubscription } from '@folio/messaging';

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
