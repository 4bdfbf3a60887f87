import { describe, expect, it } from 'vitest';
import { VerifiedTokenCache } from './verified-tokens.js';

describe('VerifiedTokenCache', () => {
  it('when an entry reaches its expiry, then it is gone', () => {
    const cache = new VerifiedTokenCache<string>(10);
    cache.set('t', 'claims', 1_000);
    expect(cache.get('t', 999)).toBe('claims');
    expect(cache.get('t', 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('when it is full, then the least recently used entry goes first', () => {
    const cache = new VerifiedTokenCache<number>(2);
    cache.set('a', 1, Infinity);
    cache.set('b', 2, Infinity);
    cache.get('a');
    cache.set('c', 3, Infinity);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('when its size is 0, then nothing is kept', () => {
    const cache = new VerifiedTokenCache<number>(0);
    cache.set('a', 1, Infinity);
    expect(cache.get('a')).toBeUndefined();
  });
});
