// Collections (taxonomy shelves) of each tenant, in library order.
import type { Model } from 'mongoose';
import type { CollectionInput, CollectionRepository, UpsertResult } from '../domain/repositories.js';
import { changeBucket, findChanged } from './change-buckets.js';
import type { CollectionDoc } from './schemas.js';

export const collectionId = (tenantId: number, slug: string) => `${tenantId}:${slug}`;

export class MongoCollectionRepository implements CollectionRepository {
  constructor(private readonly model: Model<CollectionDoc>) {}

  async all(): Promise<CollectionDoc[]> {
    return this.model.find({}).lean<CollectionDoc[]>().exec();
  }

  async changedSince(since: Date): Promise<CollectionDoc[]> {
    return (await findChanged(this.model, since, { updated_at: { $gte: since } })).docs;
  }

  async upsertMany(inputs: CollectionInput[], now = new Date()): Promise<UpsertResult<CollectionDoc>> {
    const ids = inputs.map((input) => collectionId(input.tenant_id, input.slug));
    const existing = new Map(
      (
        await this.model
          .find({ _id: { $in: ids } })
          .lean<CollectionDoc[]>()
          .exec()
      ).map((doc) => [doc._id, doc]),
    );
    const result: UpsertResult<CollectionDoc> = { inserted: 0, updated: 0, unchanged: 0, written: [] };
    for (const input of inputs) {
      const _id = collectionId(input.tenant_id, input.slug);
      const before = existing.get(_id);
      const same =
        before &&
        before.deleted_at === null &&
        before.position === input.position &&
        JSON.stringify(sortedEntries(before.title)) === JSON.stringify(sortedEntries(input.title));
      if (same) {
        result.unchanged += 1;
        continue;
      }
      if (before) result.updated += 1;
      else result.inserted += 1;
      const doc: CollectionDoc = { _id, ...input, deleted_at: null, updated_at: now, change_bucket: changeBucket(now) };
      await this.model.replaceOne({ _id }, doc, { upsert: true }).exec();
      result.written.push(doc);
    }
    return result;
  }
}

function sortedEntries(record: Record<string, string>): [string, string][] {
  return Object.entries(record ?? {}).sort(([a], [b]) => a.localeCompare(b));
}
