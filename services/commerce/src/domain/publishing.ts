// The publisher's side of commerce: how an issue is sold (its offer, put on
// and off sale as the issue is published and withdrawn) and access a
// publisher assigns to an e-mail. Every change records access.changed for
// the tenant: catalog, reader and the gateway drop the offers and access
// decisions they cache, and other commerce replicas their cached offers.
//
// Field errors name the fields as the publisher API's body does
// (`prices.0.currency`), so the gateway passes them through unchanged.
import { randomUUID } from 'node:crypto';
import { invalidArgument, notFound } from '@folio/errors';
import { ACCESS_CHANGED, type AccessChangedPayload } from '@folio/messaging';
import { minorDigits } from './money.js';
import type { Clock, EventSink, Tenants } from './ports.js';
import type { CommerceRepositories, GrantRecord, Licensing, OfferRecord, PriceRecord, Sale } from './repositories.js';

/** How an issue is sold, in the publisher's words. */
export type SaleMode = 'individual' | 'subscription' | 'pay_per_use';

export interface DiscountInput {
  amount?: number;
  percentage?: number;
  /** ISO 8601 date-time. */
  endsAt?: string;
}

export interface PriceInput {
  currency: string;
  amount: number;
  discount?: DiscountInput | null;
}

export interface OfferInput {
  tenantId: number;
  issueId: number;
  type: string;
  name: string;
  free: boolean;
  /** null: the caller sent none (or one this version does not know). */
  saleMode: SaleMode | null;
  prices: PriceInput[];
  onSale: boolean;
}

export interface GrantInput {
  tenantId: number;
  issueId: number;
  email: string;
  /** ISO 8601 date-time; absent: no expiry. */
  expiresAt?: string;
}

const SALE: Record<SaleMode, { sale: Sale; licensing: Licensing }> = {
  individual: { sale: 'individual', licensing: 'standard' },
  subscription: { sale: 'subscription_only', licensing: 'standard' },
  pay_per_use: { sale: 'individual', licensing: 'pay_per_use' },
};

/** The sale mode an offer's record stands for (pay-per-use licensing wins over the sale). */
export function saleModeOf(offer: Pick<OfferRecord, 'sale' | 'licensing'>): SaleMode {
  if (offer.licensing === 'pay_per_use') return 'pay_per_use';
  return offer.sale === 'subscription_only' ? 'subscription' : 'individual';
}

/** Above this a price is a typo, not a book. */
const MAX_AMOUNT = 1_000_000;
const MAX_PRICES = 50;
const MAX_TEXT = 300;
const MAX_EMAIL = 254;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** Digits a price of the currency may have after the point: the currency's own, at most two. */
const priceDigits = (currency: string) => Math.min(2, minorDigits(currency));

function hasAtMostDigits(amount: number, digits: number): boolean {
  const scaled = amount * 10 ** digits;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

const roundTo = (amount: number, digits: number) => Math.round(amount * 10 ** digits) / 10 ** digits;

/** A future instant from an ISO 8601 date-time, or the reason it is not one. */
function futureInstant(value: string, now: Date): Date | string {
  const date = ISO_DATE_TIME.test(value) ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return 'Give an ISO 8601 date-time with its offset, such as 2031-01-01T00:00:00Z.';
  if (date.getTime() <= now.getTime()) return 'The date must be in the future.';
  return date;
}

class FieldErrors {
  readonly errors: Record<string, string[]> = {};
  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }
  get any(): boolean {
    return Object.keys(this.errors).length > 0;
  }
  throwIfAny(): void {
    if (this.any) throw invalidArgument('The given data was invalid.', this.errors);
  }
}

/**
 * The offer record a publisher's input makes, or INVALID_ARGUMENT with every
 * field that is wrong. A percentage discount gets its amount here, rounded to
 * the currency's smallest unit. `storeCurrency`: prices of a sold issue must
 * include it, since the store shows and charges only that one.
 */
