// Fixed-window rate limits in Redis, shared by every replica. A rule is
// "at most `limit` hits per `windowSeconds` per key"; a refused hit says how
// long until the window ends (the Retry-After header).
//
// `hitAndRead` counts several hits and reads a few more keys (the gateway's
// session liveness and the user's response version) in one round trip: the
// counters of one client in a Lua script (loaded once per connection, then
// called by its SHA: ioredis `defineCommand`), each read as a plain GET, sent
// together.
//
// Redis Cluster: a script may only touch keys of one hash slot. Counter keys
// are `<prefix>:{<key>}:<rule>`, so the hash tag `{<key>}` (the client IP, the
// e-mail digest) puts every counter of one client in one slot; the read key
// keys (`sess:<jti>`, `uver:<user>`) have slots of their own and are never in
// the same command. The
// same code works on a single node, where the commands share the round trip,
// and on a cluster, where each goes to its slot's node.
//
// Every hit over its limit counts in `folio_rate_limit_rejections_total{limiter}`.
import { countRateLimitRejection } from '@folio/telemetry';
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

// KEYS: the counters of one client (one hash slot). ARGV[i]: the window of
// counter i in ms. Returns {count1, ttl1, count2, ttl2, ...}.
const HIT_MANY = `
local out = {}
for i = 1, #KEYS do
  local count = redis.call('INCR', KEYS[i])
  if count == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[i]) end
  out[#out + 1] = count
  out[#out + 1] = redis.call('PTTL', KEYS[i])
end
return out
`;

const COMMAND = 'folioHitMany';

type HitMany = (...args: (string | number)[]) => Promise<unknown[]>;

export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'rl',
  ) {
    // defineCommand is per connection object; defining it twice is harmless.
    if (typeof (redis as unknown as Record<string, unknown>)[COMMAND] !== 'function') {
      redis.defineCommand(COMMAND, { lua: HIT_MANY });
    }
  }

  async hit(rule: RateRule, key: string): Promise<RateDecision> {
    const [count, ttlMs] = (await this.redis.eval(HIT, 1, this.keyOf(rule, key), rule.windowSeconds * 1000)) as [number, number];
    return counted(rule, decisionOf(rule, count, ttlMs));
  }

  /**
   * Counts every hit and reads `readKeys` (full keys, not prefixed) in one
   * round trip: one script per client key (the gateway has one, the IP) and a
   * GET per key, written together. `values[i]` is null when `readKeys[i]` is
   * absent; `value` is the first (null when none was asked for).
   */
  async hitAndRead(hits: readonly RateHit[], ...readKeys: string[]): Promise<{ decisions: RateDecision[]; value: string | null; values: (string | null)[] }> {
    const byClient = new Map<string, number[]>();
    hits.forEach(({ key }, i) => {
      const group = byClient.get(key);
      if (group) group.push(i);
      else byClient.set(key, [i]);
    });
    const command = (this.redis as unknown as Record<string, HitMany>)[COMMAND]!.bind(this.redis);
    const decisions: RateDecision[] = new Array<RateDecision>(hits.length);
    const counting = [...byClient.values()].map(async (group) => {
      const keys = group.map((i) => this.keyOf(hits[i]!.rule, hits[i]!.key));
      const windows = group.map((i) => hits[i]!.rule.windowSeconds * 1000);
      const reply = await command(keys.length, ...keys, ...windows);
      group.forEach((i, j) => {
        decisions[i] = decisionOf(hits[i]!.rule, Number(reply[2 * j]), Number(reply[2 * j + 1]));
      });
    });
    const reading = Promise.all(readKeys.map((key) => this.redis.get(key)));
    const [values] = await Promise.all([reading, Promise.all(counting)]);
    hits.forEach(({ rule }, i) => counted(rule, decisions[i]!));
    return { decisions, value: values[0] ?? null, values };
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

  /** `<prefix>:{<key>}:<rule>`: every counter of one client in one cluster hash slot. */
  private keyOf(rule: RateRule, key: string): string {
    return `${this.prefix}:{${key}}:${rule.name}`;
  }
}

function counted(rule: RateRule, decision: RateDecision): RateDecision {
  if (!decision.allowed) countRateLimitRejection(rule.name);
  return decision;
}

function decisionOf(rule: RateRule, count: number, ttlMs: number): RateDecision {
  const retryAfterSeconds = Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : rule.windowSeconds * 1000) / 1000));
  return { allowed: count <= rule.limit, remaining: Math.max(0, rule.limit - count), retryAfterSeconds };
}
