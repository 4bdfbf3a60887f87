// KOReader progress records (kosync) and the document-hash lookup of
// manifests. A record per user and document (`<user_id>:<document>`, an `_id`
// lookup), for known and unknown documents alike: KOReader's own `progress`
// string (an xpointer or a page) is what it needs to jump back. Protocol v2's
// aliases, another digest of a record's document, are kept per user beside
// them (`kosync_aliases`, `<user_id>:<digest>`).
import { isDuplicateKeyError, modelOn, type Connection } from '@folio/mongo';
import { Schema, type Model } from 'mongoose';
import type { KosyncAlias, KosyncIdentifier, KosyncRecord, KosyncRepository } from '../domain/kosync.js';
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
  /** Absent on records written before protocol v2: treated as empty. */
  identifiers?: KosyncIdentifier[];
  identifiers_for?: string;
}

export interface KosyncAliasDoc {
  _id: string;
  user_id: number;
  digest: string;
  type: string;
  canonical: string;
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
  identifiers: (doc.identifiers ?? []).map(({ type, value }) => ({ type, value })),
  identifiersFor: doc.identifiers_for ?? '',
});

export class MongoKosyncRepository implements KosyncRepository {
  private readonly progress: Model<KosyncProgressDoc>;
  private readonly aliases: Model<KosyncAliasDoc>;
  private readonly manifests: Model<Pick<ManifestDoc, '_id' | 'tenant_id' | 'issue_id' | 'document_hash'>>;

  constructor(connection: Connection) {
    const schema = new Schema<KosyncProgressDoc>({ _id: String, user_id: Number }, { versionKey: false, strict: false, collection: 'kosync_progress' });
    schema.index({ user_id: 1 });
    this.progress = modelOn(connection, 'KosyncProgress', schema);
    const aliases = new Schema<KosyncAliasDoc>({ _id: String, user_id: Number }, { versionKey: false, strict: false, collection: 'kosync_aliases' });
    aliases.index({ user_id: 1 });
    this.aliases = modelOn(connection, 'KosyncAlias', aliases);
    // The manifests' model is registered by readerModels (document_hash indexed there).
    this.manifests = connection.model('ContentManifest') as unknown as typeof this.manifests;
  }

  static idOf(userId: number, document: string): string {
    return `${userId}:${document}`;
  }

  async ensureIndexes(): Promise<void> {
    await this.progress.createIndexes();
    await this.aliases.createIndexes();
  }

  async find(userId: number, document: string): Promise<KosyncRecord | null> {
    const doc = await this.progress
      .findOne({ _id: MongoKosyncRepository.idOf(userId, document) })
      .lean<KosyncProgressDoc>()
      .exec();
    return doc ? toRecord(doc) : null;
  }

  /** Writes the record unless a later one is stored (newest timestamp wins). False when refused. */
  async saveIfNewer(record: KosyncRecord): Promise<boolean> {
    const doc: KosyncProgressDoc = {
      _id: MongoKosyncRepository.idOf(record.userId, record.document),
      user_id: record.userId,
      tenant_id: record.tenantId,
      document: record.document,
      progress: record.progress,
      percentage: record.percentage,
      device: record.device,
      device_id: record.deviceId,
      timestamp: record.timestamp,
      identifiers: record.identifiers.map(({ type, value }) => ({ type, value })),
      identifiers_for: record.identifiersFor,
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

  async findAlias(userId: number, digest: string): Promise<KosyncAlias | null> {
    const doc = await this.aliases
      .findOne({ _id: MongoKosyncRepository.idOf(userId, digest) })
      .lean<KosyncAliasDoc>()
      .exec();
    return doc ? { userId: doc.user_id, digest: doc.digest, type: doc.type, canonical: doc.canonical } : null;
  }

  async saveAlias(alias: KosyncAlias): Promise<void> {
    const doc: KosyncAliasDoc = {
      _id: MongoKosyncRepository.idOf(alias.userId, alias.digest),
      user_id: alias.userId,
      digest: alias.digest,
      type: alias.type,
      canonical: alias.canonical,
    };
    try {
      await this.aliases.replaceOne({ _id: doc._id }, doc, { upsert: true }).exec();
    } catch (error) {
      // A racing push created it first: that one stands, as an alias is never repointed.
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  async deleteAllOf(userId: number): Promise<number> {
    // Aliases first: once the records are gone, nothing of the user's is left.
    await this.aliases.deleteMany({ user_id: userId }).exec();
    return (await this.progress.deleteMany({ user_id: userId }).exec()).deletedCount;
  }
}
