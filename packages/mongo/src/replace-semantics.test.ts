// The local store (docdb: FerretDB with tools/docdb's patch) answers a
// replacement by _id, plain or conditional on a date field, in one UPDATE
// when it can and through FerretDB's usual path otherwise. Services rely on
// MongoDB's answers either way: reader's position write (newest read_at
// wins), catalog's snapshot chunks. These cases pin those
// answers, on docdb and on MongoDB alike.
import { freshDatabase } from '@folio/testing';
import type { mongo } from 'mongoose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const EARLIER = new Date('2025-12-01T00:00:00Z');
const STORED = new Date('2026-01-01T00:00:00Z');
const LATER = new Date('2026-02-01T00:00:00Z');

type Document = mongo.Document;
type Doc = Document & { _id: string };

describe('replaceOne by _id, plain and conditional on a date, against the real MongoDB wire protocol', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let docs: mongo.Collection<Doc>;

  beforeAll(async () => {
    db = await freshDatabase('replace');
  });
  afterAll(() => db.drop());

  beforeEach(async () => {
    docs = db.connection.db!.collection<Doc>(`docs_${Math.random().toString(36).slice(2)}`);
    await docs.insertMany([
      { _id: 'dated', v: 0, read_at: STORED },
      { _id: 'text', v: 0, read_at: '2026' },
      { _id: 'list', v: 0, read_at: [STORED] },
      { _id: 'bare', v: 0 },
      { _id: 'null', v: 0, read_at: null },
      { _id: 'millis', v: 0, read_at: STORED.getTime() },
    ]);
  });

  const replace = async (filter: Document, replacement: Document, upsert = false) => {
    try {
      const result = await docs.replaceOne(filter as never, replacement, { upsert });
      return { matched: result.matchedCount, upserted: result.upsertedCount };
    } catch (error) {
      return { code: (error as { code?: number }).code };
    }
  };
  const valueOf = async (id: string) => (await docs.findOne({ _id: id }))?.v;

  it('when the filter is only the _id, then the document is replaced, or inserted by an upsert', async () => {
    expect(await replace({ _id: 'dated' }, { v: 1 })).toEqual({ matched: 1, upserted: 0 });
    expect(await replace({ _id: 'fresh' }, { v: 1 }, true)).toEqual({ matched: 0, upserted: 1 });
    expect([await valueOf('dated'), await valueOf('fresh')]).toEqual([1, 1]);
  });

  it('when the stored date meets the comparison, then the document is replaced', async () => {
    expect(await replace({ _id: 'dated', read_at: { $lte: LATER } }, { v: 1, read_at: LATER }, true)).toEqual({ matched: 1, upserted: 0 });
    expect(await replace({ _id: 'dated', read_at: LATER }, { v: 2, read_at: LATER })).toEqual({ matched: 1, upserted: 0 });
    expect(await replace({ _id: 'dated', read_at: { $eq: LATER } }, { v: 3, read_at: LATER })).toEqual({ matched: 1, upserted: 0 });
    expect(await replace({ _id: 'dated', read_at: { $gt: STORED } }, { v: 4, read_at: LATER })).toEqual({ matched: 1, upserted: 0 });
    expect(await replace({ _id: 'dated', read_at: { $gte: LATER } }, { v: 5, read_at: LATER })).toEqual({ matched: 1, upserted: 0 });
    expect(await valueOf('dated')).toBe(5);
  });

  it('when the stored date does not meet it, then nothing is replaced, and an upsert collides on the _id', async () => {
    expect(await replace({ _id: 'dated', read_at: { $lte: EARLIER } }, { v: 1, read_at: EARLIER })).toEqual({ matched: 0, upserted: 0 });
    expect(await replace({ _id: 'dated', read_at: { $lt: STORED } }, { v: 1, read_at: STORED })).toEqual({ matched: 0, upserted: 0 });
    expect(await replace({ _id: 'dated', read_at: EARLIER }, { v: 1, read_at: EARLIER })).toEqual({ matched: 0, upserted: 0 });
    expect(await replace({ _id: 'dated', read_at: { $lte: EARLIER } }, { v: 1, read_at: EARLIER }, true)).toEqual({ code: 11000 });
    expect(await valueOf('dated')).toBe(0);
  });

  it('when the field is not a date (a string, a number, null, missing), then the date comparison matches nothing', async () => {
    for (const id of ['text', 'millis', 'null', 'bare']) {
      expect(await replace({ _id: id, read_at: { $lte: LATER } }, { v: 1 })).toEqual({ matched: 0, upserted: 0 });
      expect(await valueOf(id)).toBe(0);
    }
  });

  it('when the field is an array holding a date that meets the comparison, then the document is replaced', async () => {
    expect(await replace({ _id: 'list', read_at: { $lte: LATER } }, { v: 1, read_at: LATER })).toEqual({ matched: 1, upserted: 0 });
    expect(await valueOf('list')).toBe(1);
  });

  it('when no document has the _id, then an upsert inserts it and a plain replacement matches nothing', async () => {
    expect(await replace({ _id: 'new', read_at: { $lte: LATER } }, { v: 1, read_at: LATER }, true)).toEqual({ matched: 0, upserted: 1 });
    expect(await replace({ _id: 'absent', read_at: { $lte: LATER } }, { v: 1, read_at: LATER })).toEqual({ matched: 0, upserted: 0 });
    expect(await valueOf('new')).toBe(1);
  });

  it('when the replacement would change the _id, then it is refused (code 66) and the document stays', async () => {
    expect(await replace({ _id: 'dated', read_at: { $lte: LATER } }, { _id: 'other', v: 1 })).toEqual({ code: 66 });
    expect(await valueOf('dated')).toBe(0);
  });

  it('when the filter has other conditions too ($in, a second field), then they all decide', async () => {
    expect(await replace({ _id: 'dated', read_at: { $in: [STORED] } }, { v: 1, read_at: STORED })).toEqual({ matched: 1, upserted: 0 });
    expect(await replace({ _id: 'dated', v: 2, read_at: { $lte: LATER } }, { v: 3 })).toEqual({ matched: 0, upserted: 0 });
    expect(await replace({ _id: 'dated', v: 1, read_at: { $lte: LATER } }, { v: 4, read_at: LATER })).toEqual({ matched: 1, upserted: 0 });
    expect(await valueOf('dated')).toBe(4);
  });
});
