// Keeps reader's caches honest on every replica, through broadcast
// subscriptions (a queue per process; a fresh one drops everything, since
// events published while there was none were missed): commerce's
// access.changed (purchase, grant, revocation, erasure, seed) drops cached
// access decisions (peers/cached-access.ts); reader's own positions.changed
// (subscribeUserChanges of @folio/messaging, in app.ts) drops a user's cached positions (data/positions.ts) written through
// another replica; reader's own content.ingested drops an issue's cached manifest (a new file is live).
import type { Logger } from '@folio/logger';
import { accessChangeOf, ACCESS_CHANGED, CONTENT_INGESTED, createEvent, subscribeBroadcast, type BroadcastSubscription, type Broker } from '@folio/messaging';

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

/**
 * reader.events: a user's reading state (positions or reader settings)
 * changed on some replica (payload `{user_id}` or `{user_ids}`; @folio/messaging
 * user-changes); the name is the wire's and stays.
 */
export const POSITIONS_CHANGED = 'positions.changed';

/** reader.events: sessions ended on some replica (payload `{session_id}` or, for erasure, `{user_id}`). */
export const SESSIONS_ENDED = 'sessions.ended';

/** Tells every replica to forget ended sessions; best effort like positions.changed (SESSION_CACHE_TTL_MS bounds a lost one). */
export function announceSessionsEnded(broker: Broker, exchange: string, change: { sessionId?: number; userId?: number }, logger: Logger): void {
  const payload = { ...(change.sessionId !== undefined && { session_id: change.sessionId }), ...(change.userId !== undefined && { user_id: change.userId }) };
  broker.publish(exchange, createEvent(SESSIONS_ENDED, payload)).catch((error: unknown) => {
    logger.debug({ err: error, ...payload }, 'sessions.ended not announced; other replicas catch up within the TTL');
  });
}

export function subscribeSessionInvalidation(deps: {
  broker: Broker;
  logger: Logger;
  sessions: { forget(change?: { sessionId?: number; userId?: number }): void };
  exchange: string;
}): Promise<BroadcastSubscription> {
  const { broker, logger, sessions, exchange } = deps;
  const int = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined);
  return subscribeBroadcast(broker, {
    exchange,
    bindings: [SESSIONS_ENDED],
    logger,
    handler: (event) => {
      const payload = (event.payload ?? {}) as Record<string, unknown>;
      const sessionId = int(payload.session_id);
      const userId = int(payload.user_id);
      sessions.forget(sessionId !== undefined ? { sessionId } : userId !== undefined ? { userId } : {});
    },
    onSubscribed: () => sessions.forget(),
  });
}

/** What holds an issue's manifest in memory (data/manifests.ts ManifestCache, by `<tenant>:<issue>` and by issue). */
export interface ManifestForgetter {
  forget(tenantId: number, issueId: number): void;
  forgetAll(): void;
}

/**
 * reader.events content.ingested (this or another replica's worker switched an
 * issue to a new file): every replica drops the manifest it holds, so sessions
 * opened from now on get the new version.
 */
export function subscribeContentInvalidation(deps: {
  broker: Broker;
  logger: Logger;
  manifests: ManifestForgetter;
  exchange: string;
}): Promise<BroadcastSubscription> {
  const { broker, logger, manifests, exchange } = deps;
  return subscribeBroadcast(broker, {
    exchange,
    bindings: [CONTENT_INGESTED],
    logger,
    handler: (event) => {
      const payload = (event.payload ?? {}) as Record<string, unknown>;
      const { tenant_id: tenantId, issue_id: issueId } = payload;
      if (typeof tenantId === 'number' && typeof issueId === 'number') manifests.forget(tenantId, issueId);
    },
    onSubscribed: () => manifests.forgetAll(),
  });
}
