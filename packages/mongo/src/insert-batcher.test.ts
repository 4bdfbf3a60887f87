import { freshDatabase } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDuplicateKeyError } from './index.js';
import { InsertBatcher, type InsertTarget } from './insert-batcher.js';

interface Doc {
  _id: number;
  name: string;
}

describe('InsertBatcher against the real MongoDB wire protocol', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase('mongo-batcher');
  });
  afterAll(() => db.drop());

  /** The collection, counting the commands the batcher sends. */
  const counted = (name: string) => {
    const collection = db.connection.collection<Doc>(name);
    const commands: number[] = [];
    const target: InsertTarget<Doc> = {
      insertOne: (doc) => {
        commands.push(1);
        return collection.insertOne(doc);
      },
      insertMany: (docs, options) => {
        commands.push(docs.length);
        return collection.insertMany(docs, options);
      },
    };
    return { collection, commands, target };
  };

  it('when 20 inserts come in one turn, then they are one command and every document is stored', async () => {
    const { collection, commands, target } = counted('together');
    const batcher = new InsertBatcher(target);
    await Promise.all(Array.from({ length: 20 }, (_, n) => batcher.insert({ _id: n + 1, name: `doc ${n + 1}` })));
    expect(commands).toEqual([20]);
    expect(await collection.countDocuments({})).toBe(20);
  });

  it('when an insert comes alone, then it is sent as it is', async () => {
    const { collection, commands, target } = counted('alone');
    await new InsertBatcher(target).insert({ _id: 1, name: 'alone' });
    expect(commands).toEqual([1]);
    expect(await collection.findOne({ _id: 1 })).toEqual({ _id: 1, name: 'alone' });
  });

  it('when some documents of a batch are duplicates, then only their callers get the duplicate key error', async () => {
    const { collection, target } = counted('duplicates');
    await collection.insertOne({ _id: 2, name: 'stored before' });
    const batcher = new InsertBatcher(target);
    const outcomes = await Promise.allSettled([1, 2, 3, 3, 4].map((id) => batcher.insert({ _id: id, name: `new ${id}` })));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(isDuplicateKeyError(outcome.reason)).toBe(true);
    expect(await collection.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, name: 'new 1' },
      { _id: 2, name: 'stored before' },
      { _id: 3, name: 'new 3' },
      { _id: 4, name: 'new 4' },
    ]);
  });

  it('when more inserts wait than a batch holds, then they go in several commands', async () => {
    const { collection, commands, target } = counted('bounded');
    const batcher = new InsertBatcher(target, 4);
    await Promise.all(Array.from({ length: 10 }, (_, n) => batcher.insert({ _id: n + 1, name: 'x' })));
    expect(commands).toEqual([4, 4, 2]);
    expect(await collection.countDocuments({})).toBe(10);
  });

  it('when the whole command fails, then every caller gets its error', async () => {
    const away = new Error('store away');
    const batcher = new InsertBatcher<Doc>({ insertOne: () => Promise.reject(away), insertMany: () => Promise.reject(away) });
    const outcomes = await Promise.allSettled([1, 2, 3].map((id) => batcher.insert({ _id: id, name: 'x' })));
    expect(outcomes).toEqual(Array.from({ length: 3 }, () => ({ status: 'rejected', reason: away })));
  });
});
