// Per-user versions of a user's reading state in Redis: what lets every
// replica answer a user's positions and settings from its own memory and still
// see a write another replica answered a moment ago. Each write of the state
// sets a new version after the store write (MongoPositionRepository,
// MongoUserSettingsRepository); a cached entry remembers the version it was
// loaded at, and a read that finds another one reloads from the store. The
// broadcast (positions.changed) still drops entries, but only to free memory
// early: it arrives after the write is answered, the version before.
//
// Key `<prefix>:<aggregate>:<user id>`, a value unique to one write (or to the
// read that found no key): never an old value again, so a key that expired or
// that Redis lost cannot make an entry loaded at an earlier value look current.
import { randomBytes } from 'node:crypto';
import type { Logger } from '@folio/logger';
import type { Redis } from 'ioredis';

export interface UserVersions {
  /** The user's current version; null when it cannot be known now (Redis unreachable): read the store, serve nothing cached. */
  get(userId: number): Promise<string | null>;
  /** The user's state was written (or may have been): every entry loaded before is outdated. Never throws. */
  bump(userId: number): Promise<void>;
}

/** A warning about Redis at most this often, not one per request. */
const WARN_EVERY_MS = 10_000;
/** After a failed command, reads go straight to the store this long instead of each waiting on Redis (a write still tries). */
const SKIP_AFTER_FAILURE_MS = 1_000;
/** A version key outlives the cache entries loaded at it (they would only be reloaded otherwise), and at least this. */
const MIN_KEY_TTL_MS = 600_000;

export class RedisUserVersions implements UserVersions {
  private readonly process = randomBytes(6).toString('base64url');
  private count = 0;
  private readonly keyTtlMs: number;
  private skipUntil = 0;
  private lastWarning = 0;

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
    private readonly settings: { prefix: string; aggregate: string; cacheTtlMs: number },
  ) {
    this.keyTtlMs = Math.max(2 * settings.cacheTtlMs, MIN_KEY_TTL_MS);
  }

  keyOf(userId: number): string {
    return `${this.settings.prefix}:${this.settings.aggregate}:${userId}`;
  }

  async get(userId: number): Promise<string | null> {
    // Disconnected (or just failed): the store answers at once rather than after a timeout.
    if (this.redis.status !== 'ready' || Date.now() < this.skipUntil) return null;
    const key = this.keyOf(userId);
    try {
      const current = await this.redis.get(key);
      if (current !== null) return current;
      // No write within the key's lifetime: start it here, so that the next write's value differs from it.
      const fresh = this.nextValue();
      if ((await this.redis.set(key, fresh, 'PX', this.keyTtlMs, 'NX')) === 'OK') return fresh;
      return await this.redis.get(key); // another replica started it meanwhile
    } catch (error) {
      this.skipUntil = Date.now() + SKIP_AFTER_FAILURE_MS;
      this.warn(error, 'reading state version not read; reading the store');
      return null;
    }
  }

  async bump(userId: number): Promise<void> {
    try {
      await this.redis.set(this.keyOf(userId), this.nextValue(), 'PX', this.keyTtlMs);
    } catch (error) {
      this.skipUntil = Date.now() + SKIP_AFTER_FAILURE_MS;
      // Replicas that reach Redis may answer their cached entry until positions.changed drops it.
      this.warn(error, 'reading state version not written; other replicas see the write once positions.changed arrives');
    }
  }

  private nextValue(): string {
    return `${this.process}.${(++this.count).toString(36)}`;
  }

  private warn(error: unknown, message: string): void {
    if (Date.now() - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = Date.now();
    this.logger.warn({ err: error, aggregate: this.settings.aggregate }, message);
  }
}
