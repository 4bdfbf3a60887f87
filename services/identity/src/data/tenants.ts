// Tenants (stores) and their settings, as loaded from the dataset by the seed.
// Implements the domain's TenantRepository (discovery's query is built here from
// its criteria); the seed's writes and the member count are extra.
import type { FilterQuery, Model } from 'mongoose';
import type { DiscoveryCriteria, TenantRepository } from '../domain/repositories.js';
import { readThrough, type IdentityReadCache } from './read-cache.js';
import type { TenantDoc } from './schemas.js';

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class MongoTenantRepository implements TenantRepository {
  /** Reads through `cache` when given (the service's own store; seeds and tests read the store). */
  constructor(
    private readonly model: Model<TenantDoc>,
    private readonly cache?: IdentityReadCache,
  ) {}

  async findById(id: number): Promise<TenantDoc | null> {
    return readThrough(this.cache?.tenants, id, () => this.model.findById(id).lean<TenantDoc>().exec());
  }

  /** Ascending by id; the cached ones from memory, the rest in one query. */
  async findByIds(ids: number[]): Promise<TenantDoc[]> {
    if (ids.length === 0) return [];
    const cache = this.cache?.tenants;
    const found = new Map<number, TenantDoc>();
    const missing: number[] = [];
    for (const id of ids) {
      const cached = cache?.peek(id);
      if (cached) found.set(id, cached);
      else missing.push(id);
    }
    if (missing.length > 0) {
      // One `_id` lookup each rather than `$in`, which FerretDB answers by reading the whole collection.
      const generation = cache?.snapshot() ?? 0;
      const docs = await Promise.all(missing.map((id) => this.model.findById(id).lean<TenantDoc>().exec()));
      for (const doc of docs) {
        if (!doc) continue;
        found.set(doc._id, doc);
        cache?.setIfCurrent(doc._id, doc, generation);
      }
    }
    return [...found.values()].sort((a, b) => a._id - b._id);
  }

  async findByDomain(domain: string): Promise<TenantDoc | null> {
    return readThrough(this.cache?.tenantsByDomain, domain, () => this.model.findOne({ domain }).lean<TenantDoc>().exec());
  }

  /**
   * One page of the tenants a user could join (discovery's criteria, see
   * domain/discovery.ts), most members first, then by id.
   */
  async discoverable(criteria: DiscoveryCriteria, offset: number, limit: number): Promise<TenantDoc[]> {
    const filter: FilterQuery<TenantDoc> = { plan_active: true, _id: { $nin: criteria.excludeIds } };
    if (criteria.countryCode) filter.signup_country_code = criteria.countryCode;
    if (criteria.nameContains) filter.name_search = { $regex: escapeRegex(criteria.nameContains) };
    if (criteria.familyOf !== undefined) filter.$or = [{ _id: criteria.familyOf }, { aggregator_id: criteria.familyOf }];
    return this.model.find(filter).sort({ member_count: -1, _id: 1 }).skip(offset).limit(limit).lean<TenantDoc[]>().exec();
  }

  async withWebOrigins(): Promise<{ id: number; webOrigins: string[] }[]> {
    const docs = await this.model
      .find({ 'web_origins.0': { $exists: true } }, { web_origins: 1 })
      .sort({ _id: 1 })
      .lean<Pick<TenantDoc, '_id' | 'web_origins'>[]>()
      .exec();
    return docs.map((doc) => ({ id: doc._id, webOrigins: doc.web_origins }));
  }

  async adjustMemberCount(tenantId: number, delta: number): Promise<void> {
    await this.model.updateOne({ _id: tenantId }, { $inc: { member_count: delta } }).exec();
  }

  /** Seed: writes every field but the member count, which belongs to memberships. */
  async upsertSeeded(tenant: Omit<TenantDoc, 'member_count'>): Promise<void> {
    const { _id, ...fields } = tenant;
    await this.model.updateOne({ _id }, { $set: fields, $setOnInsert: { member_count: 0 } }, { upsert: true }).exec();
    this.cache?.forgetTenant(_id);
  }

  async setMemberCount(tenantId: number, count: number): Promise<void> {
    await this.model.updateOne({ _id: tenantId }, { $set: { member_count: count } }).exec();
  }

  async allIds(): Promise<number[]> {
    const docs = await this.model.find({}, { _id: 1 }).lean<{ _id: number }[]>().exec();
    return docs.map((doc) => doc._id);
  }
}
