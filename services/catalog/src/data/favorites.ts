// Favorites: one document per (tenant, user, issue). Its existence is the
// flag; adding is a unique insert and removing a delete by id, which FerretDB
// (no isolation for conditional updates) and MongoDB both apply atomically
// and count exactly, so concurrent toggles cannot both "win".
import type { ReferenceCache } from '@folio/messaging';
import { isDuplicateKeyError } from '@folio/mongo';
import type { Model } from 'mongoose';
import type { FavoriteKey, FavoriteRepository } from '../domain/repositories.js';
import type { FavoriteDoc } from './schemas.js';

const favoriteId = (key: FavoriteKey) => `${key.tenant_id}:${key.user_id}:${key.issue_id}`;

/**
 * Favorite flags as the favorites cache keeps them, by favorite id (true or
 * false: a "no" is as cacheable as a "yes", since every change of the user's
 * favorites goes through `changed`): every GET /reader/settings asks. `changed`
 * runs after every write, after this replica's entries of the user are
 * dropped, and tells the other replicas (favorites.changed).
 */
export interface FavoriteCache {
  entries: ReferenceCache<string, boolean>;
  changed(userId: number): void;
}

/** Drops every cached flag of one user (ids are `<tenant>:<user>:<issue>`). */
export function forgetFavoritesOf(entries: ReferenceCache<string, boolean>, userId: number): void {
  const marker = `:${userId}:`;
  entries.deleteWhere((id) => id.includes(marker));
}

export class MongoFavoriteRepository implements FavoriteRepository {
  constructor(
    private readonly model: Model<FavoriteDoc>,
    private readonly cache?: FavoriteCache,
  ) {}

  async exists(key: FavoriteKey): Promise<boolean> {
    const id = favoriteId(key);
    // A findOne by _id: the lookup shape every store serves from its index (docs/architecture.md, Request path).
    const load = async () => (await this.model.findOne({ _id: id }, { _id: 1 }).lean().exec()) !== null;
    return this.cache ? this.cache.entries.get(id, load) : load();
  }

  /** True when this call created the favorite; false when it already existed. */
  async add(key: FavoriteKey): Promise<boolean> {
    try {
      await this.model.collection.insertOne({ _id: favoriteId(key) as never, ...key, created_at: new Date() });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    } finally {
      this.changed(key.user_id);
    }
  }

  /** True when this call removed the favorite; false when it was already gone. */
  async remove(key: FavoriteKey): Promise<boolean> {
    try {
      const result = await this.model.deleteOne({ _id: favoriteId(key) }).exec();
      return result.deletedCount === 1;
    } finally {
      this.changed(key.user_id);
    }
  }

  /** Account erasure: every favorite of the user, in every tenant. */
  async deleteAllOf(userId: number): Promise<number> {
    try {
      const result = await this.model.deleteMany({ user_id: userId }).exec();
      return result.deletedCount;
    } finally {
      this.changed(userId);
    }
  }

  private changed(userId: number): void {
    if (!this.cache) return;
    forgetFavoritesOf(this.cache.entries, userId);
    this.cache.changed(userId);
  }

  async countOf(userId: number): Promise<number> {
    return this.model.countDocuments({ user_id: userId }).exec();
  }
}
