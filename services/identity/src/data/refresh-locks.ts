// Cheap rejection of concurrent refreshes of one refresh token. The store's
// unique insert still decides the one winner; this only keeps 99 losers from
// queueing on the store in front of it (100 concurrent refreshes of one token
// used to push the winner past the gateway's deadline). One lock per token
// hash: in this process first (no I/O), then across replicas in Redis
// (SET NX with an expiry, so a crashed holder cannot block the token). If
// Redis is unreachable the refresh goes ahead: the store stays correct.
// Implements the domain's RefreshLocks (domain/sessions.ts).
import type { Logger } from '@folio/logger';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { RefreshLocks } from '../domain/sessions.js';

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export class RedisRefreshLocks implements RefreshLocks {
  private readonly held = new Set<string>();

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
    private readonly prefix = 'identity:refresh-lock',
    private readonly ttlMs = 10_000,
  ) {}

  /** Runs `work` holding the token's lock; returns `busy` without running it when another refresh of the token is in flight. */
  async withLock<T>(tokenHash: string, work: () => Promise<T>): Promise<T | 'busy'> {
    if (this.held.has(tokenHash)) return 'busy';
    this.held.add(tokenHash);
    const key = `${this.prefix}:${tokenHash}`;
    const owner = randomUUID();
    let inRedis = false;
    try {
      try {
        inRedis = (await this.redis.set(key, owner, 'PX', this.ttlMs, 'NX')) === 'OK';
        if (!inRedis) return 'busy';
      } catch (error) {
        this.logger.warn({ err: error }, 'refresh lock unavailable; relying on the store alone');
      }
      return await work();
    } finally {
      this.held.delete(tokenHash);
      if (inRedis) await this.redis.eval(RELEASE, 1, key, owner).catch(() => undefined);
    }
  }
}
