// notes.changed on the notes exchange: a replica that wrote notes tells the
// others to drop their cached lists (data/cached-notes.ts). A broadcast
// subscription, a queue per process; a fresh one drops everything, since
// events published while there was none were missed. Best effort, not
// through an outbox: the write itself is stored either way, and a lost event
// costs at most NOTES_CACHE_TTL_MS of a stale list on another replica.
import type { Logger } from '@folio/logger';
import { createEvent, subscribeBroadcast, type BroadcastSubscription, type Broker } from '@folio/messaging';
import type { NotesChange } from '../data/cached-notes.js';

export const NOTES_CHANGED = 'notes.changed';

interface NotesChangedPayload {
  user_id: number;
  tenant_id?: number;
  issue_id?: number;
}

export function announceNotesChanged(broker: Broker, exchange: string, logger: Logger): (change: NotesChange) => void {
  return (change) => {
    const payload: NotesChangedPayload = {
      user_id: change.userId,
      ...(change.scope && { tenant_id: change.scope.tenantId, issue_id: change.scope.issueId }),
    };
    broker.publish(exchange, createEvent(NOTES_CHANGED, payload)).catch((error: unknown) => {
      logger.debug({ err: error, user_id: change.userId }, 'notes.changed not announced; other replicas catch up within the TTL');
    });
  };
}

export function subscribeNotesInvalidation(deps: {
  broker: Broker;
  logger: Logger;
  notes: { forget(change?: NotesChange): void };
  exchange: string;
}): Promise<BroadcastSubscription> {
  const { broker, logger, notes, exchange } = deps;
  const int = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined);
  return subscribeBroadcast(broker, {
    exchange,
    bindings: [NOTES_CHANGED],
    logger,
    handler: (event) => {
      const payload = (event.payload ?? {}) as Record<string, unknown>;
      const userId = int(payload.user_id);
      if (userId === undefined) return notes.forget();
      const tenantId = int(payload.tenant_id);
      const issueId = int(payload.issue_id);
      notes.forget(tenantId !== undefined && issueId !== undefined ? { userId, scope: { tenantId, userId, issueId } } : { userId });
    },
    onSubscribed: () => notes.forget(),
  });
}
