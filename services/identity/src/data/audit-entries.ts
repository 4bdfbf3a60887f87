// The publisher audit log in `audit_entries`, newest first per tenant on the
// (tenant_id, at, _id) index. Implements the domain's AuditEntryRepository.
import type { Model } from 'mongoose';
import type { AuditEntry, AuditEntryRepository } from '../domain/audit-log.js';
import { isDuplicateKey, type AuditEntryDoc } from './schemas.js';

const toEntry = (doc: AuditEntryDoc): AuditEntry => ({
  id: doc._id,
  tenantId: doc.tenant_id,
  at: doc.at,
  actor: doc.actor,
  action: doc.action,
  target: doc.target,
  detailsJson: doc.details_json,
  requestId: doc.request_id ?? '',
});

export class MongoAuditEntryRepository implements AuditEntryRepository {
  constructor(private readonly model: Model<AuditEntryDoc>) {}

  async insert(entry: AuditEntry): Promise<boolean> {
    const doc: AuditEntryDoc = {
      _id: entry.id,
      tenant_id: entry.tenantId,
      at: entry.at,
      actor: entry.actor,
      action: entry.action,
      target: entry.target,
      details_json: entry.detailsJson,
      request_id: entry.requestId,
    };
    try {
      await this.model.collection.insertOne(doc as never);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async findById(tenantId: number, id: string): Promise<AuditEntry | null> {
    const doc = await this.model.findOne({ _id: id, tenant_id: tenantId }).lean<AuditEntryDoc>().exec();
    return doc ? toEntry(doc) : null;
  }

  async page(tenantId: number, offset: number, limit: number): Promise<AuditEntry[]> {
    const docs = await this.model.find({ tenant_id: tenantId }).sort({ at: -1, _id: -1 }).skip(offset).limit(limit).lean<AuditEntryDoc[]>().exec();
    return docs.map(toEntry);
  }

  async countOf(tenantId: number): Promise<number> {
    return this.model.countDocuments({ tenant_id: tenantId }).exec();
  }
}
