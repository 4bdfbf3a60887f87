// KOReader progress records (kosync) and the document-hash lookup of
// manifests. A record per user and document (`<user_id>:<document>`, an `_id`
// lookup), for known and unknown documents alike: KOReader's own `progress`
// string (an xpointer or a page) is what it needs to jump back.
import { isDuplicateKeyError, modelOn, type Connection } from '@folio/mongo';
import { Schema, type Model } from 'mongoose';
import type { KosyncRecord, KosyncStore } from '../domain/kosync.js';
import type { ManifestDoc } from './schemas.js';

export interface KosyncProgressDoc {
  _id: string;
  user_id: number;
  /** The store the push came to. */
  tenant_id: number;
  document: string;
  progress: string;
  percentage: number;
  device: string;
  device_id: string;
  timestamp: Date;
}

const toRecord = (doc: KosyncProgressDoc): KosyncRecord => ({
  userId: doc.user_id,
  tenantId: doc.tenant_id,
  document: doc.document,
  progress: doc.progress,
  percentage: doc.percentage,
  device: doc.device,
  deviceId: doc.device_id,
  timestamp: doc.timestamp,
});

export class KosyncRepository implements KosyncStore {
  private readonly progress: Model<KosyncProgressDoc>;
  private readonly manifests: Model<Pick<ManifestDoc, '_id' | 'tenant_id' | 'issue_id' | 'document_hash'>>;

  constructor(connection: Connection) {
    const schema = new Schema<KosyncProgressDoc>({ _id: String, user_id: Number }, { versionKey: false, strict: false, collection: 'kosync_progress' });
    schema.index({ user_id: 1 });
    this.progress = modelOn(connection, 'KosyncProgress', schema);
    // The manifests' model is registered by readerModels (document_hash indexed there).
    this.manifests = connection.model('ContentManifest') as unknown as typeof this.manifests;
  }

  static idOf(userId: number, document: string): string {
    return `${userId}:${document}`;
  }

  async ensureIndexes(): Promise<void> {
    await this.progress.createIndexes();
  }

  async find(userId: number, document: string): Promise<KosyncRecord | null> {
    const doc = await this.progress
      .findOne({ _id: KosyncRepository.idOf(userId, document) })
      .lean<KosyncProgressDoc>()
      .exec();
    return doc ? toRecord(doc) : null;
  }

  /** Writes the record unless a later one is stored (newest timestamp wins). False when refused. */
  async saveIfNewer(record: KosyncRecord): Promise<boolean> {
    const doc: KosyncProgressDoc = {
      _id: KosyncRepository.idOf(record.userId, record.document),
      user_id: record.userId,
      tenant_id: record.tenantId,
      document: record.document,
      progress: record.progress,
      percentage: record.percentage,
      device: record.device,
      device_id: record.deviceId,
      timestamp: record.timestamp,
    };
    const filter = { _id: doc._id, timestamp: { $lte: doc.timestamp } };
    try {
      const result = await this.progress.replaceOne(filter, doc, { upsert: true }).exec();
      return result.matchedCount > 0 || result.upsertedCount > 0;
    } catch (error) {
      // The upsert's insert collided with a stored record that is newer (or a racing first write).
      if (!isDuplicateKeyError(error)) throw error;
      return (await this.progress.replaceOne(filter, doc).exec()).matchedCount > 0;
    }
  }

  /** The issue of the store whose downloadable file has this KOReader hash (an indexed equality). */
  async issueOf(tenantId: number, documentHash: string): Promise<number | null> {
    const found = await this.manifests
      .findOne({ document_hash: documentHash, tenant_id: tenantId }, { issue_id: 1 })
      .lean<Pick<ManifestDoc, 'issue_id'>>()
      .exec();
    return found?.issue_id ?? null;
  }

  async deleteAllOf(userId: number): Promise<number> {
    return (await this.progress.deleteMany({ user_id: userId }).exec()).deletedCount;
  }
}
