// Domain results to their wire form.
import { commerce } from '@folio/proto';
import type { AccessReason, PriceView } from '../domain/access.js';
import type { IssueAccess } from '../domain/access-queries.js';
import type { CheckoutLine, CheckoutPage } from '../domain/checkout.js';
import { saleModeOf, type PriceInput, type SaleMode } from '../domain/publishing.js';
import { isOnSale, type GrantRecord, type OfferRecord } from '../domain/repositories.js';
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

/** `form_expired` -> `CHECKOUT_NOTICE_FORM_EXPIRED`: the enums name the domain's keys one to one. */
function enumOf<E extends Record<string, string | number>>(values: E, prefix: string, key: string): E[keyof E] {
  const value = values[`${prefix}${key.toUpperCase()}` as keyof E];
  if (value === undefined) throw new Error(`no ${prefix}* value for ${key}`);
  return value;
}

const PAGE_KINDS: Record<CheckoutPage['kind'], commerce.CheckoutPageKind> = {
  checkout: commerce.CheckoutPageKind.CHECKOUT_PAGE_KIND_CHECKOUT,
  empty: commerce.CheckoutPageKind.CHECKOUT_PAGE_KIND_EMPTY,
  session_expired: commerce.CheckoutPageKind.CHECKOUT_PAGE_KIND_SESSION_EXPIRED,
};

const LINE_STATES: Record<CheckoutLine['state'], commerce.CheckoutLineState> = {
  buyable: commerce.CheckoutLineState.CHECKOUT_LINE_STATE_BUYABLE,
  owned: commerce.CheckoutLineState.CHECKOUT_LINE_STATE_OWNED,
  unavailable: commerce.CheckoutLineState.CHECKOUT_LINE_STATE_UNAVAILABLE,
};

/** What the checkout page shows, typed: the gateway renders it. */
export function toCheckoutPage(page: CheckoutPage): commerce.CheckoutPage {
  return {
    kind: PAGE_KINDS[page.kind],
    store: { name: page.store.name, lang: page.store.lang, countryCode: page.store.countryCode ?? undefined },
    lang: page.lang,
    lines: page.lines.map((line) => ({
      issueId: line.issueId,
      name: line.name,
      state: LINE_STATES[line.state],
      price: line.price
        ? {
            currency: line.price.currency,
            listAmount: line.price.listAmount,
            amount: line.price.amount,
            percentage: line.price.percentage ?? undefined,
            endsAt: line.price.endsAt ? toIso(line.price.endsAt) : undefined,
          }
        : undefined,
    })),
    total: page.total ?? undefined,
    checkoutId: page.checkoutId,
    csrfToken: page.csrfToken,
    payPath: page.payPath,
    openForm: page.openForm,
    notice: page.notice ? enumOf(commerce.CheckoutNotice, 'CHECKOUT_NOTICE_', page.notice) : commerce.CheckoutNotice.CHECKOUT_NOTICE_UNSPECIFIED,
    fieldErrors: Object.fromEntries(
      Object.entries(page.fieldErrors).map(([field, key]) => [field, enumOf(commerce.PaymentFieldError, 'PAYMENT_FIELD_ERROR_', key)]),
    ),
    values: page.values,
    fields: page.fields.map((field) => ({
      name: field.name,
      label: enumOf(commerce.PaymentFieldLabel, 'PAYMENT_FIELD_LABEL_', field.label),
      autocomplete: field.autocomplete,
      inputmode: field.inputmode ?? '',
      placeholder: field.placeholder,
      maxlength: field.maxlength,
    })),
    testMode: page.testMode,
    appLink: page.appLink ?? undefined,
    returnScheme: page.returnScheme ?? undefined,
  };
}

const SALE_MODES: Record<SaleMode, commerce.SaleMode> = {
  individual: commerce.SaleMode.SALE_MODE_INDIVIDUAL,
  subscription: commerce.SaleMode.SALE_MODE_SUBSCRIPTION,
  pay_per_use: commerce.SaleMode.SALE_MODE_PAY_PER_USE,
};

/** UNSPECIFIED (or a value this version does not know) is null: the use case names the field. */
export function fromSaleMode(mode: commerce.SaleMode): SaleMode | null {
  return (Object.keys(SALE_MODES) as SaleMode[]).find((name) => SALE_MODES[name] === mode) ?? null;
}

export function fromOfferPrice(price: commerce.OfferPrice): PriceInput {
  const discount = price.discount;
  return {
    currency: price.currency,
    amount: price.amount,
    discount: discount ? { amount: discount.amount, percentage: discount.percentage, endsAt: discount.endsAt } : null,
  };
}

export function toOffer(offer: OfferRecord): commerce.Offer {
  return {
    issueId: offer._id,
    tenantId: offer.tenant_id,
    free: offer.free,
    saleMode: SALE_MODES[saleModeOf(offer)],
    prices: offer.prices.map((price) => ({
      currency: price.currency,
      amount: price.amount,
      discount: price.discount
        ? {
            amount: price.discount.amount,
            percentage: price.discount.percentage ?? undefined,
            endsAt: price.discount.ends_at ? toIso(new Date(price.discount.ends_at)) : undefined,
          }
        : undefined,
    })),
    onSale: isOnSale(offer),
    updatedAt: toIso(new Date(offer.updated_at)),
  };
}

export function toGrant(grant: GrantRecord): commerce.CreateGrantResponse {
  return {
    grantId: grant._id,
    issueId: grant.issue_id,
    email: grant.email ?? '',
    expiresAt: grant.expires_at ? toIso(grant.expires_at) : undefined,
    createdAt: toIso(grant.created_at),
  };
}
