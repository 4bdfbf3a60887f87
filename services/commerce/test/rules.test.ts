// The access, offer and scheme rules as pure functions, at the edges the demo dataset does not reach.
import { describe, expect, it } from 'vitest';
import { decideAccess, offerView, stronger } from '../src/domain/access.js';
import { expiryEnd, luhnValid } from '../src/domain/payments.js';
import type { TenantInfo } from '../src/domain/ports.js';
import { offerFrom, saleModeOf, type OfferInput } from '../src/domain/publishing.js';
import { resolveReturnScheme } from '../src/domain/purchase.js';
import type { GrantRecord, OfferRecord, SubscriptionRecord } from '../src/domain/repositories.js';

const now = new Date('2026-05-01T12:00:00Z');
const tenant: TenantInfo = { id: 1, name: 'T', currency: 'USD', freeAccess: false, aggregatorId: null, mobileAppScheme: null, lang: 'en', countryCode: 'US' };
const offer = (fields: Partial<OfferRecord> = {}): OfferRecord => ({
  _id: 10,
  tenant_id: 1,
  type: 'epub',
  name: 'X',
  free: false,
  sale: 'individual',
  licensing: 'standard',
  prices: [{ currency: 'USD', amount: 10, discount: null }],
  updated_at: now,
  ...fields,
});
const grant = (fields: Partial<GrantRecord> = {}): GrantRecord => ({
  _id: 'g',
  tenant_id: 1,
  issue_id: 10,
  user_id: 1,
  email: null,
  source: 'purchase',
  expires_at: null,
  revoked: false,
  order_id: null,
  created_at: now,
  ...fields,
});
const plan = (fields: Partial<SubscriptionRecord> = {}): SubscriptionRecord => ({
  _id: 'p',
  tenant_id: 1,
  user_id: 1,
  email: null,
  plan: 'P',
  covers_all: true,
  issue_ids: [],
  active: true,
  ends_at: null,
  created_at: now,
  ...fields,
});

describe('offer rules', () => {
  it('when a promotion has ended, then the price has no discount', () => {
    const view = offerView(
      offer({ prices: [{ currency: 'USD', amount: 10, discount: { amount: 5, percentage: 50, ends_at: new Date('2026-04-30T00:00:00Z') } }] }),
      tenant,
      now,
    );
    expect(view.prices).toEqual([{ currency: 'USD', amount: 10, discount: null }]);
  });

  it('when prices exist only in other currencies, then there is no price and nothing to buy', () => {
    const view = offerView(offer({ prices: [{ currency: 'EUR', amount: 8, discount: null }] }), tenant, now);
    expect(view).toMatchObject({ prices: [], individuallyAcquirable: false, saleRefusal: 'no_price' });
  });

  it('when several prices share the main currency, then only one is shown', () => {
    const view = offerView(
      offer({
        prices: [
          { currency: 'usd', amount: 10, discount: null },
          { currency: 'USD', amount: 12, discount: null },
        ],
      }),
      tenant,
      now,
    );
    expect(view.prices).toEqual([{ currency: 'USD', amount: 10, discount: null }]);
  });

  it('when a free issue also has prices, then it shows none', () => {
    expect(offerView(offer({ free: true }), tenant, now)).toMatchObject({ free: true, prices: [], saleRefusal: 'free' });
  });

  it('when an offer is off sale, then it is neither sold nor listed, free or not, while access is decided as before', () => {
    expect(offerView(offer({ on_sale: false }), tenant, now)).toMatchObject({ individuallyAcquirable: false, saleRefusal: 'not_on_sale' });
    expect(offerView(offer({ on_sale: false, free: true }), tenant, now)).toMatchObject({ individuallyAcquirable: false, saleRefusal: 'not_on_sale' });
    expect(decideAccess(offer({ on_sale: false }), tenant, [grant()], [])).toEqual({ reason: 'purchased', expiresAt: null });
    expect(decideAccess(offer({ on_sale: false, free: true }), tenant, [], [])).toEqual({ reason: 'free', expiresAt: null });
    expect(offerView(offer({ on_sale: true }), tenant, now).saleRefusal).toBeNull();
  });
});

