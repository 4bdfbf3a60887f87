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

/**
 * Documents matching `filter` (which selects `updated_at` at or after `since`)
 * in (updated_at, _id) order: bucket by bucket from `since`'s bucket to the
 * present one, whose concatenation keeps that order. Buckets are read whole
 * (FerretDB would read a bucket again for every page of it), stopping after
 * the bucket that reached `limit`: a page may hold more than `limit`.
 */
export async function findChanged<T>(model: Model<T>, since: Date, filter: FilterQuery<T>, limit?: number, now = new Date()): Promise<T[]> {
  const query = (conditions: FilterQuery<T>, max: number | undefined) => {
    const found = model.find(conditions).sort({ updated_at: 1, _id: 1 });
    return (max === undefined ? found : found.limit(max)).lean<T[]>().exec();
  };
  const first = changeBucket(since);
  const last = changeBucket(new Date(now.getTime() + FUTURE_MARGIN_MS));
  if (last - first + 1 > MAX_BUCKET_QUERIES) return query(filter, limit);
  const found: T[] = [];
  for (let bucket = first; bucket <= last && (limit === undefined || found.length < limit); bucket++) {
    found.push(...(await query({ ...filter, change_bucket: bucket } as FilterQuery<T>, undefined)));
  }
  return found;
}
