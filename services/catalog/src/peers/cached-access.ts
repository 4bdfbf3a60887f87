// Access decisions and offers cached where catalog reads them, in front of
// commerce (CommerceAccess). Every storefront listing asks for up to
// STOREFRONT_CANDIDATE_LIMIT offers; most are the same from one request of a
// user to the next, so only the issues not cached yet reach commerce.
//
// Keys: an offer per tenant + user + issue (null when commerce does not know
// the issue), and what a user can read per user + set of tenants. Entries
// are dropped by commerce's access.changed (one user, or a whole tenant) and
// identity's tenant.updated (free access and currency change offers), on
// every replica (events/cache-invalidation.ts). ACCESS_CACHE_TTL_MS bounds
// how stale an entry can be when an event was missed (broker down).
import { ReferenceCache } from '@folio/messaging';
import type { AccessibleContent, AccessPort, Offer } from '../domain/ports.js';

export interface AccessCacheSettings {
  ttlMs: number;
  /** Offers kept (one per tenant, user and issue); what-a-user-can-read lists get a tenth of it. */
  maxEntries: number;
  now?: () => number;
}

const offerKey = (tenantId: number, userId: number, issueId: number) => `${tenantId}:${userId}:${issueId}`;
const accessibleKey = (tenantIds: readonly number[], userId: number) => `${userId}|${[...tenantIds].sort((a, b) => a - b).join(',')}`;

export class CachedAccess implements AccessPort {
  private readonly offerCache: ReferenceCache<string, Offer | null>;
  private readonly accessibleCache: ReferenceCache<string, AccessibleContent>;

  constructor(
    private readonly commerce: AccessPort,
    settings: AccessCacheSettings,
  ) {
    this.offerCache = new ReferenceCache({ name: 'catalog-offers', ttlMs: settings.ttlMs, maxEntries: settings.maxEntries, now: settings.now });
    this.accessibleCache = new ReferenceCache({
      name: 'catalog-accessible',
      ttlMs: settings.ttlMs,
      maxEntries: Math.max(100, Math.floor(settings.maxEntries / 10)),
      now: settings.now,
    });
  }

  async offers(tenantId: number, userId: number, issueIds: readonly number[]): Promise<Map<number, Offer>> {
    const offers = new Map<number, Offer>();
    const missing: number[] = [];
    for (const issueId of issueIds) {
      const cached = this.offerCache.peek(offerKey(tenantId, userId, issueId));
      if (cached === undefined) missing.push(issueId);
      else if (cached) offers.set(issueId, cached);
    }
    if (missing.length === 0) return offers;
    const generation = this.offerCache.snapshot();
    const fetched = await this.commerce.offers(tenantId, userId, missing);
    for (const issueId of missing) {
      const offer = fetched.get(issueId) ?? null;
      this.offerCache.setIfCurrent(offerKey(tenantId, userId, issueId), offer, generation);
      if (offer) offers.set(issueId, offer);
    }
    return offers;
  }

  accessible(tenantIds: readonly number[], userId: number): Promise<AccessibleContent> {
    return this.accessibleCache.get(accessibleKey(tenantIds, userId), () => this.commerce.accessible(tenantIds, userId));
  }

  /** Drops what a change of access makes stale: one user (in one tenant or all), a whole tenant, or everything. */
  forget(scope: { tenantId?: number; userId?: number } = {}): void {
    const { tenantId, userId } = scope;
    if (tenantId === undefined && userId === undefined) {
      this.offerCache.clear();
      this.accessibleCache.clear();
      return;
    }
    this.offerCache.deleteWhere((key) => {
      const [tenant, user] = key.split(':').map(Number);
      return (tenantId === undefined || tenant === tenantId) && (userId === undefined || user === userId);
    });
    this.accessibleCache.deleteWhere((key) => {
      const [user, tenants] = key.split('|');
      return (userId === undefined || Number(user) === userId) && (tenantId === undefined || tenants!.split(',').map(Number).includes(tenantId));
    });
  }
}