export function offerFrom(input: OfferInput, storeCurrency: string, now: Date): OfferRecord {
  const errors = new FieldErrors();
  if (!input.type.trim()) errors.add('type', 'The type field is required.');
  if (!input.name.trim()) errors.add('name', 'The name field is required.');
  if (!input.saleMode) errors.add('sale_mode', 'Give the sale mode: individual, subscription or pay_per_use.');
  if (input.prices.length > MAX_PRICES) errors.add('prices', `Give at most ${MAX_PRICES} prices.`);

  const prices: PriceRecord[] = [];
  const seen = new Set<string>();
  input.prices.slice(0, MAX_PRICES).forEach((price, index) => {
    const field = `prices.${index}`;
    const currency = price.currency;
    let currencyOk = true;
    if (!/^[A-Z]{3}$/.test(currency) || !KNOWN_CURRENCIES.has(currency)) {
      errors.add(`${field}.currency`, 'The currency must be an ISO 4217 code in upper case, such as USD or EUR.');
      currencyOk = false;
    } else if (seen.has(currency)) {
      errors.add(`${field}.currency`, `There is already a price in ${currency}: give one price per currency.`);
    }
    seen.add(currency);
    const digits = currencyOk ? priceDigits(currency) : 2;
    const amount = price.amount;
    let amountOk = false;
    if (!Number.isFinite(amount) || amount <= 0) errors.add(`${field}.amount`, 'The amount must be greater than 0.');
    else if (amount > MAX_AMOUNT) errors.add(`${field}.amount`, `The amount must be at most ${MAX_AMOUNT}.`);
    else if (!hasAtMostDigits(amount, digits)) errors.add(`${field}.amount`, `The amount can have at most ${digits} decimals in ${currency}.`);
    else amountOk = true;

    let discount: PriceRecord['discount'] = null;
    if (price.discount) {
      const given = price.discount;
      const hasAmount = given.amount !== undefined;
      const hasPercentage = given.percentage !== undefined;
      let discounted: number | null = null;
      if (hasAmount === hasPercentage) {
        errors.add(`${field}.discount`, 'Give exactly one of amount (what the buyer pays) or percentage (off the price).');
      } else if (hasAmount) {
        const value = given.amount!;
        if (!Number.isFinite(value) || value <= 0) errors.add(`${field}.discount.amount`, 'The discounted amount must be greater than 0.');
        else if (!hasAtMostDigits(value, digits)) errors.add(`${field}.discount.amount`, `The discounted amount can have at most ${digits} decimals.`);
        else if (amountOk && value >= amount) errors.add(`${field}.discount.amount`, 'The discounted amount must be lower than the price.');
        else discounted = value;
      } else {
        const percentage = given.percentage!;
        if (!Number.isFinite(percentage) || percentage <= 0 || percentage >= 100) {
          errors.add(`${field}.discount.percentage`, 'The percentage must be greater than 0 and lower than 100.');
        } else if (amountOk) {
          const value = roundTo(amount * (1 - percentage / 100), digits);
          if (value <= 0 || value >= amount)
            errors.add(`${field}.discount.percentage`, `This percentage of ${amount} rounds to no discount or to nothing to pay.`);
          else discounted = value;
        }
      }
      let endsAt: Date | null = null;
      if (given.endsAt !== undefined) {
        const parsed = futureInstant(given.endsAt, now);
        if (typeof parsed === 'string') errors.add(`${field}.discount.ends_at`, parsed);
        else endsAt = parsed;
      }
      if (discounted !== null) discount = { amount: discounted, percentage: hasPercentage ? given.percentage! : null, ends_at: endsAt };
    }
    prices.push({ currency, amount, discount });
  });

  if (!input.free) {
    if (!input.prices.length) errors.add('prices', 'Give at least one price, or make the issue free.');
    else if (input.saleMode === 'individual' && !errors.any && !seen.has(storeCurrency.toUpperCase())) {
      errors.add('prices', `Give a price in ${storeCurrency.toUpperCase()}: the store sells in that currency only.`);
    }
  }
  errors.throwIfAny();

  return {
    _id: input.issueId,
    tenant_id: input.tenantId,
    type: input.type.trim().slice(0, MAX_TEXT),
    name: input.name.trim().slice(0, MAX_TEXT),
    free: input.free,
    ...SALE[input.saleMode!],
    prices,
    on_sale: input.onSale,
    updated_at: now,
  };
}

