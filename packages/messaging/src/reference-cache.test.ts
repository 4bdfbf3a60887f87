import { renderMetrics } from '@folio/telemetry';
import { describe, expect, it } from 'vitest';
import { ReferenceCache } from './reference-cache.js';

function clockAt(start: number) {
  const clock = { time: start, now: () => clock.time };
  return clock;
}

describe('ReferenceCache', () => {
  it('when it is named, then its hits and misses are counted under that name (the hit ratio on /metrics)', async () => {
    const cache = new ReferenceCache<string, number>({ name: 'test-ratio', maxEntries: 10, ttlMs: 1_000, now: clockAt(0).now });
    await cache.get('a', async () => 1);
    await cache.get('a', async () => 1);
    await cache.get('a', async () => 1);

    const { body } = await renderMetrics();
    expect(body).toContain('folio_cache_lookups_total{cache="test-ratio",result="hit"} 2');
    expect(body).toContain('folio_cache_lookups_total{cache="test-ratio",result="miss"} 1');
  });

  it('when a key is read twice within the TTL, then it is loaded once', async () => {
    const cache = new ReferenceCache<string, number>({ maxEntries: 10, ttlMs: 1_000, now: clockAt(0).now });
    let loads = 0;
    const load = async () => ++loads;

    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('a', load)).toBe(1);
    expect(loads).toBe(1);
  });

  it('when the TTL has passed, then the key is loaded again', async () => {
    const clock = clockAt(0);
    const cache = new ReferenceCache<string, number>({ maxEntries: 10, ttlMs: 1_000, now: clock.now });
    let loads = 0;
    await cache.get('a', async () => ++loads);

    clock.time = 1_000;

    expect(await cache.get('a', async () => ++loads)).toBe(2);
  });

  it('when more keys than maxEntries are stored, then the least recently used goes', async () => {
    const cache = new ReferenceCache<string, string>({ maxEntries: 2, ttlMs: 1_000, now: clockAt(0).now });
    await cache.get('a', async () => 'A');
    await cache.get('b', async () => 'B');
    cache.peek('a');

    await cache.get('c', async () => 'C');

    expect(cache.peek('a')).toBe('A');
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('c')).toBe('C');
  });

  it('when entries are deleted by a predicate, then only those are loaded again', async () => {
    const cache = new ReferenceCache<string, string>({ maxEntries: 10, ttlMs: 1_000, now: clockAt(0).now });
    await cache.get('1:7', async () => 'user 7');
    await cache.get('1:8', async () => 'user 8');

    cache.deleteWhere((key) => key.endsWith(':7'));

    expect(cache.peek('1:7')).toBeUndefined();
    expect(cache.peek('1:8')).toBe('user 8');
  });

  it('when an invalidation arrives while a load is in flight, then that load is answered but not stored', async () => {
    const cache = new ReferenceCache<string, string>({ maxEntries: 10, ttlMs: 1_000, now: clockAt(0).now });
    let finish: (value: string) => void = () => {};
    const inFlight = cache.get('a', () => new Promise<string>((resolve) => (finish = resolve)));

    cache.delete('a');
    finish('before the purchase');

    expect(await inFlight).toBe('before the purchase');
    expect(cache.peek('a')).toBeUndefined();
    expect(await cache.get('a', async () => 'after the purchase')).toBe('after the purchase');
  });

  it('when concurrent misses ask for one key, then they share one load', async () => {
    const cache = new ReferenceCache<string, number>({ maxEntries: 10, ttlMs: 1_000, now: clockAt(0).now });
    let loads = 0;
    const load = async () => ++loads;

    const values = await Promise.all([cache.get('a', load), cache.get('a', load), cache.get('a', load)]);

    expect(values).toEqual([1, 1, 1]);
    expect(loads).toBe(1);
  });

  it('when a load fails, then nothing is stored and the next read loads again', async () => {
    const cache = new ReferenceCache<string, number>({ maxEntries: 10, ttlMs: 1_000, now: clockAt(0).now });

    await expect(cache.get('a', async () => Promise.reject(new Error('peer down')))).rejects.toThrow('peer down');

    expect(await cache.get('a', async () => 2)).toBe(2);
  });

  it('when the TTL is 0, then nothing is cached', async () => {
    const cache = new ReferenceCache<string, number>({ maxEntries: 10, ttlMs: 0, now: clockAt(0).now });
    let loads = 0;
    await cache.get('a', async () => ++loads);
    await cache.get('a', async () => ++loads);
    expect(loads).toBe(2);
  });

  it('when getPresent loads nothing, then it asks again next time; when it loads a value, then that is kept', async () => {
    const cache = new ReferenceCache<string, number>({ maxEntries: 10, ttlMs: 1_000, now: clockAt(0).now });
    let loads = 0;
    expect(await cache.getPresent('a', async () => (++loads, null))).toBeNull();
    expect(await cache.getPresent('a', async () => (++loads, 7))).toBe(7);
    expect(await cache.getPresent('a', async () => (++loads, 8))).toBe(7);
    expect(loads).toBe(2);
  });

  it('when an invalidation comes while getPresent loads, then the loaded value is returned but not kept', async () => {
    const cache = new ReferenceCache<string, number>({ maxEntries: 10, ttlMs: 1_000, now: clockAt(0).now });
    expect(await cache.getPresent('a', async () => (cache.delete('a'), 1))).toBe(1);
    expect(await cache.getPresent('a', async () => 2)).toBe(2);
  });

  it('when some values have a shorter TTL (ttlOf), then those are loaded again sooner', async () => {
    const clock = clockAt(0);
    const cache = new ReferenceCache<string, string | null>({
      maxEntries: 10,
      ttlMs: 30_000,
      ttlOf: (value) => (value === null ? 5_000 : 30_000),
      now: clock.now,
    });
    await cache.get('unknown', async () => null);
    await cache.get('known', async () => 'K');

    clock.time = 5_000;

    expect(cache.peek('unknown')).toBeUndefined();
    expect(cache.peek('known')).toBe('K');
  });
});

