// A user's reading state (positions, reader settings) as the replicas cache
// it: each entry at the user's version (user-versions.ts), and the one way a
// write outdates what every replica holds.
import type { ReferenceCache } from '@folio/messaging';
import type { UserVersions } from './user-versions.js';

/** A cached value and the user's version (UserVersions) it was loaded at: served only while that version is current. */
export interface AtVersion<V> {
  version: string;
  value: V;
}

/** What the positions and the settings caches have alike (UserPositionsCache, UserSettingsCache). */
export interface UserStateCache<V> {
  entries: ReferenceCache<number, AtVersion<V>>;
  versions: UserVersions;
  changed(userId: number): void;
}

/**
 * Runs a write of a user's reading state, then outdates what every replica
 * cached of it, also when the write failed after it may have applied: the
 * new version first, so that once the write is answered no replica serves
 * what it loaded before; then this replica's entry and the broadcast, which
 * only free memory sooner.
 */
export async function writeUserState<V, T>(cache: UserStateCache<V> | undefined, userId: number, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    if (cache) {
      await cache.versions.bump(userId);
      cache.entries.delete(userId);
      cache.changed(userId);
    }
  }
}
