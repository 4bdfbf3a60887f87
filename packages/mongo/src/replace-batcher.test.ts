import { freshDatabase } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDuplicateKeyError } from './index.js';
import { ReplaceBatcher, type ReplaceTarget } from './replace-batcher.js';

/** A reading position's shape: written only over an older one. */
interface Doc {
  _id: string;
  value: string;
  read_at: Date;
}

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));
const newerThanStored = (doc: Doc) => ({ _id: doc._id, read_at: { $lte: doc.read_at } });

describe('ReplaceBatcher against the real MongoDB wire protocol', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase('mongo-replace-batcher');
  });
  afterAll(() => db.drop());

  /** The collection, naming the commands the batcher sends. */
  const counted = (name: string) => {
    const collection = db.connection.collection<Doc>(name);
    const commands: string[] = [];
    const target: ReplaceTarget<Doc> = {
      replaceOne: (filter, doc, options) => {
        commands.push('one');
        return collection.replaceOne(filter, doc, options);
      },
      bulkWrite: (operations, options) => {
        commands.push(`bulk of ${operations.length}`);
        return collection.bulkWrite(operations, options);
      },
    };
    return { collection, commands, target };
  };

  it('when 20 writes come in one turn, then they are one command and every document is stored', async () => {
    const { collection, commands, target } = counted('together');
    await collection.insertMany([1, 2, 3].map((n) => ({ _id: `p${n}`, value: 'before', read_at: at(1) })));
    const batcher = new ReplaceBatcher(target);
    const docs = Array.from({ length: 20 }, (_, n) => ({ _id: `p${n + 1}`, value: 'new', read_at: at(10) }));
    const stored = await Promise.all(docs.map((doc) => batcher.upsert(newerThanStored(doc), doc)));
    expect(stored).toEqual(docs.map(() => true));
    expect(commands).toEqual(['bulk of 20']);
    expect(await collection.countDocuments({ value: 'new' })).toBe(20);
  });

  it('when a write comes alone, then it is sent as replaceOne', async () => {
    const { collection, commands, target } = counted('alone');
    const doc = { _id: 'p1', value: 'alone', read_at: at(10) };
    expect(await new ReplaceBatcher(target).upsert(newerThanStored(doc), doc)).toBe(true);
    expect(commands).toEqual(['one']);
    expect(await collection.findOne({ _id: 'p1' })).toEqual(doc);
  });

  it('when a write of a batch is older than the stored document, then only its caller gets the duplicate key error and the others are stored', async () => {
    const { collection, commands, target } = counted('stale');
    await collection.insertOne({ _id: 'p2', value: 'stored later', read_at: at(50) });
    const batcher = new ReplaceBatcher(target);
    const docs = [1, 2, 3, 4].map((n) => ({ _id: `p${n}`, value: 'new', read_at: at(10) }));
    const outcomes = await Promise.allSettled(docs.map((doc) => batcher.upsert(newerThanStored(doc), doc)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(isDuplicateKeyError((outcomes[1] as PromiseRejectedResult).reason)).toBe(true);
    // The batch failed, and every write went again on its own: those stored before match again and change nothing.
    expect(commands).toEqual(['bulk of 4', 'one', 'one', 'one', 'one']);
    expect(await collection.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'p1', value: 'new', read_at: at(10) },
      { _id: 'p2', value: 'stored later', read_at: at(50) },
      { _id: 'p3', value: 'new', read_at: at(10) },
      { _id: 'p4', value: 'new', read_at: at(10) },
    ]);
  });

  it('when more writes wait than a batch holds, then they go in several commands', async () => {
    const { collection, commands, target } = counted('bounded');
    const batcher = new ReplaceBatcher(target, 4);
    const docs = Array.from({ length: 10 }, (_, n) => ({ _id: `p${n + 1}`, value: 'x', read_at: at(10) }));
    await Promise.all(docs.map((doc) => batcher.upsert(newerThanStored(doc), doc)));
    expect(commands).toEqual(['bulk of 4', 'bulk of 4', 'bulk of 2']);
    expect(await collection.countDocuments({})).toBe(10);
  });

  it('when the whole command fails, then every caller gets its error', async () => {
    const away = new Error('store away');
    const batcher = new ReplaceBatcher<Doc>({ replaceOne: () => Promise.reject(away), bulkWrite: () => Promise.reject(away) });
    const docs = [1, 2, 3].map((n) => ({ _id: `p${n}`, value: 'x', read_at: at(10) }));
    const outcomes = await Promise.allSettled(docs.map((doc) => batcher.upsert(newerThanStored(doc), doc)));
    expect(outcomes).toEqual(Array.from({ length: 3 }, () => ({ status: 'rejected', reason: away })));
  });
});
