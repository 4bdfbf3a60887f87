import { freshDatabase } from '@folio/testing';
import { Schema } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpired, isTooManyToDeleteAtOnce } from './delete-expired.js';
import { modelOn } from './index.js';

interface Expiring {
  _id: number;
  expires_at: Date;
}

/** Past what the local store (FerretDB on PostgreSQL) deletes with one statement: 65,535 parameters. */
const BACKLOG = 70_000;
const NOW = new Date('2026-11-26T12:00:00Z');

describe('deleteExpired against the real MongoDB wire protocol', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase('mongo-expired');
  });
  afterAll(() => db.drop());

  const modelNamed = (name: string) =>
    modelOn<Expiring>(db.connection, name, new Schema<Expiring>({ _id: Number, expires_at: Date }, { collection: name, versionKey: false }));

  it('when a few documents expired, then they go and the live ones stay', async () => {
    const model = modelNamed('few');
    await model.insertMany([
      { _id: 1, expires_at: new Date(NOW.getTime() - 60_000) },
      { _id: 2, expires_at: NOW },
      { _id: 3, expires_at: new Date(NOW.getTime() + 1) },
    ]);
    expect(await deleteExpired(model, 'expires_at', NOW)).toBe(2);
    expect((await model.find().lean()).map((doc) => doc._id)).toEqual([3]);
  });

  it('when more expired than the store deletes at once, then every one goes, in windows, and the live ones stay', { timeout: 180_000 }, async () => {
    const model = modelNamed('backlog');
    const collection = db.connection.collection<Expiring>('backlog');
    // One a second over the 70,000 seconds before NOW, ten still live after it.
    for (let start = 0; start < BACKLOG; start += 10_000) {
      const docs = Array.from({ length: 10_000 }, (_, i) => ({ _id: start + i + 1, expires_at: new Date(NOW.getTime() - (BACKLOG - start - i) * 1000) }));
      await collection.insertMany(docs, { ordered: false });
    }
    await collection.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: BACKLOG + i + 1, expires_at: new Date(NOW.getTime() + (i + 1) * 1000) })));

    expect(await deleteExpired(model, 'expires_at', NOW)).toBe(BACKLOG);
    expect(await collection.countDocuments()).toBe(10);
  });

  it("when an error is the store's refusal to name that many documents, then it is told apart from others", () => {
    expect(isTooManyToDeleteAtOnce(new Error('[collection.go:316 postgresql.(*collection).DeleteAll] extended protocol limited to 65535 parameters'))).toBe(
      true,
    );
    expect(isTooManyToDeleteAtOnce(new Error('connection reset'))).toBe(false);
    expect(isTooManyToDeleteAtOnce(undefined)).toBe(false);
  });
});
