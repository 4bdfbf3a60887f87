// Session liveness in Redis: what lets the gateway authenticate a request
// without calling identity. The store stays the source of truth; these keys
// are a cache of it that identity writes right after each store change.
//
// Key `<prefix>:<jti>`, one per access token, living as long as the token:
//   - `{"u":<user id>,"e":"<email>","a":<admin>}` while the session is live
//     (written at login and rotation, and again by CheckSession after a miss);
//   - `-` once the session has ended (logout, rotation, eviction, family
//     revocation, account erasure): a tombstone, so that a CheckSession that
//     read the store just before the end cannot bring the session back (it
//     re-writes with SET NX).
// A missing key means "unknown", never "logged out": the gateway then asks
// identity (CheckSession). The gateway reads this format in
// services/gateway/src/http/session-liveness.ts; change both together.
// Implements the domain's SessionLiveness (domain/sessions.ts).
import type { Logger } from '@folio/logger';
import type { Redis } from 'ioredis';
import type { EndedSession, LiveSession, SessionLiveness } from '../domain/sessions.js';

export const ENDED = '-';

/** A tombstone outlives its token by this much, so clock skew with the gateway cannot reopen the gap. */
const TOMBSTONE_MARGIN_MS = 60_000;

/**
 * How long a best-effort write holds up its caller. Redis answers within a
 * millisecond; while it restarts, ioredis keeps a command until its timeout
 * or its reconnection gives up, a second or more, and a CheckSession that
 * waited that long behind the gateway's 2 s deadline timed out and opened the
 * gateway's breaker on CheckSession (the fault suite's Redis restart found
 * it). The write goes on after the wait, and its failure is logged.
 */
const BEST_EFFORT_WAIT_MS = 100;

export class RedisSessionLiveness implements SessionLiveness {
  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
    private readonly prefix = 'sess',
  ) {}

  keyOf(jti: string): string {
    return `${this.prefix}:${jti}`;
  }

  /** A new session (login, rotation). Best effort: without the key the gateway asks identity, which re-writes it. */
  async started(session: LiveSession): Promise<void> {
    const ttl = session.tokenExpiresAt.getTime() - Date.now();
    if (ttl <= 0) return;
    await this.bestEffort(() => this.redis.set(this.keyOf(session.jti), valueOf(session), 'PX', ttl), 'started');
  }

  /** CheckSession found the session live in the store: re-write the key unless it exists (live, or ended meanwhile). */
  async confirmed(session: LiveSession): Promise<void> {
    const ttl = session.tokenExpiresAt.getTime() - Date.now();
    if (ttl <= 0) return;
    await this.bestEffort(() => this.redis.set(this.keyOf(session.jti), valueOf(session), 'PX', ttl, 'NX'), 'confirmed');
  }

  /**
   * Sessions that ended in the store. Throws when Redis does not take the
   * tombstones: the caller decides whether that fails the use case.
   */
  async ended(sessions: readonly EndedSession[]): Promise<void> {
    const now = Date.now();
    // One SET per key, all sent at once (ioredis writes them back to back: one
    // round trip on a single node) rather than in one pipeline, which a Redis
    // Cluster refuses across slots; every jti has a slot of its own.
    const writes: Promise<unknown>[] = [];
    for (const session of sessions) {
      const ttl = session.tokenExpiresAt.getTime() - now + TOMBSTONE_MARGIN_MS;
      if (ttl <= 0) continue;
      writes.push(this.redis.set(this.keyOf(session.jti), ENDED, 'PX', ttl));
    }
    const failed = (await Promise.allSettled(writes)).find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** `ended` for the paths that must not fail once the store changed: logged, the token's remaining life bounds the exposure. */
  async endedOrLog(sessions: readonly EndedSession[], reason: string): Promise<void> {
    try {
      await this.ended(sessions);
    } catch (error) {
      this.logger.error(
        { err: error, reason, sessions: sessions.length },
        'session liveness not updated: ended sessions stay live in Redis until their tokens expire',
      );
    }
  }

  private async bestEffort(write: () => Promise<unknown>, what: string): Promise<void> {
    const written = write().then(
      () => undefined,
      (error: unknown) => this.logger.warn({ err: error, what }, 'session liveness not written; the gateway will ask identity'),
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, BEST_EFFORT_WAIT_MS);
      timer.unref();
    });
    await Promise.race([written, waited]);
    clearTimeout(timer);
  }
}

function valueOf(session: LiveSession): string {
  return JSON.stringify({ u: session.userId, e: session.email, a: session.admin });
}
