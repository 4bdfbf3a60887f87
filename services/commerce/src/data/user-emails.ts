// user id -> e-mail, as identity knows it. identity never changes a user's
// e-mail nor reuses an id, so an entry stays true until the account is deleted.
import type { Model } from 'mongoose';
import type { UserEmailRepository } from '../domain/repositories.js';
import type { UserEmailDoc } from './schemas.js';
import { isDuplicateKey } from './errors.js';

export class MongoUserEmailRepository implements UserEmailRepository {
  constructor(private readonly model: Model<UserEmailDoc>) {}

  async find(userId: number): Promise<string | null> {
    return (await this.model.findOne({ _id: userId }).lean<UserEmailDoc>().exec())?.email ?? null;
  }

  async remember(userId: number, email: string, now: Date): Promise<void> {
    try {
      await this.model.updateOne({ _id: userId }, { $set: { email, resolved_at: now } }, { upsert: true }).exec();
    } catch (error) {
      // Two first lookups raced; the other one stored the same answer.
      if (!isDuplicateKey(error)) throw error;
    }
  }

  async forget(userId: number): Promise<void> {
    await this.model.deleteOne({ _id: userId }).exec();
  }
}
