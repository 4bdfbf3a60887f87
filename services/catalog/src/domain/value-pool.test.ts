import { describe, expect, it } from 'vitest';
import { ValuePool } from './value-pool.js';

describe('ValuePool', () => {
  it('when equal lists and strings are asked for, then each is one frozen copy', () => {
    const shared = new ValuePool();
    const first = shared.list(['fiction', 'magazines']);
    expect(shared.list(['fiction', 'magazines'])).toBe(first);
    expect(first).toEqual(['fiction', 'magazines']);
    expect(Object.isFrozen(first)).toBe(true);
    expect(shared.list(['fiction'])).not.toBe(first);
    expect(shared.list(['fiction', 'magazines'].reverse())).not.toBe(first);
    expect(shared.string('epub')).toBe(shared.string(`ep${'ub'}`));
  });

  it('when a list is empty, missing or null, then it is the one empty list', () => {
    const shared = new ValuePool();
    expect(shared.list([])).toBe(shared.list(undefined));
    expect(shared.list(null)).toEqual([]);
  });

  it('when lists differ only by where a value ends, then they stay apart', () => {
    const shared = new ValuePool();
    expect(shared.list(['a b', 'c'])).not.toBe(shared.list(['a', 'b c']));
    expect(shared.list(['ab'])).not.toBe(shared.list(['a', 'b']));
    expect(shared.list(['a\u0000b'])).not.toBe(shared.list(['a', 'b']));
    expect(shared.list(['a","b'])).not.toBe(shared.list(['a', 'b']));
  });
});
