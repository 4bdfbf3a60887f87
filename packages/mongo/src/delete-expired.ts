// Deleting everything expired, on any store.
//
// FerretDB on PostgreSQL (the local stack's store) deletes what a filter
// matched with one SQL statement holding one parameter per document, and
// PostgreSQL takes at most 65,535: past that the whole deleteMany fails
// ("extended protocol limited to 65535 parameters"). A prune that fell that
// far behind (a busy store's web sessions, a service that was down for a
// while) would then fail on every later attempt while the backlog grew. So
// when the whole range is refused, it goes oldest first in windows of the
// date field, each halved until the store takes it. MongoDB takes the first
// attempt.
import type { Model } from 'mongoose';

const TOO_MANY_PARAMETERS = '65535 parameters';

/** Whether the store refused a delete for matching more documents than one statement can name. */
export function isTooManyToDeleteAtOnce(error: unknown): boolean {
  return String((error as { message?: unknown } | null)?.message ?? '').includes(TOO_MANY_PARAMETERS);
}

/** Deletes every document whose `field` (a date) is at or before `upTo`; returns how many went. */
export async function deleteExpired<T>(model: Model<T>, field: string, upTo: Date): Promise<number> {
  const expired = { [field]: { $lte: upTo } } as Parameters<Model<T>['deleteMany']>[0];
  try {
    return (await model.deleteMany(expired).exec()).deletedCount;
  } catch (error) {
    if (!isTooManyToDeleteAtOnce(error)) throw error;
  }
  let deleted = 0;
  for (;;) {
    const oldest = (
      await model
        .findOne(expired, { [field]: 1 })
        .sort({ [field]: 1 })
        .lean<Record<string, Date>>()
        .exec()
    )?.[field];
    if (!oldest) return deleted;
    let spanMs = Math.max(1, upTo.getTime() - oldest.getTime());
    for (;;) {
      const end = new Date(Math.min(upTo.getTime(), oldest.getTime() + spanMs));
      try {
        deleted += (await model.deleteMany({ [field]: { $gte: oldest, $lte: end } } as Parameters<Model<T>['deleteMany']>[0]).exec()).deletedCount;
        break;
      } catch (error) {
        // One instant holding more documents than a statement can name cannot be split further by date.
        if (!isTooManyToDeleteAtOnce(error) || spanMs === 1) throw error;
        spanMs = Math.ceil(spanMs / 2);
      }
    }
  }
}
