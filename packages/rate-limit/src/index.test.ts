import { renderMetrics } from '@folio/telemetry';
import { testInfra, uniqueName } from '@folio/testing';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RateLimiter } from './index.js';

describe('RateLimiter against real Redis', () => {
  const redis = new Redis(testInfra().redisUrl);
  const limiter = new RateLimiter(redis, uniqueName('rl'));
  afterAll(() => redis.quit());

  it('when the limit is reached, then the next hit is refused with a Retry-After within the window', async () => {
    const rule = { name: 'refresh-ip', limit: 10, windowSeconds: 60 };
    const decisions = [];
    for (let i = 0; i < 11; i++) decisions.push(await limiter.hit(rule, '203.0.113.9'));
    expect(decisions.slice(0, 10).every((d) => d.allowed)).toBe(true);
    expect(decisions[10]).toMatchObject({ allowed: false, remaining: 0 });
    expect(decisions[10]!.retryAfterSeconds).toBeGreaterThan(0);
    expect(decisions[10]!.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('when keys differ, then they are counted apart; reset forgets a key', async () => {
    const rule = { name: 'tiny', limit: 1, windowSeconds: 60 };
    expect((await limiter.hit(rule, 'a')).allowed).toBe(true);
    expect((await limiter.hit(rule, 'b')).allowed).toBe(true);
    expect((await limiter.hit(rule, 'a')).allowed).toBe(false);
    await limiter.reset(rule, 'a');
    expect((await limiter.hit(rule, 'a')).allowed).toBe(true);
  });

  it('when asked whether a hit would be allowed, then nothing is counted and the answer follows the count', async () => {
    const rule = { name: 'peek', limit: 2, windowSeconds: 60 };
    expect(await limiter.wouldAllow(rule, 'p')).toMatchObject({ allowed: true, remaining: 1 });
    await limiter.hit(rule, 'p');
    expect((await limiter.wouldAllow(rule, 'p')).allowed).toBe(true);
    await limiter.hit(rule, 'p');
    const refused = await limiter.wouldAllow(rule, 'p');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('when the window ends, then hits are allowed again', async () => {
    const rule = { name: 'short', limit: 1, windowSeconds: 1 };
    await limiter.hit(rule, 'k');
    expect((await limiter.hit(rule, 'k')).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await limiter.hit(rule, 'k')).allowed).toBe(true);
  });
});

describe('RateLimiter.hitAndRead: several counters and one read in one round trip', () => {
  const redis = new Redis(testInfra().redisUrl);
  const prefix = uniqueName('rl');
  const limiter = new RateLimiter(redis, prefix);
  afterAll(() => redis.quit());

  it('when two rules are hit together, then each counts on its own key and the same key as hit() would', async () => {
    const global = { name: 'global-ip', limit: 3, windowSeconds: 60 };
    const route = { name: 'route-ip', limit: 1, windowSeconds: 60 };
    const first = await limiter.hitAndRead([
      { rule: global, key: 'ip' },
      { rule: route, key: 'ip' },
    ]);
    expect(first.decisions.map((d) => d.allowed)).toEqual([true, true]);
    expect(first.value).toBeNull();
    const second = await limiter.hitAndRead([
      { rule: global, key: 'ip' },
      { rule: route, key: 'ip' },
    ]);
    expect(second.decisions[0]).toMatchObject({ allowed: true, remaining: 1 });
    expect(second.decisions[1]).toMatchObject({ allowed: false, remaining: 0 });
    expect(second.decisions[1]!.retryAfterSeconds).toBeGreaterThan(0);
    expect(second.decisions[1]!.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Shared with hit(): the third hit of the global rule is the last one allowed.
    expect(await limiter.hit(global, 'ip')).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.hit(global, 'ip')).allowed).toBe(false);
  });

  it('when a key to read is given, then its value comes back with the decisions (null when absent)', async () => {
    const rule = { name: 'g', limit: 10, windowSeconds: 60 };
    const key = `${prefix}:read-me`;
    expect((await limiter.hitAndRead([{ rule, key: 'x' }], key)).value).toBeNull();
    await redis.set(key, 'hello', 'PX', 60_000);
    const { decisions, value } = await limiter.hitAndRead([{ rule, key: 'x' }], key);
    expect(value).toBe('hello');
    expect(decisions).toHaveLength(1);
    expect((await limiter.hitAndRead([], key)).value).toBe('hello');
  });

  it('when several keys to read are given, then each value comes back in their order', async () => {
    const rule = { name: 'g', limit: 10, windowSeconds: 60 };
    const [present, absent] = [`${prefix}:present`, `${prefix}:absent`];
    await redis.set(present, '7', 'PX', 60_000);
    const { decisions, value, values } = await limiter.hitAndRead([{ rule, key: 'y' }], absent, present);
    expect(values).toEqual([null, '7']);
    expect(value).toBeNull();
    expect(decisions).toHaveLength(1);
  });
});

describe('RateLimiter on a Redis Cluster', () => {
  const redis = new Redis(testInfra().redisUrl);
  const prefix = uniqueName('rl');
  const limiter = new RateLimiter(redis, prefix);
  afterAll(() => redis.quit());

  it('when one client hits several rules, then all its counters share one hash tag (one slot, so one script may touch them)', async () => {
    const rules = [
      { name: 'global-ip', limit: 100, windowSeconds: 60 },
      { name: 'refresh-ip', limit: 10, windowSeconds: 60 },
    ];
    await limiter.hitAndRead(
      rules.map((rule) => ({ rule, key: '198.51.100.7' })),
      `${prefix}-sess:some-jti`,
    );
    const keys = (await redis.keys(`${prefix}:*`)).sort();
    expect(keys).toEqual([`${prefix}:{198.51.100.7}:global-ip`, `${prefix}:{198.51.100.7}:refresh-ip`]);
    // Redis Cluster hashes only what is between the first { and the next }: the client key.
    expect(new Set(keys.map((key) => /\{([^}]*)\}/.exec(key)?.[1]))).toEqual(new Set(['198.51.100.7']));
  });

  it('when a hit is over its limit, then it is counted as a rejection of that rule', async () => {
    const rule = { name: uniqueName('tiny-rule'), limit: 1, windowSeconds: 60 };
    await limiter.hit(rule, 'k');
    await limiter.hit(rule, 'k');
    await limiter.hitAndRead([{ rule, key: 'k' }]);
    const { body } = await renderMetrics();
    expect(body).toContain(`folio_rate_limit_rejections_total{limiter="${rule.name}"} 2`);
  });
});
