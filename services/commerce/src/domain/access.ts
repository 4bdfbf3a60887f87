// The access and offer rules, as pure functions of what is stored:
//
// Access of a user to an issue in a tenant:
//   purchased     a live grant (purchase, gift, admin, retail license, external permission)
//   subscription  an active plan of the user in the tenant covering every issue or listing this one
//   free          the issue is free, or the tenant has free access
//   none          otherwise; revoked, erased and expired grants count for nothing
// When several apply, the strongest wins: purchased > subscription > free.
// A purchase is the user's own and outlives a plan or a promotion; a plan is
// theirs too, while "free" is a property of the issue any reader shares.
// Between purchase grants, one without an end beats one with an end, and a
// later end beats an earlier one.
//
// Offer (the storefront fields):
//   free                     issue free or tenant free access
//   prices                   at most one: the tenant's main currency; none when free;
//                            discount only while its promotion runs (ends_at null or future)
//   individually_acquirable  on sale, and free or sold individually with a price
//   can_be_bought            on sale, sold individually with a price, not free, not
//                            pay-per-use (pay-per-use cannot go through the purchase
//                            redirect: the spec answers it 422), and not readable already
// An offer off sale (a draft or withdrawn issue) changes only what can be
// bought and listed: access above never looks at it.
import type { TenantInfo } from './ports.js';
import { isOnSale, type GrantRecord, type OfferRecord, type SubscriptionRecord } from './repositories.js';

export type AccessReason = 'free' | 'purchased' | 'subscription';

const STRENGTH: Record<AccessReason, number> = { free: 1, subscription: 2, purchased: 3 };

export interface AccessDecision {
  reason: AccessReason | null;
  /** End of a time-limited grant; null when the access does not end (or there is none). */
  expiresAt: Date | null;
}

export const NO_ACCESS: AccessDecision = { reason: null, expiresAt: null };

export interface PriceView {
  currency: string;
  amount: number;
  discount: { amount: number; percentage: number | null; endsAt: Date | null } | null;
}

export interface OfferView {
  free: boolean;
  prices: PriceView[];
  individuallyAcquirable: boolean;
  /** Why the purchase redirect refuses this offer (spec: 422), or null when it can be sold. */
  saleRefusal: SaleRefusal | null;
}

export type SaleRefusal = 'not_on_sale' | 'free' | 'pay_per_use' | 'no_price';

export function isFree(offer: OfferRecord, tenant: TenantInfo): boolean {
  return offer.free || tenant.freeAccess;
}

/** The price in the tenant's main currency, with its discount only while the promotion runs. */
export function priceIn(offer: OfferRecord, currency: string, now: Date): PriceView | null {
  const wanted = currency.toUpperCase();
  const price = offer.prices.find((candidate) => candidate.currency.toUpperCase() === wanted && candidate.amount > 0);
  if (!price) return null;
  const discount = price.discount;
  const running =
    discount && discount.amount >= 0 && discount.amount < price.amount && (!discount.ends_at || new Date(discount.ends_at).getTime() > now.getTime());
  return {
    currency: wanted,
    amount: price.amount,
    discount: running
      ? { amount: discount.amount, percentage: discount.percentage ?? null, endsAt: discount.ends_at ? new Date(discount.ends_at) : null }
      : null,
  };
}

/** What the user pays for a price now. */
export const payableAmount = (price: PriceView) => price.discount?.amount ?? price.amount;

export function offerView(offer: OfferRecord, tenant: TenantInfo, now: Date): OfferView {
  const free = isFree(offer, tenant);
  const price = free ? null : priceIn(offer, tenant.currency, now);
  const soldIndividually = offer.sale === 'individual' && price !== null;
  const onSale = isOnSale(offer);
  let saleRefusal: SaleRefusal | null = null;
  if (!onSale) saleRefusal = 'not_on_sale';
  else if (free) saleRefusal = 'free';
  else if (offer.licensing === 'pay_per_use') saleRefusal = 'pay_per_use';
  else if (!soldIndividually) saleRefusal = 'no_price';
  return {
    free,
    prices: price ? [price] : [],
    individuallyAcquirable: onSale && (free || soldIndividually),
    saleRefusal,
  };
}

export function planCovers(plan: SubscriptionRecord, issueId: number): boolean {
  return plan.covers_all || plan.issue_ids.includes(issueId);
}

/** The strongest of the user's live grants for one issue (see the header). */
export function strongestGrant(grants: GrantRecord[]): GrantRecord | null {
  let best: GrantRecord | null = null;
  for (const grant of grants) {
    if (!best) best = grant;
    else if (best.expires_at && (!grant.expires_at || grant.expires_at.getTime() > best.expires_at.getTime())) best = grant;
  }
  return best;
}

/**
 * The access decision for one issue. `grants` and `plans` are the user's live
 * ones in the issue's tenant (the caller filters revoked and expired ones).
 */
export function decideAccess(offer: OfferRecord, tenant: TenantInfo, grants: GrantRecord[], plans: SubscriptionRecord[]): AccessDecision {
  const grant = strongestGrant(grants.filter((candidate) => candidate.issue_id === offer._id));
  if (grant) return { reason: 'purchased', expiresAt: grant.expires_at };
  if (plans.some((plan) => plan.tenant_id === offer.tenant_id && planCovers(plan, offer._id))) return { reason: 'subscription', expiresAt: null };
  if (isFree(offer, tenant)) return { reason: 'free', expiresAt: null };
  return NO_ACCESS;
}

/** Can the user buy the issue now: sellable (no refusal) and not readable already. */
export function canBeBought(view: OfferView, access: AccessDecision): boolean {
  return view.saleRefusal === null && access.reason === null;
}

/** The stronger of two decisions (ties keep the first). */
export function stronger(a: AccessDecision, b: AccessDecision): AccessDecision {
  if (!b.reason) return a;
  if (!a.reason) return b;
  if (STRENGTH[b.reason] > STRENGTH[a.reason]) return b;
  if (STRENGTH[b.reason] === STRENGTH[a.reason] && a.expiresAt && (!b.expiresAt || b.expiresAt > a.expiresAt)) return b;
  return a;
}
