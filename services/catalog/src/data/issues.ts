// Issues and their metadata. Writes are idempotent upserts that only touch
// (and only bump `updated_at` of) issues whose content changed, so a re-seed
// is a no-op and other replicas' catch-up reads only real changes.
import type { Model } from 'mongoose';
import type { IssueInput, IssueStore, UpsertResult } from '../domain/storage.js';
import { changeBucket, findChanged } from './change-buckets.js';
import type { IssueDoc } from './schemas.js';

export class IssueRepository implements IssueStore {
  constructor(private readonly model: Model<IssueDoc>) {}

  async findInTenant(tenantId: number, issueId: number): Promise<IssueDoc | null> {
    return this.model.findOne({ _id: issueId, tenant_id: tenantId, deleted_at: null }).lean<IssueDoc>().exec();
  }

  /** Every issue, tombstones included, in batches: the start-up load of the index. */
  async *all(batchSize = 2_000): AsyncGenerator<IssueDoc[]> {
    const cursor = this.model.find({}).lean<IssueDoc[]>().batchSize(batchSize).cursor();
    let batch: IssueDoc[] = [];
    try {
      for await (const doc of cursor) {
        batch.push(doc as IssueDoc);
        if (batch.length === batchSize) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    } finally {
      await cursor.close();
    }
  }

  /**
   * Issues written at or after `since` (or, with `after`, strictly after that
   * change), in (updated_at, _id) order: pages of a catch-up that never loop,
   * even when a bulk write gave thousands of issues the same updated_at.
   */
  async changedSince(since: Date, limit: number, after?: { updated_at: Date; _id: number }): Promise<IssueDoc[]> {
    const filter = after
      ? { $or: [{ updated_at: { $gt: after.updated_at } }, { updated_at: after.updated_at, _id: { $gt: after._id } }] }
      : { updated_at: { $gte: since } };
    return findChanged(this.model, after?.updated_at ?? since, filter, limit);
  }

  async upsertMany(inputs: IssueInput[], now = new Date()): Promise<UpsertResult<IssueDoc>> {
    const existing = new Map<number, IssueDoc>();
    for (let i = 0; i < inputs.length; i += 500) {
      const ids = inputs.slice(i, i + 500).map((input) => input._id);
      for (const doc of await this.model
        .find({ _id: { $in: ids } })
        .lean<IssueDoc[]>()
        .exec())
        existing.set(doc._id, doc);
    }
    const result: UpsertResult<IssueDoc> = { inserted: 0, updated: 0, unchanged: 0, written: [] };
    const writes: IssueDoc[] = [];
    for (const input of inputs) {
      const before = existing.get(input._id);
      if (before && before.deleted_at === null && sameIssue(before, input)) {
        result.unchanged += 1;
        continue;
      }
      if (before) result.updated += 1;
      else result.inserted += 1;
      writes.push({ ...input, deleted_at: null, updated_at: now, change_bucket: changeBucket(now) });
    }
    for (let i = 0; i < writes.length; i += 500) {
      await this.model.bulkWrite(
        writes.slice(i, i + 500).map((doc) => ({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } })),
        { ordered: false },
      );
    }
    result.written = writes;
    return result;
  }

  /** Plain inserts of new issues (bulk loads such as the benchmark's); fails on an existing id. */
  async insertMany(inputs: IssueInput[], now = new Date()): Promise<void> {
    if (inputs.length === 0) return;
    await this.model.insertMany(
      inputs.map((input) => ({ ...input, deleted_at: null, updated_at: now, change_bucket: changeBucket(now) })),
      { ordered: false, lean: true },
    );
  }
}

function sameIssue(doc: IssueDoc, input: IssueInput): boolean {
  return canonical(doc) === canonical(input);
}

function canonical(doc: IssueInput): string {
  return JSON.stringify([
    doc.tenant_id,
    doc.name,
    doc.slug,
    doc.type,
    doc.lang,
    doc.author,
    doc.publisher,
    doc.bisac,
    doc.external_id,
    new Date(doc.published_at).toISOString(),
    doc.number_of_pages ?? null,
    doc.description,
    [doc.tags?.author ?? [], doc.tags?.keyword ?? [], doc.tags?.edition ?? []],
    doc.collections ?? [],
    doc.cover_url ?? null,
  ]);
}
