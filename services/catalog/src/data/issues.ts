// Issues and their metadata. Writes are idempotent upserts that only touch
// (and only bump `updated_at` of) issues whose content changed, so a re-seed
// is a no-op and other replicas' catch-up reads only real changes.
import type { FilterQuery, Model } from 'mongoose';
import type { IssueInput, IssueState, IssueRepository, StoredIssue, UpsertResult } from '../domain/repositories.js';
import { changeBucket, findChanged } from './change-buckets.js';
import type { CounterDoc, IssueDoc } from './schemas.js';

/** Fields only the publisher API writes: a re-seed of the dataset keeps them (the seed does not know them). */
const LIFECYCLE_FIELDS = ['state', 'authors', 'isbn', 'first_published_at', 'created_at', 'accessibility', 'content_hash'] as const;
/** The counter document issue ids are drawn from. */
const ISSUE_ID_COUNTER = 'issue_id';

/** A state filter: a missing state is a seeded issue, which is published. */
function stateFilter(state: IssueState): FilterQuery<IssueDoc> {
  return state === 'published' ? { $or: [{ state: 'published' }, { state: { $exists: false } }, { state: null }] } : { state };
}

const notDraft: FilterQuery<IssueDoc> = { $or: [{ state: { $ne: 'draft' } }, { state: { $exists: false } }] };

export class MongoIssueRepository implements IssueRepository {
  /** Where the last page of changedSince ended: its last issue and the last bucket it read whole. */
  private lastPage: { last: { updated_at: Date; _id: number }; lastBucket: number } | undefined;

  constructor(
    private readonly model: Model<IssueDoc>,
    private readonly counters?: Model<CounterDoc>,
  ) {}

  async findInTenant(tenantId: number, issueId: number): Promise<IssueDoc | null> {
    // A draft is seen by nothing but the publisher RPCs (findAnyInTenant).
    return this.model
      .findOne({ _id: issueId, tenant_id: tenantId, deleted_at: null, ...notDraft })
      .lean<IssueDoc>()
      .exec();
  }

  async findAnyInTenant(tenantId: number, issueId: number): Promise<IssueDoc | null> {
    return this.model.findOne({ _id: issueId, tenant_id: tenantId, deleted_at: null }).lean<IssueDoc>().exec();
  }

  async listInTenant(tenantId: number, options: { state?: IssueState; skip: number; limit: number }): Promise<{ issues: IssueDoc[]; total: number }> {
    const filter: FilterQuery<IssueDoc> = { tenant_id: tenantId, deleted_at: null, ...(options.state && stateFilter(options.state)) };
    const [issues, total] = await Promise.all([
      this.model.find(filter).sort({ _id: -1 }).skip(options.skip).limit(options.limit).lean<IssueDoc[]>().exec(),
      this.model.countDocuments(filter).exec(),
    ]);
    return { issues, total };
  }

  async findByField(tenantId: number, field: 'slug' | 'external_id', value: string, exceptId?: number): Promise<IssueDoc | null> {
    const filter: FilterQuery<IssueDoc> = { tenant_id: tenantId, deleted_at: null, [field]: value };
    if (exceptId !== undefined) filter._id = { $ne: exceptId };
    return this.model.findOne(filter).lean<IssueDoc>().exec();
  }

  /**
   * A new issue id, unique across tenants: one atomic $inc of a counter document,
   * first raised ($max) above the highest id stored, so ids never collide with the
   * seeded or imported ones. Raising costs one indexed lookup of the top id.
   */
  async nextId(): Promise<number> {
    const counters = this.requireCounters();
    const top = await this.model.findOne({}, { _id: 1 }).sort({ _id: -1 }).lean<Pick<IssueDoc, '_id'>>().exec();
    await counters.updateOne({ _id: ISSUE_ID_COUNTER }, { $max: { seq: top?._id ?? 0 } }, { upsert: true }).exec();
    const counter = await counters
      .findOneAndUpdate({ _id: ISSUE_ID_COUNTER }, { $inc: { seq: 1 } }, { new: true, upsert: true })
      .lean<CounterDoc>()
      .exec();
    if (!counter) throw new Error('issue id counter missing after upsert');
    return counter.seq;
  }

