// Device keys in `device_keys`: digests only. `_id` is the SHA-256 of the key
// and `md5_digest` (unique) that of its MD5 hex, so verification reads one
// document by `_id` or by a unique field, never a scan. Implements the
// domain's DeviceKeyRepository; DeviceKeyDoc is the document, DeviceKeyRecord the
// domain's view of it.
import type { Model } from 'mongoose';
import type { DeviceKeyAccounts, DeviceKeyRecord, DeviceKeyRepository } from '../domain/device-keys.js';
import type { MongoMembershipRepository } from './memberships.js';
import type { DeviceKeyDoc } from './schemas.js';
import type { MongoUserRepository } from './users.js';

const toRecord = (doc: DeviceKeyDoc): DeviceKeyRecord => ({
  digest: doc._id,
  md5Digest: doc.md5_digest,
  id: doc.key_id,
  userId: doc.user_id,
  label: doc.label,
  createdAt: doc.created_at,
  lastUsedAt: doc.last_used_at ?? null,
});

export class MongoDeviceKeyRepository implements DeviceKeyRepository {
  constructor(private readonly model: Model<DeviceKeyDoc>) {}

  async insert(record: DeviceKeyRecord): Promise<void> {
    const doc: DeviceKeyDoc = {
      _id: record.digest,
      md5_digest: record.md5Digest,
      key_id: record.id,
      user_id: record.userId,
      label: record.label,
      created_at: record.createdAt,
      last_used_at: record.lastUsedAt,
    };
    await this.model.collection.insertOne(doc as never);
  }

  async findByDigest(digest: string): Promise<DeviceKeyRecord | null> {
    const doc = await this.model.findById(digest).lean<DeviceKeyDoc>().exec();
    return doc ? toRecord(doc) : null;
  }

  async findByMd5Digest(md5Digest: string): Promise<DeviceKeyRecord | null> {
    const doc = await this.model.findOne({ md5_digest: md5Digest }).lean<DeviceKeyDoc>().exec();
    return doc ? toRecord(doc) : null;
  }

  /** The user's keys, newest first (few per user: sorted after the indexed user_id equality). */
  async listOf(userId: number): Promise<DeviceKeyRecord[]> {
    return (await this.model.find({ user_id: userId }).sort({ created_at: -1, key_id: 1 }).lean<DeviceKeyDoc[]>().exec()).map(toRecord);
  }

  async countOf(userId: number): Promise<number> {
    return this.model.countDocuments({ user_id: userId }).exec();
  }

  async deleteOf(userId: number, id: string): Promise<boolean> {
    return (await this.model.deleteOne({ key_id: id, user_id: userId }).exec()).deletedCount === 1;
  }

  async deleteAllOf(userId: number): Promise<number> {
    return (await this.model.deleteMany({ user_id: userId }).exec()).deletedCount;
  }

  async touch(digest: string, at: Date): Promise<void> {
    await this.model.updateOne({ _id: digest }, { $set: { last_used_at: at } }).exec();
  }
}

/** The accounts side of device keys: the user by `_id`, the membership by its unique (user_id, tenant_id). */
export function deviceKeyAccounts(users: Pick<MongoUserRepository, 'findById'>, memberships: Pick<MongoMembershipRepository, 'has'>): DeviceKeyAccounts {
  return {
    async user(userId) {
      const user = await users.findById(userId);
      return user ? { id: user._id, email: user.email, admin: user.admin } : null;
    },
    isMember: (userId, tenantId) => memberships.has(userId, tenantId),
  };
}
