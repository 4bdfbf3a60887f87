// Favorites: one document per (tenant, user, issue). Its existence is the
// flag; adding is a unique insert and removing a delete by id, which FerretDB
// (no isolation for conditional updates) and MongoDB both apply atomically
// and count exactly, so concurrent toggles cannot both "win".
import { isDuplicateKeyError } from '@folio/mongo';
import type { Model } from 'mongoose';
import type { FavoriteKey, FavoriteStore } from '../domain/storage.js';
import type { FavoriteDoc } from './schemas.js';

const favoriteId = (key: FavoriteKey) => `${key.tenant_id}:${key.user_id}:${key.issue_id}`;

export class FavoriteRepository implements FavoriteStore {
  constructor(private readonly model: Model<FavoriteDoc>) {}

  async exists(key: FavoriteKey): Promise<boolean> {
    // A findOne by _id: the lookup shape every store serves from its index (docs/architecture.md, Request path).
    return (
      (await this.model
        .findOne({ _id: favoriteId(key) }, { _id: 1 })
        .lean()
        .exec()) !== null
    );
  }

  /** True when this call created the favorite; false when it already existed. */
  async add(key: FavoriteKey): Promise<boolean> {
    try {
      await this.model.collection.insertOne({ _id: favoriteId(key) as never, ...key, created_at: new Date() });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** True when this call removed the favorite; false when it was already gone. */
  async remove(key: FavoriteKey): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: favoriteId(key) }).exec();
    return result.deletedCount === 1;
  }

  /** Account erasure: every favorite of the user, in every tenant. */
  async deleteAllOf(userId: number): Promise<number> {
    const result = await this.model.deleteMany({ user_id: userId }).exec();
    return result.deletedCount;
  }

  async countOf(userId: number): Promise<number> {
    return this.model.countDocuments({ user_id: userId }).exec();
  }
}
