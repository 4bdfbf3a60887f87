// Uploads and their ingest jobs (collection content_jobs), one document per
// upload; every query names the tenant. The worker finds a job by its id from
// the queue message; GetContentStatus reads the issue's latest.
import { modelOn, type Connection } from '@folio/mongo';
import { Schema, type Model } from 'mongoose';
import type { ContentJobRecord, ContentJobRepository } from '../domain/uploads.js';

export class MongoContentJobRepository implements ContentJobRepository {
  private readonly model: Model<ContentJobRecord>;

  constructor(connection: Connection) {
    const schema = new Schema<ContentJobRecord>(
      { _id: String, tenant_id: Number, issue_id: Number, content_hash: String, state: String, uploaded_at: Date },
      { versionKey: false, strict: false, minimize: false, collection: 'content_jobs' },
    );
    schema.index({ tenant_id: 1, issue_id: 1, uploaded_at: -1 });
    this.model = modelOn(connection, 'ContentJob', schema);
  }

  async ensureIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async create(job: ContentJobRecord): Promise<void> {
    await this.model.collection.insertOne(job as never);
  }

  async find(tenantId: number, jobId: string): Promise<ContentJobRecord | null> {
    return this.model.findOne({ _id: jobId, tenant_id: tenantId }).lean<ContentJobRecord>().exec();
  }

  async latest(tenantId: number, issueId: number): Promise<ContentJobRecord | null> {
    return this.model.findOne({ tenant_id: tenantId, issue_id: issueId }).sort({ uploaded_at: -1, _id: -1 }).lean<ContentJobRecord>().exec();
  }

  async latestReady(tenantId: number, issueId: number, contentHash: string): Promise<ContentJobRecord | null> {
    return this.model
      .findOne({ tenant_id: tenantId, issue_id: issueId, content_hash: contentHash, state: 'ready' })
      .sort({ uploaded_at: -1, _id: -1 })
      .lean<ContentJobRecord>()
      .exec();
  }

  async update(tenantId: number, jobId: string, changes: Partial<Omit<ContentJobRecord, '_id' | 'tenant_id'>>): Promise<void> {
    await this.model.updateOne({ _id: jobId, tenant_id: tenantId }, { $set: changes }).exec();
  }

  async start(tenantId: number, jobId: string): Promise<ContentJobRecord | null> {
    return this.model
      .findOneAndUpdate(
        { _id: jobId, tenant_id: tenantId },
        { $set: { state: 'processing', progress: 0, step: 'starting' }, $inc: { attempts: 1 } },
        { new: true },
      )
      .lean<ContentJobRecord>()
      .exec();
  }
}
