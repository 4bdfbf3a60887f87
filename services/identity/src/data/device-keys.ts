// Device keys: digests only (see DeviceKeyDoc). Verification reads one
// document by `_id` or by the unique `md5_digest`, never a scan.
import type { Model } from 'mongoose';
import type { DeviceKeyDoc } from './schemas.js';

export class DeviceKeyRepository {
  constructor(private readonly model: Model<DeviceKeyDoc>) {}

  async insert(doc: DeviceKeyDoc): Promise<void> {
    await this.model.collection.insertOne(doc as never);
  }

  async findByDigest(digest: string): Promise<DeviceKeyDoc | null> {
    return this.model.findById(digest).lean<DeviceKeyDoc>().exec();
  }

  async findByMd5Digest(digest: string): Promise<DeviceKeyDoc | null> {
    return this.model.findOne({ md5_digest: digest }).lean<DeviceKeyDoc>().exec();
  }

  /** The user's keys, newest first (few per user: sorted after the indexed user_id equality). */
  async listOf(userId: number): Promise<DeviceKeyDoc[]> {
    return this.model.find({ user_id: userId }).sort({ created_at: -1, key_id: 1 }).lean<DeviceKeyDoc[]>().exec();
  }

  async countOf(userId: number): Promise<number> {
    return this.model.countDocuments({ user_id: userId }).exec();
  }

  /** Deletes one of the user's keys; false when the id is unknown or another user's. */
  async deleteOf(userId: number, keyId: string): Promise<boolean> {
    return (await this.model.deleteOne({ key_id: keyId, user_id: userId }).exec()).deletedCount === 1;
  }

  async deleteAllOf(userId: number): Promise<number> {
    return (await this.model.deleteMany({ user_id: userId }).exec()).deletedCount;
  }

  async touch(digest: string, at: Date): Promise<void> {
    await this.model.updateOne({ _id: digest }, { $set: { last_used_at: at } }).exec();
  }
}