  /** Inserts a new issue; null when the id is taken (another writer got there first). */
  async insert(input: IssueInput, now = new Date()): Promise<IssueDoc | null> {
    const doc: IssueDoc = { ...input, deleted_at: null, updated_at: now, change_bucket: changeBucket(now) };
    try {
      await this.model.insertMany([doc], { lean: true });
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return null;
      throw error;
    }
    return doc;
  }

  /**
   * Replaces a live issue if it is still as read (`expected` is the updated_at read):
   * null when another writer changed it in between (the caller reads again).
   */
  async replace(input: IssueInput, expected: Date, now = new Date()): Promise<IssueDoc | null> {
    const doc: IssueDoc = { ...input, deleted_at: null, updated_at: laterThan(expected, now), change_bucket: 0 };
    doc.change_bucket = changeBucket(doc.updated_at);
    const result = await this.model.replaceOne({ _id: input._id, tenant_id: input.tenant_id, deleted_at: null, updated_at: expected }, doc).exec();
    return result.matchedCount === 1 ? doc : null;
  }

  /** Tombstones a live issue if it is still as read; null when it changed in between. */
  async tombstone(issue: StoredIssue, now = new Date()): Promise<IssueDoc | null> {
    const updatedAt = laterThan(issue.updated_at, now);
    const doc: IssueDoc = { ...issue, deleted_at: updatedAt, updated_at: updatedAt, change_bucket: changeBucket(updatedAt) };
    const result = await this.model.replaceOne({ _id: issue._id, tenant_id: issue.tenant_id, deleted_at: null, updated_at: issue.updated_at }, doc).exec();
    return result.matchedCount === 1 ? doc : null;
  }

  private requireCounters(): Model<CounterDoc> {
    if (!this.counters) throw new Error('MongoIssueRepository: no counters model');
    return this.counters;
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
   *
   * A page ends with a whole bucket, so when `after` is the last issue of the
   * page this repository returned last, the next page starts with the bucket
   * after it instead of reading that bucket again (after a bulk write, a
   * bucket of thousands of issues each page would read twice). What a writer
   * commits into a bucket after it was read is what the next catch-up's
   * overlap window is for, as for every other bucket of the catch-up.
   */
  async changedSince(since: Date, limit: number, after?: { updated_at: Date; _id: number }): Promise<IssueDoc[]> {
    const filter = after
      ? { $or: [{ updated_at: { $gt: after.updated_at } }, { updated_at: after.updated_at, _id: { $gt: after._id } }] }
      : { updated_at: { $gte: since } };
    const resumed = after && this.lastPage && samePosition(this.lastPage.last, after) ? this.lastPage.lastBucket + 1 : undefined;
    const page = await findChanged(this.model, after?.updated_at ?? since, filter, { limit, firstBucket: resumed });
    const last = page.docs.at(-1);
    this.lastPage = last && page.lastBucket !== undefined ? { last: { updated_at: last.updated_at, _id: last._id }, lastBucket: page.lastBucket } : undefined;
    return page.docs;
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
    for (const given of inputs) {
      const before = existing.get(given._id);
      const input = before ? withLifecycleOf(before, given) : given;
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

function samePosition(a: { updated_at: Date; _id: number }, b: { updated_at: Date; _id: number }): boolean {
  return a._id === b._id && new Date(a.updated_at).getTime() === new Date(b.updated_at).getTime();
}

/** The input, with the stored lifecycle fields it does not set itself (a seed sets none). */
function withLifecycleOf(before: IssueDoc, input: IssueInput): IssueInput {
  const merged: IssueInput = { ...input };
  for (const field of LIFECYCLE_FIELDS) {
    if (merged[field] === undefined && before[field] !== undefined) (merged as Record<string, unknown>)[field] = before[field];
  }
  return merged;
}

/**
 * A write's updated_at: now, but always after the one it replaces, so that a
 * replica's catch-up (which skips a document whose updated_at it holds) never
 * misses a change made within the same millisecond.
 */
function laterThan(previous: Date, now: Date): Date {
  return now.getTime() > new Date(previous).getTime() ? now : new Date(new Date(previous).getTime() + 1);
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
    doc.state ?? null,
    doc.authors ?? null,
    doc.isbn ?? null,
    doc.first_published_at ? new Date(doc.first_published_at).toISOString() : null,
    doc.created_at ? new Date(doc.created_at).toISOString() : null,
    doc.accessibility ?? null,
    doc.content_hash ?? null,
  ]);
}
