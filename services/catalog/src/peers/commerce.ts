// Access decisions and storefront offers from commerce. Catalog makes at most
// one call per request: BatchGetAccess for the candidates of a storefront
// listing, ListAccessibleIssues for owned listings and my-content. Commerce
// being down fails the request (503): without it nobody can say what a user
// may read.
import type { PromiseClient } from '@folio/grpc';
import { commerce } from '@folio/proto';
import type { AccessibleContent, AccessPort, AccessReason, Offer, PriceView } from '../domain/ports.js';

function reasonOf(reason: commerce.AccessReason): AccessReason | null {
  switch (reason) {
    case commerce.AccessReason.ACCESS_REASON_FREE:
      return 'free';
    case commerce.AccessReason.ACCESS_REASON_PURCHASED:
      return 'purchased';
    case commerce.AccessReason.ACCESS_REASON_SUBSCRIPTION:
      return 'subscription';
    default:
      return null;
  }
}

function priceOf(price: commerce.Price): PriceView {
  const view: PriceView = { currency: price.currency, amount: price.amount };
  if (price.discount) {
    view.discount = {
      amount: price.discount.amount,
      percentage: price.discount.percentage ?? null,
      endsAt: price.discount.endsAt ?? null,
    };
  }
  return view;
}

export class CommerceAccess implements AccessPort {
  constructor(
    private readonly client: PromiseClient<commerce.CommerceServiceClient>,
    private readonly deadlineMs: number,
  ) {}

  async offers(tenantId: number, userId: number, issueIds: readonly number[]): Promise<Map<number, Offer>> {
    const offers = new Map<number, Offer>();
    if (issueIds.length === 0) return offers;
    const { accesses } = await this.client.batchGetAccess({ tenantId, userId, issueIds: [...issueIds] }, { deadlineMs: this.deadlineMs });
    for (const access of accesses) {
      offers.set(access.issueId, {
        issueId: access.issueId,
        reason: reasonOf(access.reason),
        canBeBought: access.canBeBought,
        free: access.free,
        prices: access.prices.map(priceOf),
        individuallyAcquirable: access.individuallyAcquirable,
      });
    }
    return offers;
  }

  async accessible(tenantIds: readonly number[], userId: number): Promise<AccessibleContent> {
    const response = await this.client.listAccessibleIssues({ tenantIds: [...tenantIds], userId }, { deadlineMs: this.deadlineMs });
    const wholeTenants = new Map<number, AccessReason>();
    for (const whole of response.wholeTenants) {
      const reason = reasonOf(whole.reason);
      if (reason) wholeTenants.set(whole.tenantId, reason);
    }
    const issues = new Map<number, { tenantId: number; reason: AccessReason }>();
    for (const issue of response.issues) {
      const reason = reasonOf(issue.reason);
      if (reason) issues.set(issue.issueId, { tenantId: issue.tenantId, reason });
    }
    return { wholeTenants, issues };
  }
}
