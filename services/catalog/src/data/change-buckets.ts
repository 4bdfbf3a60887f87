// Catching up by change bucket: every issue and collection write stores
// `change_bucket` (its `updated_at` cut to CHANGE_BUCKET_MS, 10 s), and replicas
// read what changed since a moment with one equality query per bucket since
// then. The obvious query, `updated_at >= since`, is a range: MongoDB serves
// it from an index, but FerretDB reads the whole collection for it (30 s at
// 100,000 issues on the dev box), and a replica starting from a snapshot, as
// well as the periodic catch-up, runs it. An equality on a declared index's
// first field is an index lookup on both stores (see docs/architecture.md).
//
// Buckets are short so that a bulk write (a seed of 100,000 issues) spreads
// over many of them: a catch-up reads whole buckets, so it should not meet one
// holding tens of thousands of documents it already has. Documents written
// without a bucket (before this field existed) are only seen by a full load;
// a window too long for bucket queries falls back to the range query.
import type { FilterQuery, Model } from 'mongoose';

export const CHANGE_BUCKET_MS = 10_000;
/** Past this many buckets (an hour) one range query is cheaper than bucket lookups. */
const MAX_BUCKET_QUERIES = 360;
/** Writers whose clocks run ahead by up to this much are still found. */
const FUTURE_MARGIN_MS = 10_000;

export const changeBucket = (date: Date): number => Math.floor(date.getTime() / CHANGE_BUCKET_MS);

/** A page of changes and the last bucket it read whole: a later page may start after that bucket. */
export interface ChangedPage<T> {
  docs: T[];
  /** Undefined when the page came from the range query. */
  lastBucket: number | undefined;
}

/**
 * Documents matching `filter` (which selects `updated_at` at or after `since`)
 * in (updated_at, _id) order: bucket by bucket from `since`'s bucket (or
 * `firstBucket`) to the present one, whose concatenation keeps that order.
 * Buckets are read whole (FerretDB would read a bucket again for every page
 * of it), stopping after the bucket that reached `limit`: a page may hold
 * more than `limit`. Each bucket is sorted here rather than by the store:
 * FerretDB sorts in its own process, after decoding every document, which
 * costs more than sorting the decoded documents here.
 */
export async function findChanged<T extends { updated_at: Date; _id: unknown }>(
  model: Model<T>,
  since: Date,
  filter: FilterQuery<T>,
  options: { limit?: number; firstBucket?: number; now?: Date } = {},
): Promise<ChangedPage<T>> {
  const { limit, now = new Date() } = options;
  const first = Math.max(changeBucket(since), options.firstBucket ?? -Infinity);
  const last = changeBucket(new Date(now.getTime() + FUTURE_MARGIN_MS));
  if (last - first + 1 > MAX_BUCKET_QUERIES) {
    const found = model.find(filter).sort({ updated_at: 1, _id: 1 });
    return { docs: await (limit === undefined ? found : found.limit(limit)).lean<T[]>().exec(), lastBucket: undefined };
  }
  const docs: T[] = [];
  let bucket = first;
  for (; bucket <= last && (limit === undefined || docs.length < limit); bucket++) {
    const inBucket = await model
      .find({ ...filter, change_bucket: bucket } as FilterQuery<T>)
      .lean<T[]>()
      .exec();
    docs.push(...inBucket.sort(byChange));
  }
  return { docs, lastBucket: bucket - 1 };
}

/** (updated_at, _id) order, the order of a catch-up. */
function byChange(a: { updated_at: Date; _id: unknown }, b: { updated_at: Date; _id: unknown }): number {
  const byTime = new Date(a.updated_at).getTime() - new Date(b.updated_at).getTime();
  if (byTime !== 0) return byTime;
  return (a._id as number | string) < (b._id as number | string) ? -1 : (a._id as number | string) > (b._id as number | string) ? 1 : 0;
}
