// Reader session liveness in Redis: what lets the gateway take a reader-token
// it verified before without calling VerifyReaderToken again. The store stays
// the source of truth; these keys are a cache of it, as identity's session
// liveness keys are for access tokens (the same scheme, keyed by session).
//
// Key `<prefix>:<session id>`:
//   - `<user id>` (decimal) while the session is live, living as long as the
//     token it was written for (at the opening; with SET NX when a resume
//     issues a new token, and by VerifyReaderToken after a miss, so that a
//     token outliving the key costs one more VerifyReaderToken);
//   - `-` once the session has ended (v1 DELETE, account erasure): a
//     tombstone, written BEFORE the store forgets the session, that outlives
//     every token the session can have. A verification that read the store
//     just before the end cannot bring the session back (SET NX).
// A missing key means "unknown", never "ended": the gateway then asks
// reader. The gateway reads this format in
// services/gateway/src/http/reader-token.ts; change both together.
import type { Logger } from '@folio/logger';
import type { Redis } from 'ioredis';
import type { LiveReaderSession, ReaderSessionLiveness } from '../domain/sessions.js';

export const ENDED = '-';

/** A tombstone outlives the longest token by this much, so clock skew with the gateway cannot reopen the gap. */
const TOMBSTONE_MARGIN_MS = 60_000;

export class RedisReaderSessionLiveness implements ReaderSessionLiveness {
  private lastWarning = 0;

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
    private readonly settings: { prefix: string; readerTokenTtlSeconds: number },
  ) {}

  keyOf(sessionId: number): string {
    return `${this.settings.prefix}:${sessionId}`;
  }

  async started(session: LiveReaderSession): Promise<void> {
    const ttl = session.tokenExpiresAt.getTime() - Date.now();
    if (ttl <= 0) return;
    await this.bestEffort(() => this.redis.set(this.keyOf(session.sessionId), String(session.userId), 'PX', ttl));
  }

  async confirmed(session: LiveReaderSession): Promise<void> {
    const ttl = session.tokenExpiresAt.getTime() - Date.now();
    if (ttl <= 0) return;
    await this.bestEffort(() => this.redis.set(this.keyOf(session.sessionId), String(session.userId), 'PX', ttl, 'NX'));
  }

  /** Throws when Redis does not take every tombstone: the caller leaves the sessions in the store (and retries). */
  async ended(sessionIds: readonly number[]): Promise<void> {
    const ttl = this.settings.readerTokenTtlSeconds * 1_000 + TOMBSTONE_MARGIN_MS;
    // One SET per key, sent back to back (one round trip on a single node);
    // not a pipeline, which a Redis Cluster refuses across slots.
    const results = await Promise.allSettled(sessionIds.map((id) => this.redis.set(this.keyOf(id), ENDED, 'PX', ttl)));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) {
      this.logger.error({ err: failed.reason, sessions: sessionIds.length }, 'reader sessions not ended: their end could not be written for the gateway');
      throw failed.reason;
    }
  }

  /** Without the key the gateway asks reader, which writes it again: a failure costs a round trip, not correctness. */
  private async bestEffort(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (Date.now() - this.lastWarning < 10_000) return;
      this.lastWarning = Date.now();
      this.logger.warn({ err: error }, 'reader session liveness not written; the gateway asks reader until it is');
    }
  }
}
