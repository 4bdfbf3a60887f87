// Publisher API keys in `publisher_api_keys`: `_id` is the SHA-256 of the key,
// so authorizing a request reads one document by `_id`. Implements the
// domain's PublisherApiKeyRepository.
import type { Model } from 'mongoose';
import type { PublisherApiKeyRecord, PublisherApiKeyRepository } from '../domain/publisher-api-keys.js';
import type { PublisherApiKeyDoc } from './schemas.js';

const toRecord = (doc: PublisherApiKeyDoc): PublisherApiKeyRecord => ({
  digest: doc._id,
  id: doc.key_id,
  tenantId: doc.tenant_id,
  name: doc.name,
  prefix: doc.prefix,
  role: doc.role,
  createdAt: doc.created_at,
  createdByUserId: doc.created_by_user_id ?? null,
  lastUsedAt: doc.last_used_at ?? null,
  revokedAt: doc.revoked_at ?? null,
});

export class MongoPublisherApiKeyRepository implements PublisherApiKeyRepository {
  constructor(private readonly model: Model<PublisherApiKeyDoc>) {}

  async insert(record: PublisherApiKeyRecord): Promise<void> {
    const doc: PublisherApiKeyDoc = {
      _id: record.digest,
      key_id: record.id,
      tenant_id: record.tenantId,
      name: record.name,
      prefix: record.prefix,
      role: record.role,
      created_at: record.createdAt,
      created_by_user_id: record.createdByUserId,
      last_used_at: record.lastUsedAt,
      revoked_at: record.revokedAt,
    };
    await this.model.collection.insertOne(doc as never);
  }

  async findByDigest(digest: string): Promise<PublisherApiKeyRecord | null> {
    const doc = await this.model.findById(digest).lean<PublisherApiKeyDoc>().exec();
    return doc ? toRecord(doc) : null;
  }

  async listOf(tenantId: number): Promise<PublisherApiKeyRecord[]> {
    return (await this.model.find({ tenant_id: tenantId }).sort({ created_at: -1, key_id: 1 }).lean<PublisherApiKeyDoc[]>().exec()).map(toRecord);
  }

  async countLiveOf(tenantId: number): Promise<number> {
    return this.model.countDocuments({ tenant_id: tenantId, revoked_at: null }).exec();
  }

  async revoke(tenantId: number, id: string, at: Date): Promise<PublisherApiKeyRecord | null> {
    // Only the first revocation sets the time; a repeated one reads the key back as it is.
    await this.model.updateOne({ key_id: id, tenant_id: tenantId, revoked_at: null }, { $set: { revoked_at: at } }).exec();
    const doc = await this.model.findOne({ key_id: id, tenant_id: tenantId }).lean<PublisherApiKeyDoc>().exec();
    return doc ? toRecord(doc) : null;
  }

  async touch(digest: string, at: Date): Promise<void> {
    await this.model.updateOne({ _id: digest }, { $set: { last_used_at: at } }).exec();
  }
}
