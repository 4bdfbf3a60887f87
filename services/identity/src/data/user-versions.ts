// The users' response versions in Redis: the gateway answers a user's
// repeated reads from its cache while their version stays the same
// (services/gateway/src/http/response-cache.ts). Identity sets a new one when
// it changes what GET /user and the multi-tenant listings show of a user (a
// membership: joining a store at login or through a purchase), before the
// change is answered, so the user's next request sees it on every gateway
// replica. Key `<prefix>:<user id>`; the value only has to differ from every
// earlier one. Best effort: without Redis the gateway does not use its cache.
import { randomBytes } from 'node:crypto';
import type { Logger } from '@folio/logger';
import type { Redis } from 'ioredis';

export interface UserVersions {
  /** A user's documents changed: outdate the gateway's cached answers for them. */
  changed(userId: number): Promise<void>;
}

/** A version key outlives the last change by a day; a missing key is a version too (the gateway reads null). */
const VERSION_TTL_MS = 86_400_000;

export class RedisUserVersions implements UserVersions {
  private readonly process = randomBytes(6).toString('base64url');
  private count = 0;

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
    private readonly prefix = 'uver',
  ) {}

  async changed(userId: number): Promise<void> {
    try {
      await this.redis.set(`${this.prefix}:${userId}`, `${this.process}.${(++this.count).toString(36)}`, 'PX', VERSION_TTL_MS);
    } catch (error) {
      this.logger.warn({ err: error, user_id: userId }, 'user version not written; the gateway may show the change only after its cache TTL');
    }
  }
}
