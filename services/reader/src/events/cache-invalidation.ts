// Drops reader's cached access decisions (peers/cached-access.ts) on every
// replica when commerce announces a change (purchase, grant, revocation,
// erasure, seed): a broadcast subscription, a queue per process. A fresh
// subscription drops everything, since events published while there was none
// were missed.
import type { Logger } from '@folio/logger';
import { accessChangeOf, ACCESS_CHANGED, subscribeBroadcast, type BroadcastSubscription, type Broker } from '@folio/messaging';

export interface AccessCache {
  forget(scope?: { tenantId?: number; userId?: number }): void;
}

export function subscribeAccessInvalidation(deps: { broker: Broker; logger: Logger; access: AccessCache; exchange: string }): Promise<BroadcastSubscription> {
  const { broker, logger, access, exchange } = deps;
  return subscribeBroadcast(broker, {
    exchange,
    bindings: [ACCESS_CHANGED],
    logger,
    handler: (event) => {
      const change = accessChangeOf(event);
      if (change) access.forget(change);
    },
    onSubscribed: () => access.forget(),
  });
}
