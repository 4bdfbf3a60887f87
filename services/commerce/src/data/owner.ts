// Records that belong to a user name them by id, by e-mail (seeded data), or
// both (the domain's Owner): the filters that find them.
import type { FilterQuery } from 'mongoose';
import type { Owner } from '../domain/repositories.js';

/**
 * One filter per key the user's records can carry, for reads on a request
 * path: each is an equality on an indexed field, which FerretDB sends to
 * PostgreSQL, where the `$or` of ownedBy is not (it then reads every record
 * of the tenant). Callers run one query per filter and merge by `_id`.
 */
export function ownerKeys<T>(owner: Owner): FilterQuery<T>[] {
  return [{ user_id: owner.userId } as FilterQuery<T>, ...(owner.email ? [{ email: owner.email } as FilterQuery<T>] : [])];
}

/** Records found by several queries, each once (a record can carry both keys). */
export function mergeById<T extends { _id: unknown }>(lists: T[][]): T[] {
  const byId = new Map<string, T>();
  for (const list of lists) for (const record of list) byId.set(String(record._id), record);
  return [...byId.values()];
}

/** Matches records of the user, whichever key they carry. */
export function ownedBy<T>(owner: Owner): FilterQuery<T> {
  const keys: FilterQuery<T>[] = [{ user_id: owner.userId } as FilterQuery<T>];
  if (owner.email) keys.push({ email: owner.email } as FilterQuery<T>);
  return keys.length === 1 ? keys[0]! : ({ $or: keys } as FilterQuery<T>);
}
