// Fixed-window rate limits in Redis, shared by every replica. A rule is
// "at most `limit` hits per `windowSeconds` per key"; a refused hit says how
// long until the window ends (the Retry-After header).
//
// `hitAndRead` counts several hits and reads one more key (the gateway's
// session liveness) in ONE round trip: a Lua script loaded once per
// connection and then called by its SHA (ioredis `defineCommand`). It touches
// keys of different hash slots, so it needs a single Redis node (or a
// cluster-aware rewrite), which is what every deployment of ours has.
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

export interface RateHit {
  rule: RateRule;
  key: string;
}

// INCR and set the expiry on the first hit in one round trip, atomically.
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
return {count, ttl}
`;

// The current count and its remaining window, without counting.
const PEEK = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
return {count, redis.call('PTTL', KEYS[1])}
`;

// KEYS: the counters, then optionally the key to read. ARGV[1]: how many
// counters; ARGV[1 + i]: the window of counter i in ms. Returns
// {count1, ttl1, count2, ttl2, ..., value-or-nil}.
const HIT_MANY_AND_READ = `
local counters = tonumber(ARGV[1])
local out = {}
for i = 1, counters do
  local count = redis.call('INCR', KEYS[i])
  if count == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[i + 1]) end
  out[#out + 1] = count
  out[#out + 1] = redis.call('PTTL', KEYS[i])
end
if #KEYS > counters then out[#out + 1] = redis.call('GET', KEYS[counters + 1]) end
return out
`;

const COMMAND = 'folioHitManyAndRead';

type HitManyAndRead = (...args: (string | number)[]) => Promise<unknown[]>;

export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'rl',
  ) {
    // defineCommand is per connection object; defining it twice is harmless.
    if (typeof (redis as unknown as Record<string, unknown>)[COMMAND] !== 'function') {
      redis.defineCommand(COMMAND, { lua: HIT_MANY_AND_READ });
    }
  }

  async hit(rule: RateRule, key: string): Promise<RateDecision> {
    const [count, ttlMs] = (await this.redis.eval(HIT, 1, this.keyOf(rule, key), rule.windowSeconds * 1000)) as [number, number];
    return decisionOf(rule, count, ttlMs);
  }

  /**
   * Counts every hit and reads `readKey` (a full key, not prefixed) in one
   * round trip. `value` is null when the key is absent or none was asked for.
   */
  async hitAndRead(hits: readonly RateHit[], readKey?: string): Promise<{ decisions: RateDecision[]; value: string | null }> {
    const keys = hits.map(({ rule, key }) => this.keyOf(rule, key));
    if (readKey !== undefined) keys.push(readKey);
    const windows = hits.map(({ rule }) => rule.windowSeconds * 1000);
    const command = (this.redis as unknown as Record<string, HitManyAndRead>)[COMMAND]!.bind(this.redis);
    const reply = await command(keys.length, ...keys, hits.length, ...windows);
    const decisions = hits.map(({ rule }, i) => decisionOf(rule, Number(reply[2 * i]), Number(reply[2 * i + 1])));
    const value = readKey === undefined ? null : ((reply[2 * hits.length] as string | null | undefined) ?? null);
    return { decisions, value };
  }

  /**
   * Whether one more hit would still be allowed, without counting one: for
   * limits on failures, checked before the attempt and hit only when it fails.
   */
  async wouldAllow(rule: RateRule, key: string): Promise<RateDecision> {
    const [count, ttlMs] = (await this.redis.eval(PEEK, 1, this.keyOf(rule, key))) as [number, number];
    return decisionOf(rule, count + 1, ttlMs);
  }

  /** Forgets a key's hits, e.g. after a successful login. */
  async reset(rule: RateRule, key: string): Promise<void> {
    await this.redis.del(this.keyOf(rule, key));
  }

  private keyOf(rule: RateRule, key: string): string {
    return `${this.prefix}:${rule.name}:${key}`;
  }
}

function decisionOf(rule: RateRule, count: number, ttlMs: number): RateDecision {
  const retryAfterSeconds = Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : rule.windowSeconds * 1000) / 1000));
  return { allowed: count <= rule.limit, remaining: Math.max(0, rule.limit - count), retryAfterSeconds };
}
