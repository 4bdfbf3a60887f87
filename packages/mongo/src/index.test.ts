import { freshDatabase } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpSequence, claimOnce, nextSequence, SEQUENCE_BLOCK } from './index.js';

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

  it('when half of a block is given out, then the next block is claimed ahead and the ids run on without a gap', async () => {
    const claims = db.connection.collection('sequence_claims');
    const first: number[] = [];
    for (let i = 0; i < SEQUENCE_BLOCK / 2 + 1; i++) first.push(await nextSequence(db.connection, 'pages'));
    // The claim ahead runs in the background: wait for its block to be recorded.
    await expect.poll(() => claims.countDocuments({ _id: /^pages:block:/ })).toBe(2);
    const rest = await Promise.all(Array.from({ length: SEQUENCE_BLOCK * 2 - first.length }, () => nextSequence(db.connection, 'pages')));
    expect([...first, ...rest]).toEqual(Array.from({ length: SEQUENCE_BLOCK * 2 }, (_, i) => i + 1));
  });

  it('when a sequence is bumped while this process holds a block, then the values at or below the bump are skipped', async () => {
    expect(await nextSequence(db.connection, 'shelves')).toBe(1);
    await bumpSequence(db.connection, 'shelves', 10);
    expect(await nextSequence(db.connection, 'shelves')).toBe(11);
    await bumpSequence(db.connection, 'shelves', SEQUENCE_BLOCK * 3);
    expect(await nextSequence(db.connection, 'shelves')).toBe(SEQUENCE_BLOCK * 3 + 1);
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
