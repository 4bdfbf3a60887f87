import { freshDatabase } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpSequence, claimOnce, nextSequence } from './index.js';

describe('mongo helpers against the real MongoDB wire protocol', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase('mongo');
  });
  afterAll(() => db.drop());

  it('when 30 callers ask for the next id at once, then every id is distinct and gap-free', async () => {
    const ids = await Promise.all(Array.from({ length: 30 }, () => nextSequence(db.connection, 'users')));
    expect(new Set(ids).size).toBe(30);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('when 20 callers claim one key at once, then exactly one wins', async () => {
    const wins = await Promise.all(Array.from({ length: 20 }, () => claimOnce(db.connection, 'rotations', 'token-hash')));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it('when a sequence is bumped past seeded ids, then new ids start after them', async () => {
    await bumpSequence(db.connection, 'notes', 100);
    expect(await nextSequence(db.connection, 'notes')).toBe(101);
  });
});
