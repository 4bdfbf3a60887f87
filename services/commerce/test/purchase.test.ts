// The purchase redirect and the web checkout over gRPC, as the gateway calls
// them: StartPurchase, then GetCheckoutPage with the session cookie's value,
// then SubmitPayment with the posted form. Commerce answers what the page
// shows; the gateway's unit test (web/checkout-page.test.ts) and the e2e
// purchase test in Chromium cover the HTML.
import { commerce } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionId } from '../src/domain/repositories.js';
import { DECLINED_CARD, failureOf, formOf, GOOD_CARD, NONE, observeEvents, PURCHASED, startStack, TENANT, type TestStack } from './support.js';

describe('purchase redirect and web checkout', () => {
  let stack: TestStack;
  let events: Awaited<ReturnType<typeof observeEvents>>;
  let ana: number;
  let bruno: number;
  let carla: number;

  beforeAll(async () => {
    stack = await startStack({ DEFAULT_APP_SCHEME: 'folio://' });
    events = await observeEvents(stack.config.EVENTS_EXCHANGE, ['purchase.*', 'access.changed']);
    ana = stack.users['ana@example.com']!;
    bruno = stack.users['bruno@example.com']!;
    carla = stack.users['carla@example.com']!;
  });
  afterAll(async () => {
    await events?.close();
    await stack?.stop();
  });

  const sessionOf = (webSessionId: string) => stack.db.collection('web_sessions').findOne({ _id: hashSessionId(webSessionId) as never });
  const schemeOf = async (webSessionId: string) => (await sessionOf(webSessionId))?.return_scheme;
  const cartOf = async (webSessionId: string) => (await sessionOf(webSessionId))?.cart as { items: { issue_id: number }[]; checkout_id: string };
  const render = async (tenantId: number, webSessionId: string, automaticallyOpenCheckout = true) =>
    (await stack.commerce.getCheckoutPage({ tenantId, webSessionId, automaticallyOpenCheckout, lang: 'en' })).page!;
  const pay = (tenantId: number, webSessionId: string, form: Record<string, string>) =>
    stack.commerce.submitPayment({ tenantId, webSessionId, form, lang: 'en' });
  const { CheckoutPageKind: Kind, CheckoutNotice: Notice, CheckoutLineState: LineState, PaymentFieldError: FieldError } = commerce;
  const purchaseGrants = async (userId: number, issueId: number) =>
    stack.db.collection('grants').countDocuments({ user_id: userId, issue_id: issueId, source: 'purchase' });

  describe('StartPurchase statuses', () => {
    it('when the issue belongs to another tenant, then it is not found (404)', async () => {
      const failure = await failureOf(stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId: 2001 }));
      expect(failure.code).toBe('NOT_FOUND');
    });

    it('when the issue does not exist, then it is not found (404)', async () => {
      const failure = await failureOf(stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId: 987654 }));
      expect(failure.code).toBe('NOT_FOUND');
    });

    it.each([
      [1003, 'free'],
      [1008, 'pay-per-use'],
      [1007, 'no prices'],
      [1004, 'no prices'],
    ])('when issue %i is %s, then it is refused with 422', async (issueId, why) => {
      const failure = await failureOf(stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId }));
      expect(failure.code).toBe('FAILED_PRECONDITION');
      expect(failure.details.reason).toBe('NOT_FOR_SALE');
      expect(failure.message).toContain(why === 'no prices' ? 'no prices' : why === 'free' ? 'free' : 'pay-per-use');
    });

    it('when the tenant has free access, then nothing can be bought there (422)', async () => {
      const failure = await failureOf(stack.commerce.startPurchase({ tenantId: TENANT.aurora, userId: ana, issueId: 4001 }));
      expect(failure).toMatchObject({ code: 'FAILED_PRECONDITION', details: { reason: 'NOT_FOR_SALE' } });
    });

    it('when the issue can be bought, then a web session and the checkout location come back', async () => {
      const started = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId: 1002 });
      expect(started.checkoutUrl).toBe('/app/checkout?automatically_open_checkout=true');
      expect(started.webSessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(started.webSessionMaxAgeSeconds).toBe(3600);
      // Stored hashed: the cookie value itself is not in the database.
      expect(await stack.db.collection('web_sessions').countDocuments({ _id: started.webSessionId as never })).toBe(0);
      // The session holds the cart: the issue alone, under a checkout id of its own.
      const cart = await cartOf(started.webSessionId);
      expect(cart.items.map((item) => item.issue_id)).toEqual([1002]);
      expect(cart.checkout_id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('when the user has no account in the store yet, then one is created', async () => {
      const before = await stack.identity.getUser({ userId: carla });
      expect(before.user!.tenants.map((tenant) => tenant.id)).not.toContain(TENANT.sur);
      await stack.commerce.startPurchase({ tenantId: TENANT.sur, userId: carla, issueId: 2001 });
      const after = await stack.identity.getUser({ userId: carla });
      expect(after.user!.tenants.map((tenant) => tenant.id)).toContain(TENANT.sur);
    });

    it('when another issue goes through the redirect, then the new session holds only that one in its cart and the first keeps its own', async () => {
      const first = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: bruno, issueId: 1002 });
      const second = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: bruno, issueId: 1006 });
      expect((await cartOf(second.webSessionId)).items.map((item) => item.issue_id)).toEqual([1006]);
      expect((await render(TENANT.northwind, second.webSessionId)).lines.map((line) => line.issueId)).toEqual([1006]);
      // Each browser window pays for what it was opened for, under its own checkout id.
      expect((await render(TENANT.northwind, first.webSessionId)).lines.map((line) => line.issueId)).toEqual([1002]);
      expect((await cartOf(first.webSessionId)).checkout_id).not.toBe((await cartOf(second.webSessionId)).checkout_id);
    });
  });

  describe('return scheme resolution', () => {
    it.each([
      ['no app_tenant_id', TENANT.sur, 2001, undefined, 'folio://'],
      ['app_tenant_id = 1', TENANT.sur, 2001, 1, 'folio://'],
      ['app_tenant_id = the store (sur)', TENANT.sur, 2001, 2, 'editorialsur://'],
      ['app_tenant_id = the aggregator of the store (atlantica, aggregated by 2)', TENANT.atlantica, 3001, 2, 'editorialsur://'],
      ['app_tenant_id = the store (atlantica)', TENANT.atlantica, 3001, 3, 'atlantica://'],
      ['app_tenant_id = another tenant (4 on sur)', TENANT.sur, 2001, 4, 'folio://'],
      ['app_tenant_id = a tenant without app (northwind)', TENANT.northwind, 1002, 1, 'folio://'],
    ])('when %s, then the return scheme is the expected one', async (_case, tenantId, issueId, appTenantId, scheme) => {
      const started = await stack.commerce.startPurchase({ tenantId, userId: bruno, issueId, appTenantId });
      expect(await schemeOf(started.webSessionId)).toBe(scheme);
    });
  });

  describe('checkout page', () => {
    it('when the session is missing or unknown, then the page is the expired-session page without a form', async () => {
      for (const sessionId of ['', 'not-a-session']) {
        const page = await render(TENANT.northwind, sessionId);
        expect(page).toMatchObject({ kind: Kind.CHECKOUT_PAGE_KIND_SESSION_EXPIRED, lines: [], checkoutId: '', csrfToken: '' });
      }
    });

    it('when the session belongs to another store, then it is refused there (expired)', async () => {
      const started = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId: 1002 });
      const page = await render(TENANT.sur, started.webSessionId);
      expect(page.kind).toBe(Kind.CHECKOUT_PAGE_KIND_SESSION_EXPIRED);
    });

    it('when ana opens the checkout of 1002, then it names store, issue, the discounted and list prices, the total and the pay form', async () => {
      const started = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId: 1002 });
      const page = await render(TENANT.northwind, started.webSessionId);
      expect(page).toMatchObject({
        kind: Kind.CHECKOUT_PAGE_KIND_CHECKOUT,
        store: { name: 'Northwind Reader' },
        lang: 'en',
        total: { currency: 'USD', amount: 2.49 },
        payPath: '/app/checkout/pay',
        openForm: true,
        notice: Notice.CHECKOUT_NOTICE_UNSPECIFIED,
        testMode: true,
        returnScheme: 'folio://',
      });
      // catalog is down in this test: the name stored with the offer is shown.
      expect(page.lines).toEqual([
        {
          issueId: 1002,
          name: 'Harbor Monthly - March',
          state: LineState.CHECKOUT_LINE_STATE_BUYABLE,
          price: { currency: 'USD', listAmount: 4.99, amount: 2.49, percentage: 50, endsAt: expect.any(String) },
        },
      ]);
      expect(page.fields.map((field) => field.name)).toEqual(['cardholder_name', 'card_number', 'card_expiry', 'card_cvc']);
      expect(page.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(page.checkoutId).toBe((await cartOf(started.webSessionId)).checkout_id);
    });

    it('when a session was opened before carts moved into sessions, then its page is the empty cart, not a failure', async () => {
      const started = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId: 1002 });
      await stack.db.collection('web_sessions').updateOne({ _id: hashSessionId(started.webSessionId) as never }, { $unset: { cart: '' } });
      expect(await render(TENANT.northwind, started.webSessionId)).toMatchObject({ kind: Kind.CHECKOUT_PAGE_KIND_EMPTY, lines: [] });
      const { page } = await pay(TENANT.northwind, started.webSessionId, { ...formOf(await render(TENANT.northwind, started.webSessionId)), ...GOOD_CARD });
      expect(page!.notice).toBe(Notice.CHECKOUT_NOTICE_CART_CHANGED);
    });

    it('when the app did not ask to open the checkout, then the pay form starts closed', async () => {
      const started = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId: 1002 });
      expect((await render(TENANT.northwind, started.webSessionId, false)).openForm).toBe(false);
    });

    it('when the page is asked for in Spanish on sur, then it names the language, the store and its prices', async () => {
      const started = await stack.commerce.startPurchase({ tenantId: TENANT.sur, userId: bruno, issueId: 2002, appTenantId: 2 });
      const { page } = await stack.commerce.getCheckoutPage({
        tenantId: TENANT.sur,
        webSessionId: started.webSessionId,
        automaticallyOpenCheckout: true,
        lang: 'es',
      });
      expect(page).toMatchObject({ lang: 'es', store: { name: 'Editorial Sur', countryCode: 'AR' }, returnScheme: 'editorialsur://' });
      expect(page!.lines[0]).toMatchObject({ name: 'Revista Pampa N° 12', price: { currency: 'ARS', listAmount: 1200, amount: 900 } });
    });
  });

  describe('payment', () => {
    it('when ana pays 1002 with the test card, then the grant is recorded, access is purchased, the event is published and she returns to the app', async () => {
      const started = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId: 1002 });
      const form: Record<string, string> = { ...formOf(await render(TENANT.northwind, started.webSessionId)), ...GOOD_CARD };
      const before = await stack.commerce.getAccess({ tenantId: TENANT.northwind, userId: ana, issueId: 1002 });
      expect(before.access).toMatchObject({ reason: NONE, canBeBought: true });

      const paid = await pay(TENANT.northwind, started.webSessionId, form);

      expect(paid).toMatchObject({ redirectUrl: 'folio://purchase-complete?issue_id=1002&status=success' });
      expect(paid.page).toBeUndefined();
      const after = await stack.commerce.getAccess({ tenantId: TENANT.northwind, userId: ana, issueId: 1002 });
      expect(after.access).toMatchObject({ reason: PURCHASED, canBeBought: false });
      expect(await purchaseGrants(ana, 1002)).toBe(1);
      const order = await stack.store.orders.find(form.checkout_id!);
      expect(order).toMatchObject({ tenant_id: 1, user_id: ana, currency: 'USD', total_minor: 249, provider: 'local-test' });
      expect(order!.payment_id).toMatch(/^pay_test_/);
      const event = await events.waitFor<{ order_id: string }>('purchase.completed', (e) => e.payload.order_id === form.checkout_id);
      expect(event).toMatchObject({
        type: 'purchase.completed',
        version: 1,
        tenant_id: 1,
        payload: {
          order_id: form.checkout_id,
          tenant_id: 1,
          user_id: ana,
          issue_ids: [1002],
          items: [{ issue_id: 1002, currency: 'USD', amount: 2.49, list_amount: 4.99 }],
          total: { currency: 'USD', amount: 2.49 },
          payment: { provider: 'local-test', payment_id: order!.payment_id },
        },
      });
      // Readers that cache access decisions drop ana's (catalog's cache-invalidation.test.ts shows them doing it).
      const changed = await events.waitFor<{ user_id: number }>('access.changed', (e) => e.payload.user_id === ana);
      expect(changed).toMatchObject({ tenant_id: 1, payload: { tenant_id: 1, user_id: ana, issue_ids: [1002] } });
      // The cart is empty: the page says so.
      expect((await cartOf(started.webSessionId)).items).toEqual([]);
      expect((await render(TENANT.northwind, started.webSessionId)).kind).toBe(Kind.CHECKOUT_PAGE_KIND_EMPTY);

      // The same form posted again (double click, back and resubmit): same answer, nothing charged or granted twice.
      const again = await pay(TENANT.northwind, started.webSessionId, form);
      expect(again.redirectUrl).toBe(paid.redirectUrl);
      expect(await purchaseGrants(ana, 1002)).toBe(1);
      expect(await stack.db.collection('orders').countDocuments({ user_id: ana })).toBe(1);
      expect(await stack.db.collection('test_provider_payments').countDocuments({ _id: form.checkout_id as never })).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(events.received.filter((e) => (e.payload as { order_id: string }).order_id === form.checkout_id)).toHaveLength(1);
    });

    it('when the card is declined, then the page shows the error, nothing is granted, and another card can pay', async () => {
      const started = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId: 1006 });
      const form: Record<string, string> = { ...formOf(await render(TENANT.northwind, started.webSessionId)), ...DECLINED_CARD };

      const declined = await pay(TENANT.northwind, started.webSessionId, form);

      expect(declined.redirectUrl).toBe('');
      expect(declined.page).toMatchObject({ notice: Notice.CHECKOUT_NOTICE_CARD_DECLINED, openForm: true });
      // Only the name is shown again: card data is never sent back to the browser.
      expect(declined.page!.values).toEqual({ cardholder_name: 'Ana Test' });
      expect(await purchaseGrants(ana, 1006)).toBe(0);
      expect((await stack.commerce.getAccess({ tenantId: TENANT.northwind, userId: ana, issueId: 1006 })).access!.reason).toBe(NONE);

      const paid = await pay(TENANT.northwind, started.webSessionId, { ...formOf(declined.page), ...GOOD_CARD });
      expect(paid.redirectUrl).toBe('folio://purchase-complete?issue_id=1006&status=success');
      expect((await stack.commerce.getAccess({ tenantId: TENANT.northwind, userId: ana, issueId: 1006 })).access!.reason).toBe(PURCHASED);
    });

    it('when the card fields are invalid, then the page marks them and nothing is charged', async () => {
      const started = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: carla, issueId: 1001 });
      const form: Record<string, string> = {
        ...formOf(await render(TENANT.northwind, started.webSessionId)),
        ...GOOD_CARD,
        card_number: '1234',
        card_expiry: '01/20',
      };
      const { page } = await pay(TENANT.northwind, started.webSessionId, form);
      expect(page).toMatchObject({
        notice: Notice.CHECKOUT_NOTICE_FIX_FIELDS,
        fieldErrors: { card_number: FieldError.PAYMENT_FIELD_ERROR_CARD_NUMBER_INVALID, card_expiry: FieldError.PAYMENT_FIELD_ERROR_CARD_EXPIRED },
      });
      expect(await stack.db.collection('test_provider_payments').countDocuments({ _id: form.checkout_id as never })).toBe(0);
    });

    it('when the CSRF token is wrong, then the form is refused as expired and nothing is charged', async () => {
      const started = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: carla, issueId: 1001 });
      const form: Record<string, string> = { ...formOf(await render(TENANT.northwind, started.webSessionId)), ...GOOD_CARD, csrf_token: 'forged' };
      const { page } = await pay(TENANT.northwind, started.webSessionId, form);
      expect(page!.notice).toBe(Notice.CHECKOUT_NOTICE_FORM_EXPIRED);
      expect(await purchaseGrants(carla, 1001)).toBe(0);
    });

    it('when the form of an older checkout is posted, then the user is asked to review the new cart', async () => {
      const first = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: carla, issueId: 1001 });
      const form: Record<string, string> = { ...formOf(await render(TENANT.northwind, first.webSessionId)), ...GOOD_CARD };
      const second = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: carla, issueId: 1009 });
      const { page } = await pay(TENANT.northwind, second.webSessionId, {
        ...form,
        csrf_token: (await render(TENANT.northwind, second.webSessionId)).csrfToken,
      });
      expect(page!.notice).toBe(Notice.CHECKOUT_NOTICE_CART_CHANGED);
      expect(await purchaseGrants(carla, 1001)).toBe(0);
    });

    it('when the same checkout is submitted twice at once, then one payment and one grant result and both get the deeplink', async () => {
      const started = await stack.commerce.startPurchase({ tenantId: TENANT.sur, userId: bruno, issueId: 2004, appTenantId: 2 });
      const form: Record<string, string> = { ...formOf(await render(TENANT.sur, started.webSessionId)), ...GOOD_CARD };

      const results = await Promise.all([pay(TENANT.sur, started.webSessionId, form), pay(TENANT.sur, started.webSessionId, form)]);

      for (const result of results) expect(result.redirectUrl).toBe('editorialsur://purchase-complete?issue_id=2004&status=success');
      expect(await purchaseGrants(bruno, 2004)).toBe(1);
      expect(await stack.db.collection('test_provider_payments').countDocuments({ _id: form.checkout_id as never })).toBe(1);
      expect((await stack.commerce.getAccess({ tenantId: TENANT.sur, userId: bruno, issueId: 2004 })).access).toMatchObject({
        reason: PURCHASED,
        canBeBought: false,
      });
    });

    it('when everything in the cart is already readable, then the page offers to open the app and paying charges nothing', async () => {
      // ana reads all of Sur by subscription.
      const started = await stack.commerce.startPurchase({ tenantId: TENANT.sur, userId: ana, issueId: 2001, appTenantId: 2 });
      const page = await render(TENANT.sur, started.webSessionId);
      expect(page.lines).toMatchObject([{ issueId: 2001, state: LineState.CHECKOUT_LINE_STATE_OWNED }]);
      expect(page.appLink).toBe('editorialsur://purchase-complete?issue_id=2001&status=success');
      expect(page.total).toBeUndefined();
    });
  });
});