describe('ReferenceCache with lastKnown (the outage fallback)', () => {
  const outage = () => Promise.reject(Object.assign(new Error('owner down'), { code: 'UNAVAILABLE' }));
  const notFound = () => Promise.reject(Object.assign(new Error('gone'), { code: 'NOT_FOUND' }));

  function cacheWithFallback(clock = clockAt(0)) {
    const fallbacks: unknown[] = [];
    const cache = new ReferenceCache<number, string>({
      maxEntries: 10,
      ttlMs: 30_000,
      now: clock.now,
      lastKnown: { isOutage: (error) => (error as { code?: string }).code === 'UNAVAILABLE', onFallback: (error) => fallbacks.push(error) },
    });
    return { cache, clock, fallbacks };
  }

  it('when an entry expired and the owner does not answer, then the last value is served, and the owner is asked again a second later', async () => {
    const { cache, clock, fallbacks } = cacheWithFallback();
    await cache.get(1, async () => 'tenant 1');
    clock.time = 30_000;
    let asked = 0;
    const down = () => (asked++, outage());

    expect(await cache.get(1, down)).toBe('tenant 1');
    expect(await cache.get(1, down)).toBe('tenant 1');
    expect(asked).toBe(1);
    expect(fallbacks).toHaveLength(1);

    clock.time = 31_000;
    expect(await cache.get(1, async () => 'tenant 1, renamed')).toBe('tenant 1, renamed');
  });

  it('when the entry was invalidated and the owner does not answer, then the value from before is served', async () => {
    const { cache } = cacheWithFallback();
    await cache.get(1, async () => 'before');
    cache.clear();

    expect(await cache.get(1, outage)).toBe('before');
  });

  it('when a key was never loaded, then an outage fails the read', async () => {
    const { cache } = cacheWithFallback();
    await expect(cache.get(1, outage)).rejects.toThrow('owner down');
  });

  it('when the owner answers with an error that is not an outage, then it fails the read and the last value is forgotten', async () => {
    const { cache, clock } = cacheWithFallback();
    await cache.get(1, async () => 'tenant 1');
    clock.time = 30_000;

    await expect(cache.get(1, notFound)).rejects.toThrow('gone');
    await expect(cache.get(1, outage)).rejects.toThrow('owner down');
  });

  it('when two loads of a key overlap an invalidation, then the later one is what an outage falls back to', async () => {
    const { cache, clock } = cacheWithFallback();
    let finishOlder!: (value: string) => void;
    const older = cache.get(1, () => new Promise<string>((resolve) => (finishOlder = resolve)));
    cache.delete(1);
    await cache.get(1, async () => 'newer');
    finishOlder('older');
    await older;
    clock.time = 30_000;

    expect(await cache.get(1, outage)).toBe('newer');
  });

  it('without lastKnown, then an outage fails the read even after a value was loaded', async () => {
    const clock = clockAt(0);
    const cache = new ReferenceCache<number, string>({ maxEntries: 10, ttlMs: 1_000, now: clock.now });
    await cache.get(1, async () => 'tenant 1');
    clock.time = 1_000;
    await expect(cache.get(1, outage)).rejects.toThrow('owner down');
  });
});
