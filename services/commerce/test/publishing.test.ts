// The publisher's side of commerce over gRPC, as the gateway's publisher
// routes call it: an offer put with its rules, on and off sale with the
// issue's publication, and grants to an e-mail, with or without an account.
import { createPromiseClient } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { commerce } from '@folio/proto';
import { uniqueEmail, waitFor } from '@folio/testing';
import { startCommerce } from '../src/app.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf, NONE, observeEvents, PURCHASED, startStack, TENANT, type TestStack } from './support.js';

const { SALE_MODE_INDIVIDUAL: INDIVIDUAL, SALE_MODE_SUBSCRIPTION: SUBSCRIPTION_ONLY, SALE_MODE_PAY_PER_USE: PAY_PER_USE } = commerce.SaleMode;

/** Issue ids past the dataset's, as catalog assigns them to new issues. */
let nextIssue = 900_000;
const newIssue = () => ++nextIssue;

const inAYear = () => new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();

describe('publishing: offers and grants', () => {
  let stack: TestStack;
  let events: Awaited<ReturnType<typeof observeEvents>>;
  let ana: number;

  beforeAll(async () => {
    stack = await startStack();
    events = await observeEvents(stack.config.EVENTS_EXCHANGE, ['access.changed']);
    ana = stack.users['ana@example.com']!;
  });
  afterAll(async () => {
    await events?.close();
    await stack?.stop();
  });

  const put = (issueId: number, fields: Partial<commerce.PutOfferRequest> = {}) =>
    stack.commerce.putOffer({
      tenantId: TENANT.northwind,
      issueId,
      type: 'epub',
      name: `Issue ${issueId}`,
      free: false,
      saleMode: INDIVIDUAL,
      prices: [{ currency: 'USD', amount: 9.99, discount: undefined }],
      onSale: true,
      ...fields,
    });
  const accessOf = async (userId: number, issueId: number) =>
    (await stack.commerce.batchGetAccess({ tenantId: TENANT.northwind, userId, issueIds: [issueId] })).accesses[0];
  const announced = (issueId: number) =>
    events.waitFor<{ tenant_id: number; user_id?: number; issue_ids?: number[] }>(
      'access.changed',
      (event) => event.payload.tenant_id === TENANT.northwind && event.payload.user_id === undefined && !!event.payload.issue_ids?.includes(issueId),
    );

  /** Makes an account the way a first login does, and returns its id. */
  async function createAccount(email: string): Promise<number> {
    await stack.identity.startEmailLogin({ email, lang: 'en', appTenantId: 1, clientIp: '203.0.113.7' });
    for (let id = 1; id < 200; id++) {
      const found = await stack.identity.getUser({ userId: id }).catch(() => null);
      if (found?.user?.email === email) return found.user.id;
    }
    throw new Error(`identity made no account for ${email}`);
  }

  describe('PutOffer rules', () => {
    it('when every field is wrong, then INVALID_ARGUMENT names each one as the HTTP body does', async () => {
      const failure = await failureOf(
        put(newIssue(), {
          prices: [
            { currency: 'usd', amount: 5, discount: undefined },
            { currency: 'EUR', amount: 0, discount: undefined },
            { currency: 'EUR', amount: 1.999, discount: undefined },
            { currency: 'GBP', amount: 5, discount: { amount: 4, percentage: 10 } },
            { currency: 'JPY', amount: 500, discount: { percentage: 120 } },
            { currency: 'CHF', amount: 5, discount: { amount: 6, endsAt: '2020-01-01T00:00:00Z' } },
            { currency: 'XYZ', amount: 5, discount: { percentage: 10, endsAt: 'next week' } },
          ],
        }),
      );
      expect(failure.code).toBe('INVALID_ARGUMENT');
      expect(Object.keys(failure.details.fieldErrors).sort()).toEqual(
        [
          'prices.0.currency',
          'prices.1.amount',
          'prices.2.currency',
          'prices.2.amount',
          'prices.3.discount',
          'prices.4.discount.percentage',
          'prices.5.discount.amount',
          'prices.5.discount.ends_at',
          'prices.6.currency',
          'prices.6.discount.ends_at',
        ].sort(),
      );
      expect(failure.details.fieldErrors['prices.2.currency'][0]).toContain('one price per currency');
    });

    it('when a sold issue has no price, no sale mode, or none in the store currency, then those fields are named', async () => {
      const none = await failureOf(put(newIssue(), { prices: [], saleMode: commerce.SaleMode.SALE_MODE_UNSPECIFIED }));
      expect(Object.keys(none.details.fieldErrors).sort()).toEqual(['prices', 'sale_mode']);
      const foreign = await failureOf(put(newIssue(), { prices: [{ currency: 'EUR', amount: 5, discount: undefined }] }));
      expect(foreign.details.fieldErrors.prices[0]).toContain('USD');
    });

    it('when the issue id is another tenant’s, then it is not found and that offer stays', async () => {
      const failure = await failureOf(put(2001));
      expect(failure.code).toBe('NOT_FOUND');
      expect((await stack.commerce.getOffer({ tenantId: TENANT.sur, issueId: 2001 })).offer?.tenantId).toBe(TENANT.sur);
    });

    it('when a free issue has no prices, then it is stored free and reads as free', async () => {
      const issueId = newIssue();
      const { offer } = await put(issueId, { free: true, prices: [] });
      expect(offer).toMatchObject({ issueId, free: true, prices: [], onSale: true });
      expect(await accessOf(ana, issueId)).toMatchObject({ free: true, canBeBought: false, individuallyAcquirable: true });
    });
  });

  describe('an offer with a percentage discount', () => {
    it('when 20 % off 9.99 is put, then commerce computes 7.99, the storefront fields show it, and access.changed is announced', async () => {
      const issueId = newIssue();
      const { offer } = await put(issueId, { prices: [{ currency: 'USD', amount: 9.99, discount: { percentage: 20 } }] });
      expect(offer!.prices).toEqual([{ currency: 'USD', amount: 9.99, discount: { amount: 7.99, percentage: 20, endsAt: undefined } }]);
      await announced(issueId);
      expect(await accessOf(ana, issueId)).toMatchObject({
        reason: NONE,
        canBeBought: true,
        individuallyAcquirable: true,
        prices: [{ currency: 'USD', amount: 9.99, discount: { amount: 7.99, percentage: 20 } }],
      });
      expect((await stack.commerce.getOffer({ tenantId: TENANT.northwind, issueId })).offer).toEqual(offer);
    });

    it('when an offer is put again, then it replaces the first one, sale mode included', async () => {
      const issueId = newIssue();
      await put(issueId);
      const { offer } = await put(issueId, { saleMode: PAY_PER_USE, prices: [{ currency: 'USD', amount: 3, discount: { amount: 2, endsAt: inAYear() } }] });
      expect(offer).toMatchObject({
        saleMode: PAY_PER_USE,
        prices: [{ amount: 3, discount: { amount: 2, percentage: undefined, endsAt: expect.any(String) } }],
      });
      expect((await put(issueId, { saleMode: SUBSCRIPTION_ONLY })).offer?.saleMode).toBe(SUBSCRIPTION_ONLY);
      expect(await accessOf(ana, issueId)).toMatchObject({ canBeBought: false, individuallyAcquirable: false });
    });
  });

  describe('on sale', () => {
    it('when a priced draft is off sale, then it cannot be bought nor listed; published it can; withdrawn it is refused as not for sale (422)', async () => {
      const issueId = newIssue();
      await put(issueId, { onSale: false });
      expect(await accessOf(ana, issueId)).toMatchObject({ canBeBought: false, individuallyAcquirable: false });
      const draft = await failureOf(stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId }));
      expect(draft).toMatchObject({ code: 'FAILED_PRECONDITION', details: { reason: 'NOT_FOR_SALE' } });
      expect(draft.message).toContain('not for sale');

      expect(await stack.commerce.setOfferOnSale({ tenantId: TENANT.northwind, issueId, onSale: true })).toEqual({ found: true });
      expect(await accessOf(ana, issueId)).toMatchObject({ canBeBought: true, individuallyAcquirable: true });
      const started = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId });
      expect(started.webSessionId).not.toBe('');

      await stack.commerce.setOfferOnSale({ tenantId: TENANT.northwind, issueId, onSale: false });
      expect((await stack.commerce.getOffer({ tenantId: TENANT.northwind, issueId })).offer?.onSale).toBe(false);
      const withdrawn = await failureOf(stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId }));
      expect(withdrawn).toMatchObject({ code: 'FAILED_PRECONDITION', details: { reason: 'NOT_FOR_SALE' } });
      // A cart opened while it was on sale cannot be paid any more.
      const page = (
        await stack.commerce.getCheckoutPage({ tenantId: TENANT.northwind, webSessionId: started.webSessionId, automaticallyOpenCheckout: true, lang: 'en' })
      ).page!;
      expect(page.lines.map((line) => line.state)).toEqual([commerce.CheckoutLineState.CHECKOUT_LINE_STATE_UNAVAILABLE]);
      expect(page.total).toBeUndefined();
    });

    it('when an issue off sale was granted, then the grant still gives access', async () => {
      const issueId = newIssue();
      await put(issueId, { onSale: false });
      await stack.commerce.createGrant({ tenantId: TENANT.northwind, issueId, email: 'ana@example.com' });
      expect((await stack.commerce.getAccess({ tenantId: TENANT.northwind, userId: ana, issueId })).access).toMatchObject({
        reason: PURCHASED,
        canBeBought: false,
      });
    });

    it('when the issue has no offer, then nothing is found, and the tenant is still told to drop its listings', async () => {
      const issueId = newIssue();
      expect(await stack.commerce.setOfferOnSale({ tenantId: TENANT.northwind, issueId, onSale: true })).toEqual({ found: false });
      await announced(issueId);
    });

    it('when another replica withdraws an issue this one has cached, then this one refuses it too, well before the cache TTL', async () => {
      const issueId = newIssue();
      await put(issueId);
      const other = await startCommerce(stack.config, createLogger({ service: 'commerce-b', level: 'silent' }));
      const client = createPromiseClient(commerce.CommerceServiceClient, `127.0.0.1:${other.grpcPort}`, { defaultDeadlineMs: 10_000 });
      try {
        const start = () => client.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId });
        // Read there once its broadcast subscription is up (which drops everything when it attaches):
        // the offer is then in that replica's memory for OFFER_CACHE_SECONDS (60).
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect((await start()).webSessionId).not.toBe('');
        await stack.commerce.setOfferOnSale({ tenantId: TENANT.northwind, issueId, onSale: false });
        await waitFor(async () => (await failureOf(start()).catch(() => null))?.code === 'FAILED_PRECONDITION' || undefined, {
          timeoutMs: 10_000,
          what: 'the other replica to refuse the withdrawn issue',
        });
      } finally {
        client.close();
        await other.stop();
      }
    });

    it('when a seeded offer has no on_sale, then it reads as on sale', async () => {
      expect((await stack.commerce.getOffer({ tenantId: TENANT.northwind, issueId: 1002 })).offer).toMatchObject({ onSale: true, saleMode: INDIVIDUAL });
      expect((await stack.commerce.getOffer({ tenantId: TENANT.northwind, issueId: 1008 })).offer?.saleMode).toBe(PAY_PER_USE);
      expect((await stack.commerce.getOffer({ tenantId: TENANT.northwind, issueId: 987_654 })).offer).toBeUndefined();
    });
  });

  describe('CreateGrant', () => {
    it('when an e-mail with no account yet is granted an issue, then the account made later reads it (purchased), until the expiry', async () => {
      const issueId = newIssue();
      await put(issueId);
      const email = uniqueEmail('granted-later');
      const expiresAt = inAYear();
      const grant = await stack.commerce.createGrant({ tenantId: TENANT.northwind, issueId, email: `  ${email.toUpperCase()} `, expiresAt });
      expect(grant).toMatchObject({ issueId, email, grantId: `admin:${email}:${issueId}`, createdAt: expect.any(String) });
      // To the second, as every instant commerce answers.
      expect(grant.expiresAt).toBe(expiresAt.replace(/\.\d{3}Z$/, 'Z'));
      await announced(issueId);

      const userId = await createAccount(email);
      const { access } = await stack.commerce.getAccess({ tenantId: TENANT.northwind, userId, issueId });
      expect(access).toMatchObject({ reason: PURCHASED, canBeBought: false, expiresAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) });
      const { issues } = await stack.commerce.listAccessibleIssues({ tenantIds: [TENANT.northwind], userId });
      expect(issues.map((issue) => issue.issueId)).toContain(issueId);
    });

    it('when the same e-mail and issue are granted again, then it is the same grant with the new expiry', async () => {
      const issueId = newIssue();
      const email = uniqueEmail('granted-twice');
      const first = await stack.commerce.createGrant({ tenantId: TENANT.northwind, issueId, email, expiresAt: inAYear() });
      const again = await stack.commerce.createGrant({ tenantId: TENANT.northwind, issueId, email });
      expect(again).toMatchObject({ grantId: first.grantId, createdAt: first.createdAt, expiresAt: undefined });
      expect(await stack.db.collection('grants').countDocuments({ email, issue_id: issueId })).toBe(1);
    });

    it('when the issue has no offer, then the grant still opens it to its holder, who cannot buy it', async () => {
      const issueId = newIssue();
      await stack.commerce.createGrant({ tenantId: TENANT.northwind, issueId, email: 'ana@example.com' });
      expect((await stack.commerce.getAccess({ tenantId: TENANT.northwind, userId: ana, issueId })).access).toMatchObject({
        reason: PURCHASED,
        canBeBought: false,
        individuallyAcquirable: false,
      });
      // Everyone else: commerce does not know the issue.
      expect(await accessOf(stack.users['bruno@example.com']!, issueId)).toBeUndefined();
    });

    it('when the e-mail or the expiry is wrong, then INVALID_ARGUMENT names them', async () => {
      const failure = await failureOf(
        stack.commerce.createGrant({ tenantId: TENANT.northwind, issueId: newIssue(), email: 'not-an-email', expiresAt: '2001-01-01T00:00:00Z' }),
      );
      expect(failure.code).toBe('INVALID_ARGUMENT');
      expect(Object.keys(failure.details.fieldErrors).sort()).toEqual(['email', 'expires_at']);
    });
  });
});
