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
//
// The changes of a short window (ANNOUNCE_WINDOW_MS from the first) leave as
// one event: a message each (published, confirmed, delivered to every
// replica, acknowledged) cost more of the broker and of the service than the
// writes' own bookkeeping. One event-loop turn was the window before, but
// under load a turn holds only the few saves whose answers came back in it;
// at 800 saves a second 20 ms holds about 16, and 20 ms is nothing beside the
// TTL that bounds a lost announcement. One user is `{user_id}` as
// always; several are `{user_ids: [...]}`, which a subscriber that predates it
// reads as "forget everything", still correct.
import type { Logger } from '@folio/logger';
import { subscribeBroadcast, type BroadcastSubscription } from './broadcast.js';
import type { Broker } from './broker.js';
import { createEvent } from './event.js';

/** Payload of every such event: one user (version 1) or several changed in the same moment. */
export type UserChangedPayload = { user_id: number } | { user_ids: number[] };

/** How long the changes after a first one wait to leave with it. */
export const ANNOUNCE_WINDOW_MS = 20;

/** Users waiting for the next announcement, per broker, exchange and event type. */
const pending = new WeakMap<Broker, Map<string, { exchange: string; type: string; users: Set<number>; logger: Logger }>>();

export function announceUserChange(broker: Broker, exchange: string, type: string, userId: number, logger: Logger): void {
  let perBroker = pending.get(broker);
  if (!perBroker) pending.set(broker, (perBroker = new Map()));
  const key = `${exchange}\u0000${type}`;
  const waiting = perBroker.get(key);
  if (waiting) {
    waiting.users.add(userId);
    return;
  }
  const batch = { exchange, type, users: new Set([userId]), logger };
  perBroker.set(key, batch);
  setTimeout(() => {
    perBroker.delete(key);
    publishChange(broker, batch);
  }, ANNOUNCE_WINDOW_MS).unref();
}

function publishChange(broker: Broker, batch: { exchange: string; type: string; users: Set<number>; logger: Logger }): void {
  const users = [...batch.users];
  const payload: UserChangedPayload = users.length === 1 ? { user_id: users[0]! } : { user_ids: users };
  broker.publish(batch.exchange, createEvent(batch.type, payload)).catch((error: unknown) => {
    batch.logger.debug({ err: error, user_ids: users }, `${batch.type} not announced; other replicas catch up within the TTL`);
  });
}

/** The users an event names; null: it names none (forget everything). */
export function changedUsersOf(payload: unknown): number[] | null {
  const isUser = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
  const fields = (payload ?? {}) as { user_id?: unknown; user_ids?: unknown };
  if (isUser(fields.user_id)) return [fields.user_id];
  if (Array.isArray(fields.user_ids) && fields.user_ids.length > 0 && fields.user_ids.every(isUser)) return fields.user_ids;
  return null;
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
      const users = changedUsersOf(event.payload);
      if (users) for (const userId of users) deps.forgetUser(userId);
      else deps.forgetAll();
    },
    onSubscribed: () => deps.forgetAll(),
  });
}
