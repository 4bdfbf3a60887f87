// Storefront mode (scope=all): owned and unowned issues, only the ones that
// are individually acquirable (free or with an individual price), each with
// the commerce fields. Commerce decides all of it; catalog asks once per
// request for every candidate of the listing and answers its facts.
// `filesOnly` (OPDS feeds) keeps, of those, the issues an e-reader can
// acquire now: a file it can open (epub, pdf, audio) that the user can read
// or buy. Filtering here, before paging, keeps counts equal to what pages list.
import type { IssueRecord } from './catalog-view.js';
import type { AccessPort, Offer, TenantSettingsPort } from './ports.js';
import { fillTemplate, type CommerceView, type ListedIssue } from './listing.js';

export type Scope = 'owned' | 'all';

/** Content types an e-reader acquires as a file. */
const FILE_TYPES = new Set(['epub', 'pdf', 'audio']);

export class Storefront {
  constructor(
    private readonly access: AccessPort,
    private readonly tenants: TenantSettingsPort,
    private readonly storeUrlTemplate: string,
  ) {}

  /**
   * Keeps the individually acquirable issues of each ordered list (order
   * kept), with their commerce fields; one commerce call for all the lists.
   */
  async acquirable(
    tenantId: number,
    userId: number,
    lists: readonly (readonly IssueRecord[])[],
    { filesOnly = false }: { filesOnly?: boolean } = {},
  ): Promise<ListedIssue[][]> {
    const ids = [...new Set(lists.flatMap((list) => list.map((issue) => issue.id)))];
    if (ids.length === 0) return lists.map(() => []);
    const [offers, tenant] = await Promise.all([this.access.offers(tenantId, userId, ids), this.tenants.get(tenantId)]);
    const storeUrl = fillTemplate(this.storeUrlTemplate, { domain: tenant.domain, tenant_id: tenantId }).replace(/\/+$/, '');
    return lists.map((list) =>
      list.flatMap((issue) => {
        const offer = offers.get(issue.id);
        if (!offer?.individuallyAcquirable) return [];
        if (filesOnly && !(FILE_TYPES.has(issue.type) && (offer.reason !== null || offer.canBeBought))) return [];
        return [{ issue, commerce: commerceView(issue, offer, storeUrl) }];
      }),
    );
  }
}

function commerceView(issue: IssueRecord, offer: Offer, storeUrl: string): CommerceView {
  return {
    canBeRead: offer.reason !== null,
    canBeBought: offer.canBeBought,
    accessReason: offer.reason,
    free: offer.free,
    prices: offer.prices,
    // The purchase redirect refuses what cannot be bought (free, owned, pay-per-use, no price): no link then.
    purchaseLink: offer.canBeBought ? `${storeUrl}/app/purchase/${issue.id}` : null,
  };
}
