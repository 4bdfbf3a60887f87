// Fixed-window rate limits in Redis, shared by every replica. A rule is
// "at most `limit` hits per `windowSeconds` per key"; a refused hit says how
// long until the window ends (the Retry-After header).
import type { Redis } from 'ioredis';

export interface RateRule {
  /** Names the rule in keys and logs, e.g. `refresh-ip`. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

// INCR and set the expiry on the first hit in one round trip, atomically.
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
return {count, ttl}
`;

export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'rl',
  ) {}

  async hit(rule: RateRule, key: string): Promise<RateDecision> {
    const redisKey = `${this.prefix}:${rule.name}:${key}`;
    const [count, ttlMs] = (await this.redis.eval(HIT, 1, redisKey, rule.windowSeconds * 1000)) as [number, number];
    const retryAfterSeconds = Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : rule.windowSeconds * 1000) / 1000));
    return { allowed: count <= rule.limit, remaining: Math.max(0, rule.limit - count), retryAfterSeconds };
  }

  /** Forgets a key's hits, e.g. after a successful login. */
  async reset(rule: RateRule, key: string): Promise<void> {
    await this.redis.del(`${this.prefix}:${rule.name}:${key}`);
  }
}