describe('offer input', () => {
  const input = (fields: Partial<OfferInput> = {}): OfferInput => ({
    tenantId: 1,
    issueId: 10,
    type: 'epub',
    name: 'X',
    free: false,
    saleMode: 'individual',
    prices: [{ currency: 'USD', amount: 10 }],
    onSale: false,
    ...fields,
  });
  const discounted = (amount: number, percentage: number, currency = 'USD') =>
    offerFrom(input({ prices: [{ currency, amount, discount: { percentage } }] }), currency, now).prices[0]!.discount;

  it('when a percentage is given, then the amount is rounded to the currency’s smallest unit', () => {
    expect(discounted(9.99, 20)).toEqual({ amount: 7.99, percentage: 20, ends_at: null });
    expect(discounted(4.99, 50)).toEqual({ amount: 2.5, percentage: 50, ends_at: null });
    expect(discounted(1000, 33, 'JPY')).toEqual({ amount: 670, percentage: 33, ends_at: null });
  });

  it('when the sale modes are mapped, then each is the sale and licensing the storefront rules know, and back', () => {
    for (const mode of ['individual', 'subscription', 'pay_per_use'] as const) expect(saleModeOf(offerFrom(input({ saleMode: mode }), 'USD', now))).toBe(mode);
    expect(offerFrom(input({ saleMode: 'subscription' }), 'USD', now)).toMatchObject({ sale: 'subscription_only', licensing: 'standard' });
    expect(offerFrom(input({ saleMode: 'pay_per_use' }), 'USD', now)).toMatchObject({ sale: 'individual', licensing: 'pay_per_use' });
  });

  it('when a JPY price has decimals, or a percentage leaves nothing off, then the field is named', () => {
    const fields = (prices: OfferInput['prices'], currency = 'USD') => {
      try {
        offerFrom(input({ prices }), currency, now);
        return [];
      } catch (error) {
        return Object.keys((error as { details: { fieldErrors: Record<string, string[]> } }).details.fieldErrors);
      }
    };
    expect(fields([{ currency: 'JPY', amount: 100.5 }], 'JPY')).toEqual(['prices.0.amount']);
    expect(fields([{ currency: 'USD', amount: 0.01, discount: { percentage: 10 } }])).toEqual(['prices.0.discount.percentage']);
    expect(fields([{ currency: 'USD', amount: 5, discount: {} }])).toEqual(['prices.0.discount']);
  });
});

describe('access precedence', () => {
  it('when a purchase, a plan and free access all apply, then purchased wins', () => {
    expect(decideAccess(offer({ free: true }), tenant, [grant()], [plan()])).toEqual({ reason: 'purchased', expiresAt: null });
  });

  it('when a plan and free access apply, then subscription wins', () => {
    expect(decideAccess(offer(), { ...tenant, freeAccess: true }, [], [plan()])).toEqual({ reason: 'subscription', expiresAt: null });
  });

  it('when two grants apply, then the one without end wins over a time-limited one', () => {
    const limited = grant({ _id: 'a', expires_at: new Date('2030-01-01T00:00:00Z') });
    expect(decideAccess(offer(), tenant, [limited, grant({ _id: 'b' })], [])).toEqual({ reason: 'purchased', expiresAt: null });
  });

  it('when a plan lists other issues only, then it does not cover this one', () => {
    expect(decideAccess(offer(), tenant, [], [plan({ covers_all: false, issue_ids: [11] })]).reason).toBeNull();
  });

  it('when comparing decisions, then the stronger reason is kept', () => {
    expect(stronger({ reason: 'free', expiresAt: null }, { reason: 'subscription', expiresAt: null }).reason).toBe('subscription');
    expect(stronger({ reason: 'purchased', expiresAt: null }, { reason: 'subscription', expiresAt: null }).reason).toBe('purchased');
  });
});

describe('return scheme resolution', () => {
  const tenants = new Map<number, TenantInfo>([
    [2, { ...tenant, id: 2, mobileAppScheme: 'editorialsur://' }],
    [3, { ...tenant, id: 3, aggregatorId: 2, mobileAppScheme: 'atlantica://' }],
    [7, { ...tenant, id: 7, aggregatorId: 2, mobileAppScheme: null }],
  ]);
  const directory = { find: async (id: number) => tenants.get(id) ?? null };
  const resolve = (current: number, app: number | undefined) => resolveReturnScheme(tenants.get(current)!, app, directory, 'folio://');

  it('when the rules apply in turn, then each gives its scheme', async () => {
    expect(await resolve(2, undefined)).toBe('folio://');
    expect(await resolve(2, 1)).toBe('folio://');
    expect(await resolve(2, 2)).toBe('editorialsur://');
    expect(await resolve(3, 2)).toBe('editorialsur://');
    expect(await resolve(3, 3)).toBe('atlantica://');
    expect(await resolve(2, 4)).toBe('folio://');
  });

  it('when the app tenant has no scheme, then the default is used', async () => {
    expect(await resolve(7, 7)).toBe('folio://');
  });
});

describe('payment input', () => {
  it('when card numbers are checked, then the Luhn checksum decides', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4000000000000002')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
  });

  it('when an expiry is read, then MM/YY and MM/YYYY end after their month', () => {
    expect(expiryEnd('12/34')).toEqual(new Date(Date.UTC(2035, 0, 1)));
    expect(expiryEnd('1/2030')).toEqual(new Date(Date.UTC(2030, 1, 1)));
    expect(expiryEnd('13/30')).toBeNull();
  });
});
