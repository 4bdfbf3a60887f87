import { freshDatabase } from '@folio/testing';
import { Schema } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpSequence, claimOnce, modelOn, nextSequence, TenantRepository, type Connection } from './index.js';

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

  it('when a repository queries, then results are plain objects of that tenant only', async () => {
    interface Shelf {
      tenant_id: number;
      slug: string;
    }
    class ShelfRepository extends TenantRepository<Shelf> {
      constructor(connection: Connection) {
        super(modelOn(connection, 'Shelf', new Schema<Shelf>({ tenant_id: Number, slug: String })));
      }
      async add(shelf: Shelf) {
        await this.model.create(shelf);
      }
    }
    const shelves = new ShelfRepository(db.connection);
    await shelves.add({ tenant_id: 1, slug: 'fiction' });
    await shelves.add({ tenant_id: 2, slug: 'fiction' });
    const found = await shelves.find({ tenant_id: 1 });
    expect(found).toHaveLength(1);
    expect(found[0]!.constructor).toBe(Object);
    expect(await shelves.count({ tenant_id: 2, slug: 'fiction' })).toBe(1);
    // @ts-expect-error a filter without the tenant does not compile
    await shelves.find({ slug: 'fiction' }).catch(() => {});
  });
});
