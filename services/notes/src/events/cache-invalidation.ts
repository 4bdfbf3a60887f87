// notes.changed on the notes exchange: a replica that wrote notes tells the
// others to drop their cached lists of that user (data/cached-notes.ts).
// @folio/messaging's user-change announcement: best effort, not through an
// outbox (the write itself is stored either way, and a lost event costs at
// most NOTES_CACHE_TTL_MS of a stale list on another replica), and the
// changes of a 20 ms window leave as one event. With a message per note
// (published, routed to every replica's queue, consumed, acknowledged), a
// burst of note creates cost RabbitMQ and notes several times the CPU
// (`pnpm bench:api -- --only="POST /api/v2/reader/notes"`, bench/api/HISTORY.md).
// The other replicas drop all of the user's lists, not only the issue's: a
// reader has lists in few issues at a time.
import type { Logger } from '@folio/logger';
import { announceUserChange, subscribeUserChanges, type BroadcastSubscription, type Broker } from '@folio/messaging';
import type { NotesChange } from '../data/cached-notes.js';

export const NOTES_CHANGED = 'notes.changed';

export function announceNotesChanged(broker: Broker, exchange: string, logger: Logger): (change: NotesChange) => void {
  return (change) => announceUserChange(broker, exchange, NOTES_CHANGED, change.userId, logger);
}

export function subscribeNotesInvalidation(deps: {
  broker: Broker;
  logger: Logger;
  notes: { forget(change?: NotesChange): void };
  exchange: string;
}): Promise<BroadcastSubscription> {
  const { broker, logger, notes, exchange } = deps;
  return subscribeUserChanges({
    broker,
    logger,
    exchange,
    type: NOTES_CHANGED,
    forgetUser: (userId) => notes.forget({ userId }),
    forgetAll: () => notes.forget(),
  });
}
