// Records that belong to a user name them by id, by e-mail (seeded data), or both.
import type { FilterQuery } from 'mongoose';

export interface Owner {
  userId: number;
  /** The user's e-mail in identity, lower-cased; null when it could not be resolved. */
  email: string | null;
}

/** Matches records of the user, whichever key they carry. */
export function ownedBy<T>(owner: Owner): FilterQuery<T> {
  const keys: FilterQuery<T>[] = [{ user_id: owner.userId } as FilterQuery<T>];
  if (owner.email) keys.push({ email: owner.email } as FilterQuery<T>);
  return keys.length === 1 ? keys[0]! : ({ $or: keys } as FilterQuery<T>);
}
