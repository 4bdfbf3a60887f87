// The access use cases: one issue (reader), a batch (catalog's listings and
// storefront) and everything a user can read across tenants (my-content).
import { notFound } from '@folio/errors';
import {
  canBeBought,
  decideAccess,
  offerView,
  planCovers,
  stronger,
  strongestGrant,
  type AccessDecision,
  type AccessReason,
  type OfferView,
} from './access.js';
import type { Owners } from './owners.js';
import type { Clock, TenantInfo, Tenants } from './ports.js';
import type { CommerceRepositories, GrantRecord, OfferRecord, SubscriptionRecord } from './repositories.js';

export interface IssueAccess {
  issueId: number;
  offer: OfferRecord;
  access: AccessDecision;
  view: OfferView;
  canBeBought: boolean;
}

export interface AccessibleIssue {
  tenantId: number;
  issueId: number;
  reason: AccessReason;
  expiresAt: Date | null;
}

export interface WholeTenant {
  tenantId: number;
  reason: 'free' | 'subscription';
}

export class AccessQueries {
  constructor(
    private readonly store: CommerceRepositories,
    private readonly tenants: Tenants,
    private readonly owners: Owners,
    private readonly clock: Clock,
  ) {}

  async tenant(tenantId: number): Promise<TenantInfo> {
    const tenant = tenantId > 0 ? await this.tenants.find(tenantId) : null;
    if (!tenant) throw notFound('Tenant not found.');
    return tenant;
  }

  /**
   * One entry per requested issue commerce knows in the tenant, in request
   * order (duplicates once): issues with an offer, and issues without one
   * that the user holds a grant of (a publisher's grant needs no offer).
   */
  async batch(tenantId: number, userId: number, issueIds: number[]): Promise<IssueAccess[]> {
    const wanted = [...new Set(issueIds.filter((id) => Number.isInteger(id) && id > 0))];
    if (!wanted.length) return [];
    const tenant = await this.tenant(tenantId);
    const offers = new Map((await this.store.offers.findManyInTenant(tenantId, wanted)).map((offer) => [offer._id, offer]));
    const now = this.clock.now();
    const owner = await this.owners.of(userId);
    if (!offers.size && !owner) return [];
    const [grants, plans] = owner
      ? await Promise.all([this.store.grants.liveFor(owner, [tenantId], now, wanted), this.store.subscriptions.activeFor(owner, [tenantId], now)])
      : [[] as GrantRecord[], [] as SubscriptionRecord[]];
    const granted = new Set(grants.map((grant) => grant.issue_id));
    const result: IssueAccess[] = [];
    for (const issueId of wanted) {
      const offer = offers.get(issueId) ?? (granted.has(issueId) ? notSold(tenantId, issueId, now) : undefined);
      if (!offer) continue;
      const access = decideAccess(offer, tenant, grants, plans);
      const view = offerView(offer, tenant, now);
      result.push({ issueId, offer, access, view, canBeBought: canBeBought(view, access) });
    }
    return result;
  }

  async one(tenantId: number, userId: number, issueId: number): Promise<IssueAccess> {
    const [found] = await this.batch(tenantId, userId, [issueId]);
    if (!found) throw notFound('Issue not found.');
    return found;
  }

  /**
   * What the user can read in the given tenants. `wholeTenants`: tenants where
   * every issue is readable (tenant free access, or a plan covering all).
   * `issues`: issues readable one by one (grants, plans listing issues, free
   * issues), each once with its strongest reason; inside a whole tenant an
   * issue's reason is at least the tenant's.
   */
  async listAccessible(tenantIds: number[], userId: number): Promise<{ issues: AccessibleIssue[]; wholeTenants: WholeTenant[] }> {
    const ids = [...new Set(tenantIds.filter((id) => Number.isInteger(id) && id > 0))].sort((a, b) => a - b);
    const tenants = (await Promise.all(ids.map((id) => this.tenants.find(id)))).filter((tenant): tenant is TenantInfo => tenant !== null);
    const known = tenants.map((tenant) => tenant.id);
    if (!known.length) return { issues: [], wholeTenants: [] };
    const now = this.clock.now();
    const owner = await this.owners.of(userId);
    const [grants, plans, freeIssues] = await Promise.all([
      owner ? this.store.grants.liveFor(owner, known, now) : Promise.resolve([] as GrantRecord[]),
      owner ? this.store.subscriptions.activeFor(owner, known, now) : Promise.resolve([] as SubscriptionRecord[]),
      this.store.offers.freeIssuesIn(known),
    ]);

    const whole = new Map<number, AccessDecision>();
    for (const tenant of tenants) {
      if (plans.some((plan) => plan.tenant_id === tenant.id && plan.covers_all)) whole.set(tenant.id, { reason: 'subscription', expiresAt: null });
      else if (tenant.freeAccess) whole.set(tenant.id, { reason: 'free', expiresAt: null });
    }

    const byIssue = new Map<number, { tenantId: number; access: AccessDecision }>();
    const offer = (tenantId: number, issueId: number, access: AccessDecision) => {
      const current = byIssue.get(issueId);
      byIssue.set(issueId, { tenantId, access: current ? stronger(current.access, access) : access });
    };

    const grantsByIssue = new Map<number, GrantRecord[]>();
    for (const grant of grants) grantsByIssue.set(grant.issue_id, [...(grantsByIssue.get(grant.issue_id) ?? []), grant]);
    for (const [issueId, issueGrants] of grantsByIssue) {
      const grant = strongestGrant(issueGrants)!;
      offer(grant.tenant_id, issueId, { reason: 'purchased', expiresAt: grant.expires_at });
    }

    // Plans that list issues: only issues that exist in the plan's tenant.
    const listed = plans.filter((plan) => !plan.covers_all).flatMap((plan) => plan.issue_ids.map((issueId) => ({ plan, issueId })));
    if (listed.length) {
      const offers = await this.store.offers.findManyInTenants(known, [...new Set(listed.map((entry) => entry.issueId))]);
      for (const found of offers) {
        if (listed.some((entry) => entry.issueId === found._id && entry.plan.tenant_id === found.tenant_id && planCovers(entry.plan, found._id))) {
          offer(found.tenant_id, found._id, { reason: 'subscription', expiresAt: null });
        }
      }
    }

    for (const free of freeIssues) offer(free.tenant_id, free.issue_id, { reason: 'free', expiresAt: null });

    for (const [issueId, entry] of byIssue) {
      const tenantWide = whole.get(entry.tenantId);
      if (tenantWide) byIssue.set(issueId, { ...entry, access: stronger(entry.access, tenantWide) });
    }

    const issues = [...byIssue.entries()]
      .filter(([, entry]) => entry.access.reason !== null)
      .map(([issueId, entry]) => ({ tenantId: entry.tenantId, issueId, reason: entry.access.reason!, expiresAt: entry.access.expiresAt }))
      .sort((a, b) => a.tenantId - b.tenantId || a.issueId - b.issueId);
    const wholeTenants = [...whole.entries()].map(([tenantId, access]) => ({ tenantId, reason: access.reason as 'free' | 'subscription' }));
    return { issues, wholeTenants };
  }
}

/** What an issue without an offer is to its grant holders: readable through the grant, never sold. */
function notSold(tenantId: number, issueId: number, now: Date): OfferRecord {
  return {
    _id: issueId,
    tenant_id: tenantId,
    type: '',
    name: '',
    free: false,
    sale: 'individual',
    licensing: 'standard',
    prices: [],
    on_sale: false,
    updated_at: now,
  };
}
