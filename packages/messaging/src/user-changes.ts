// "A user's documents of some kind changed on some replica" (reader's
// positions.changed, catalog's favorites.changed): the announcement behind
// the per-user caches a service keeps of its own documents. The replica that
// wrote drops its own entry at once; this tells the others, through a
// broadcast subscription (a queue per process; a fresh one drops everything,
// since events published while there was none were missed).
//
// Best effort, not through an outbox: the write itself is stored either way,
// and a lost announcement leaves another replica's entry stale only until the
// cache's TTL. Never awaited by the request that wrote.
import type { Logger } from '@folio/logger';
import { subscribeBroadcast, type BroadcastSubscription } from './broadcast.js';
import type { Broker } from './broker.js';
import { createEvent } from './event.js';

/** Payload of every such event, version 1. */
export interface UserChangedPayload {
  user_id: number;
}

export function announceUserChange(broker: Broker, exchange: string, type: string, userId: number, logger: Logger): void {
  const payload: UserChangedPayload = { user_id: userId };
  broker.publish(exchange, createEvent(type, payload)).catch((error: unknown) => {
    logger.debug({ err: error, user_id: userId }, `${type} not announced; other replicas catch up within the TTL`);
  });
}

/** Drops one user's entries on each `type` event of `exchange` (everything when the payload names no user). */
export function subscribeUserChanges(deps: {
  broker: Broker;
  logger: Logger;
  exchange: string;
  type: string;
  forgetUser(userId: number): void;
  forgetAll(): void;
}): Promise<BroadcastSubscription> {
  const { broker, logger, exchange, type } = deps;
  return subscribeBroadcast(broker, {
    exchange,
    bindings: [type],
    logger,
    handler: (event) => {
      const userId = (event.payload as Partial<UserChangedPayload> | null)?.user_id;
      if (typeof userId === 'number' && Number.isSafeInteger(userId)) deps.forgetUser(userId);
      else deps.forgetAll();
    },
    onSubscribed: () => deps.forgetAll(),
  });
}
