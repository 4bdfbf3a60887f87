// Domain results to their wire form.
import { commerce } from '@folio/proto';
import type { AccessReason, PriceView } from '../domain/access.js';
import type { IssueAccess } from '../domain/access-queries.js';
import { toIso, toSpecDateTime } from '../domain/time.js';

export function toReason(reason: AccessReason | null): commerce.AccessReason {
  switch (reason) {
    case 'free':
      return commerce.AccessReason.ACCESS_REASON_FREE;
    case 'purchased':
      return commerce.AccessReason.ACCESS_REASON_PURCHASED;
    case 'subscription':
      return commerce.AccessReason.ACCESS_REASON_SUBSCRIPTION;
    default:
      return commerce.AccessReason.ACCESS_REASON_UNSPECIFIED;
  }
}

export function toPrice(price: PriceView): commerce.Price {
  return {
    currency: price.currency,
    amount: price.amount,
    discount: price.discount
      ? {
          amount: price.discount.amount,
          percentage: price.discount.percentage ?? undefined,
          endsAt: price.discount.endsAt ? toIso(price.discount.endsAt) : undefined,
        }
      : undefined,
  };
}

export function toAccess(entry: IssueAccess): commerce.Access {
  return {
    issueId: entry.issueId,
    reason: toReason(entry.access.reason),
    expiresAt: entry.access.expiresAt ? toSpecDateTime(entry.access.expiresAt) : undefined,
    canBeBought: entry.canBeBought,
    free: entry.view.free,
    prices: entry.view.prices.map(toPrice),
    individuallyAcquirable: entry.view.individuallyAcquirable,
  };
}
