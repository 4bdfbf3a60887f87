// Users: integer ids (the API exposes them) from the `users` sequence, unique e-mail.
// Implements the domain's UserRepository; the seed's upsert is extra.
import { nextSequence, type Connection } from '@folio/mongo';
import type { Model } from 'mongoose';
import type { UserRepository } from '../domain/repositories.js';
import { readThrough, type IdentityReadCache } from './read-cache.js';
import { isDuplicateKey, type UserDoc } from './schemas.js';

export class MongoUserRepository implements UserRepository {
  constructor(
    private readonly connection: Connection,
    private readonly model: Model<UserDoc>,
    private readonly cache?: IdentityReadCache,
  ) {}

  async findById(id: number): Promise<UserDoc | null> {
    return readThrough(this.cache?.users, id, () => this.model.findById(id).lean<UserDoc>().exec());
  }

  async findByEmail(email: string): Promise<UserDoc | null> {
    return this.model.findOne({ email }).lean<UserDoc>().exec();
  }

  /**
   * Returns the user with this (normalized) e-mail, creating it if absent.
   * Two concurrent first logins race on the unique e-mail index; the loser
   * reads the winner's record on the next pass (its sequence value is skipped).
   */
  async findOrCreate(email: string): Promise<{ user: UserDoc; created: boolean }> {
    for (let attempt = 0; ; attempt++) {
      const existing = await this.findByEmail(email);
      if (existing) return { user: existing, created: false };
      const user: UserDoc = { _id: await nextSequence(this.connection, 'users'), email, admin: false, picture: '', created_at: new Date() };
      try {
        await this.model.collection.insertOne(user as never);
        return { user, created: true };
      } catch (error) {
        if (!isDuplicateKey(error) || attempt >= 5) throw error;
      }
    }
  }

  /** Seed: upserts by e-mail; a new record gets `id`. */
  async upsertSeeded(id: number, fields: { email: string; admin: boolean; picture: string }): Promise<UserDoc> {
    const doc = await this.model
      .findOneAndUpdate(
        { email: fields.email },
        { $set: { admin: fields.admin, picture: fields.picture }, $setOnInsert: { _id: id, created_at: new Date() } },
        { upsert: true, new: true },
      )
      .lean<UserDoc>()
      .exec();
    this.cache?.forgetUser(doc!._id);
    return doc!;
  }

  async delete(id: number): Promise<boolean> {
    const deleted = (await this.model.deleteOne({ _id: id }).exec()).deletedCount === 1;
    this.cache?.forgetUser(id);
    return deleted;
  }
}
