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

  it('when the window ends, then hits are allowed again', async () => {
    const rule = { name: 'short', limit: 1, windowSeconds: 1 };
    await limiter.hit(rule, 'k');
    expect((await limiter.hit(rule, 'k')).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await limiter.hit(rule, 'k')).allowed).toBe(true);
  });
});
