// How each issue is sold (free, sale mode, licensing, prices): the offer.
import { ReferenceCache } from '@folio/messaging';
import type { Model } from 'mongoose';
import type { FreeIssue, OfferRepository } from '../domain/repositories.js';
import { isDuplicateKey } from './errors.js';
import type { OfferDoc } from './schemas.js';

const MAX_LOOKUPS = 200;
const MAX_CACHED_OFFERS = 20_000;

export class MongoOfferRepository implements OfferRepository {
  /**
   * The free issues of a tenant, read once per `freeIssuesTtlMs`: every
   * my-content listing needs them, and the query (`tenant_id` + `free`) reads
   * the whole offers collection on FerretDB (100,000 offers at the scale
   * benchmark: past the gateway's deadline). Offers are written through
   * `put` and `setOnSale` (seed, publisher API), which drop the entries here;
   * another replica drops them on the tenant's access.changed
   * (`forgetTenant`), and the TTL bounds how late it sees a change when that
   * event is missed.
   */
  private readonly freeIssues: ReferenceCache<number, FreeIssue[]>;
  /**
   * Offers by issue, for the same TTL and for the same reason: every purchase
   * redirect and access decision reads its issue's offer, and offers change
   * only through `put` and `setOnSale`. An issue without an offer is asked
   * again every time.
   */
  private readonly byIssue: ReferenceCache<number, OfferDoc>;

  constructor(
    private readonly model: Model<OfferDoc>,
    offersTtlMs = 0,
  ) {
    this.freeIssues = new ReferenceCache({ name: 'commerce-free-issues', maxEntries: 1_000, ttlMs: offersTtlMs });
    this.byIssue = new ReferenceCache({ name: 'commerce-offers', maxEntries: MAX_CACHED_OFFERS, ttlMs: offersTtlMs });
  }

  /** Creates or replaces the offer of an issue (seed, publisher API). */
  async put(offer: OfferDoc): Promise<void> {
    await this.model.replaceOne({ _id: offer._id }, offer, { upsert: true }).exec();
    this.freeIssues.delete(offer.tenant_id);
    this.byIssue.delete(offer._id);
  }

  async putInTenant(offer: OfferDoc): Promise<boolean> {
    try {
      // The tenant in the filter: an id of another tenant's offer makes the upsert an insert of a taken _id.
      await this.model.replaceOne({ _id: offer._id, tenant_id: offer.tenant_id }, offer, { upsert: true }).exec();
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    } finally {
      this.freeIssues.delete(offer.tenant_id);
      this.byIssue.delete(offer._id);
    }
    return true;
  }

  async setOnSale(tenantId: number, issueId: number, onSale: boolean, now: Date): Promise<boolean> {
    const result = await this.model.updateOne({ _id: issueId, tenant_id: tenantId }, { $set: { on_sale: onSale, updated_at: now } }).exec();
    this.byIssue.delete(issueId);
    return result.matchedCount > 0;
  }

  forgetTenant(tenantId?: number): void {
    if (tenantId === undefined) {
      this.freeIssues.clear();
      this.byIssue.clear();
      return;
    }
    this.freeIssues.delete(tenantId);
    this.byIssue.deleteWhere((_, offer) => offer.tenant_id === tenantId);
  }

  /** The offer of an issue in a tenant; an issue of another tenant is as unknown as a missing one. */
  async findInTenant(tenantId: number, issueId: number): Promise<OfferDoc | null> {
    const offer = await this.findById(issueId);
    return offer?.tenant_id === tenantId ? offer : null;
  }

  private findById(issueId: number): Promise<OfferDoc | null> {
    return this.byIssue.getPresent(issueId, () => this.model.findById(issueId).lean<OfferDoc>().exec());
  }

  async findManyInTenant(tenantId: number, issueIds: number[]): Promise<OfferDoc[]> {
    return this.findManyInTenants([tenantId], issueIds);
  }

  /**
   * Offers among `issueIds` that belong to one of `tenantIds`: one `_id`
   * lookup per issue (a listing asks for a few dozen). `{_id: {$in}}` would
   * read the whole collection on FerretDB, and `{tenant_id, _id: {$in}}`
   * every offer of the tenant; on MongoDB each lookup is the `_id` index.
   */
  async findManyInTenants(tenantIds: number[], issueIds: number[]): Promise<OfferDoc[]> {
    if (!tenantIds.length || !issueIds.length) return [];
    const ids = [...new Set(issueIds)];
    // A plan listing thousands of issues: one query beats thousands of lookups.
    if (ids.length > MAX_LOOKUPS)
      return this.model
        .find({ tenant_id: { $in: tenantIds }, _id: { $in: ids } })
        .lean<OfferDoc[]>()
        .exec();
    const tenants = new Set(tenantIds);
    const offers = await Promise.all(ids.map((id) => this.findById(id)));
    return offers.filter((offer): offer is OfferDoc => offer !== null && tenants.has(offer.tenant_id));
  }

  /** Ids of the free issues of the given tenants. */
  async freeIssuesIn(tenantIds: number[]): Promise<FreeIssue[]> {
    const perTenant = await Promise.all([...new Set(tenantIds)].map((tenantId) => this.freeIssues.get(tenantId, () => this.loadFreeIssues(tenantId))));
    return perTenant.flat();
  }

  private async loadFreeIssues(tenantId: number): Promise<FreeIssue[]> {
    const docs = await this.model.find({ tenant_id: tenantId, free: true }, { _id: 1 }).lean<Pick<OfferDoc, '_id'>[]>().exec();
    return docs.map((doc) => ({ tenant_id: tenantId, issue_id: doc._id }));
  }

  async count(): Promise<number> {
    return this.model.countDocuments({}).exec();
  }
}