/** The grant a publisher's input makes (idempotent id per e-mail and issue), or INVALID_ARGUMENT. */
export function grantFrom(input: GrantInput, now: Date): GrantRecord {
  const errors = new FieldErrors();
  const email = input.email.trim().toLowerCase();
  if (!email) errors.add('email', 'The email field is required.');
  else if (email.length > MAX_EMAIL || !EMAIL.test(email)) errors.add('email', 'The email must be a valid email address.');
  if (!Number.isInteger(input.issueId) || input.issueId <= 0) errors.add('issue_id', 'The issue_id must be a positive integer.');
  let expiresAt: Date | null = null;
  if (input.expiresAt !== undefined) {
    const parsed = futureInstant(input.expiresAt, now);
    if (typeof parsed === 'string') errors.add('expires_at', parsed);
    else expiresAt = parsed;
  }
  errors.throwIfAny();
  return {
    _id: `admin:${email}:${input.issueId}`,
    tenant_id: input.tenantId,
    issue_id: input.issueId,
    user_id: null,
    // Keyed by e-mail: an account made later matches it as seeded grants do (Owners).
    email,
    source: 'admin',
    expires_at: expiresAt,
    revoked: false,
    order_id: null,
    created_at: now,
    erased_at: null,
  };
}

export class Publishing {
  constructor(private readonly deps: { store: CommerceRepositories; tenants: Tenants; events: EventSink; clock: Clock }) {}

  /** Creates or replaces the offer of an issue. */
  async putOffer(input: OfferInput): Promise<OfferRecord> {
    const { store, tenants, clock } = this.deps;
    const tenant = input.tenantId > 0 ? await tenants.find(input.tenantId) : null;
    if (!tenant) throw notFound('Tenant not found.');
    if (!Number.isInteger(input.issueId) || input.issueId <= 0)
      throw invalidArgument('The given data was invalid.', { issue_id: ['The issue_id must be a positive integer.'] });
    const offer = offerFrom(input, tenant.currency, clock.now());
    // Issue ids are global: another tenant's issue is as unknown here as a missing one.
    if (!(await store.offers.putInTenant(offer))) throw notFound('Issue not found.');
    await this.announce(tenant.id, offer._id);
    return offer;
  }

  async getOffer(tenantId: number, issueId: number): Promise<OfferRecord | null> {
    if (tenantId <= 0 || issueId <= 0) return null;
    return this.deps.store.offers.findInTenant(tenantId, issueId);
  }

  /**
   * Publish (true) or withdraw (false). Announced even when the issue has no
   * offer: the tenant's cached listings change with the issue's state.
   */
  async setOnSale(tenantId: number, issueId: number, onSale: boolean): Promise<boolean> {
    const found = tenantId > 0 && issueId > 0 ? await this.deps.store.offers.setOnSale(tenantId, issueId, onSale, this.deps.clock.now()) : false;
    if (tenantId > 0) await this.announce(tenantId, issueId);
    return found;
  }

  /** Gives an e-mail access to an issue; again for the same e-mail and issue, sets the new expiry. */
  async createGrant(input: GrantInput): Promise<GrantRecord> {
    if (input.tenantId <= 0) throw notFound('Tenant not found.');
    const grant = await this.deps.store.grants.assign(grantFrom(input, this.deps.clock.now()));
    // Every user of the tenant: the e-mail may belong to any account, or to one made later.
    await this.announce(input.tenantId, input.issueId);
    return grant;
  }

  private announce(tenantId: number, issueId: number): Promise<void> {
    return this.deps.events.publish<AccessChangedPayload>(ACCESS_CHANGED, { tenant_id: tenantId, issue_ids: [issueId] }, { id: randomUUID(), tenantId });
  }
}
