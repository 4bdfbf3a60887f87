// account.deleted from identity: commerce erases the user's web
// sessions, plans and grants, and keeps paid orders anonymized; what an
// earlier version kept per user (carts) is dropped at start.
import { createEvent } from '@folio/messaging';
import { commerce } from '@folio/proto';
import { waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCommerceRepositories } from '../src/data/index.js';
import { formOf, GOOD_CARD, NONE, publishEvent, startStack, SUBSCRIPTION, TENANT, type TestStack } from './support.js';

describe('account deletion', () => {
  let stack: TestStack;
  let ana: number;

  beforeAll(async () => {
    stack = await startStack();
    ana = stack.users['ana@example.com']!;
  });
  afterAll(() => stack?.stop());

  it('when account.deleted arrives, then sessions (with their carts), plans and grants go and the paid order stays without the user', async () => {
    // Arrange: ana paid 1002, then opened another checkout (a web session with its cart), and reads Sur by subscription.
    const paidCheckout = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId: 1002 });
    const { page } = await stack.commerce.getCheckoutPage({
      tenantId: TENANT.northwind,
      webSessionId: paidCheckout.webSessionId,
      automaticallyOpenCheckout: true,
      lang: '',
    });
    const form: Record<string, string> = { ...formOf(page), ...GOOD_CARD };
    await stack.commerce.submitPayment({ tenantId: TENANT.northwind, webSessionId: paidCheckout.webSessionId, form, lang: '' });
    const open = await stack.commerce.startPurchase({ tenantId: TENANT.northwind, userId: ana, issueId: 1006 });
    expect((await stack.commerce.getAccess({ tenantId: TENANT.sur, userId: ana, issueId: 2001 })).access!.reason).toBe(SUBSCRIPTION);

    await publishEvent(stack.identityConfig.EVENTS_EXCHANGE, createEvent('account.deleted', { user_id: ana, email: 'ana@example.com' }));

    await waitFor(async () => ((await stack.db.collection('web_sessions').countDocuments({ user_id: ana })) === 0 ? true : undefined), {
      what: 'web sessions erased',
    });
    await waitFor(async () => ((await stack.db.collection('user_emails').countDocuments({ _id: ana as never })) === 0 ? true : undefined), {
      what: 'erasure finished',
    });
    expect(await stack.db.collection('subscriptions').countDocuments({ email: 'ana@example.com' })).toBe(0);
    expect(await stack.db.collection('grants').countDocuments({ $or: [{ user_id: ana }, { email: 'ana@example.com' }] })).toBe(0);
    const order = await stack.store.orders.find(form.checkout_id!);
    expect(order).toMatchObject({ user_id: null, total_minor: 249, currency: 'USD' });
    expect(order!.erased_at).toBeInstanceOf(Date);
    const anonymized = await stack.db.collection('grants').findOne({ order_id: form.checkout_id });
    expect(anonymized).toMatchObject({ user_id: null, email: null, revoked: true, source: 'purchase' });
    // The open checkout is gone with the session.
    const gone = await stack.commerce.getCheckoutPage({
      tenantId: TENANT.northwind,
      webSessionId: open.webSessionId,
      automaticallyOpenCheckout: true,
      lang: '',
    });
    expect(gone.page!.kind).toBe(commerce.CheckoutPageKind.CHECKOUT_PAGE_KIND_SESSION_EXPIRED);
    expect((await stack.commerce.getAccess({ tenantId: TENANT.northwind, userId: ana, issueId: 1002 })).access!.reason).toBe(NONE);
  });

  it('when the database holds per-user carts from before carts moved into web sessions, then the store drops them at start', async () => {
    await stack.db.collection('carts').insertOne({ _id: 'legacy-cart' as never, user_id: 7, tenant_id: TENANT.northwind, items: [1002] });
    await openCommerceRepositories(stack.db);
    const left = await stack.db.db!.listCollections({ name: 'carts' }, { nameOnly: true }).toArray();
    expect(left).toEqual([]);
    // A second start (another replica) finds nothing to drop.
    await expect(openCommerceRepositories(stack.db)).resolves.toBeDefined();
  });
});
