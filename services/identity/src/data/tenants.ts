// Tenants (stores) and their settings, as loaded from the dataset by the seed.
import type { FilterQuery, Model } from 'mongoose';
import type { TenantDoc } from './schemas.js';

export class TenantStore {
  constructor(private readonly model: Model<TenantDoc>) {}

  async findById(id: number): Promise<TenantDoc | null> {
    return this.model.findById(id).lean<TenantDoc>().exec();
  }

  async findByIds(ids: number[]): Promise<TenantDoc[]> {
    if (ids.length === 0) return [];
    return this.model.find({ _id: { $in: ids } }).sort({ _id: 1 }).lean<TenantDoc[]>().exec();
  }

  async findByDomain(domain: string): Promise<TenantDoc | null> {
    return this.model.findOne({ domain }).lean<TenantDoc>().exec();
  }

  /** One page of a filtered listing, most members first, then by id. */
  async page(filter: FilterQuery<TenantDoc>, offset: number, limit: number): Promise<TenantDoc[]> {
    return this.model.find(filter).sort({ member_count: -1, _id: 1 }).skip(offset).limit(limit).lean<TenantDoc[]>().exec();
  }

  async adjustMemberCount(tenantId: number, delta: number): Promise<void> {
    await this.model.updateOne({ _id: tenantId }, { $inc: { member_count: delta } }).exec();
  }

  /** Seed: writes every field but the member count, which belongs to memberships. */
  async upsertSeeded(tenant: Omit<TenantDoc, 'member_count'>): Promise<void> {
    const { _id, ...fields } = tenant;
    await this.model.updateOne({ _id }, { $set: fields, $setOnInsert: { member_count: 0 } }, { upsert: true }).exec();
  }

  async setMemberCount(tenantId: number, count: number): Promise<void> {
    await this.model.updateOne({ _id: tenantId }, { $set: { member_count: count } }).exec();
  }

  async allIds(): Promise<number[]> {
    const docs = await this.model.find({}, { _id: 1 }).lean<{ _id: number }[]>().exec();
    return docs.map((doc) => doc._id);
  }
}
