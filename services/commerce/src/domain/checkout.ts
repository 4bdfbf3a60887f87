// The web checkout: the page of a web session's cart (held in the session,
// domain/repositories.ts), and its payment.
//
// Paying is safe to repeat. The cart's checkout id is the idempotency key of
// everything a payment does:
//   - one payer at a time: a checkout lock claimed by a unique insert
//     (store.checkoutLocks, data/checkout-locks.ts); a second submit waits for
//     the first one's outcome instead of charging again;
//   - the provider is called with the checkout id as idempotency key;
//   - the order's _id is the checkout id, each grant's id is
//     `purchase:<checkout id>:<issue id>`, the event id derives from it.
// A submit that finds the order already recorded (double click, reload after a
// crash) completes what may be missing (grants, event, cart) and redirects to
// the same deeplink, without charging.
import { timingSafeEqual } from 'node:crypto';
import type { Logger } from '@folio/logger';
import { ACCESS_CHANGED, type AccessChangedPayload } from '@folio/messaging';
import { payableAmount } from './access.js';
import type { AccessQueries } from './access-queries.js';
import { derivedEventId } from './event-ids.js';
import { fromMinor, toMinor } from './money.js';
import type { DeclineKey, PaymentField, PaymentFieldErrorKey, PaymentProvider } from './payments.js';
import type { Clock, EventSink, IssueNames, TenantInfo, Tenants } from './ports.js';
import { returnUrl } from './purchase.js';
import type { CartRecord, CommerceRepositories, OrderRecord, WebSessionRecord } from './repositories.js';
import { toIso } from './time.js';

export const PURCHASE_COMPLETED = 'purchase.completed';

export interface PurchaseCompletedPayload {
  order_id: string;
  tenant_id: number;
  user_id: number;
  issue_ids: number[];
  items: { issue_id: number; currency: string; amount: number; list_amount: number }[];
  total: { currency: string; amount: number };
  payment: { provider: string; payment_id: string };
  paid_at: string;
}

export type CheckoutNotice = 'form_expired' | 'cart_changed' | 'processing' | 'nothing_to_pay' | 'fix_fields' | 'payment_failed' | DeclineKey;

export interface CheckoutLine {
  issueId: number;
  name: string;
  state: 'buyable' | 'owned' | 'unavailable';
  /** Present for buyable lines. */
  price: { currency: string; listAmount: number; amount: number; percentage: number | null; endsAt: Date | null } | null;
}

/**
 * Everything the checkout page shows. The gateway renders it (HTML, CSP) and
 * picks the HTTP status from the kind and, after a submit, the notice.
 */
export interface CheckoutPage {
  kind: 'checkout' | 'session_expired' | 'empty';
  store: { name: string; lang: string; countryCode: string | null };
  lang: string;
  lines: CheckoutLine[];
  total: { currency: string; amount: number } | null;
  checkoutId: string;
  csrfToken: string;
  payPath: string;
  openForm: boolean;
  notice: CheckoutNotice | null;
  fieldErrors: Record<string, PaymentFieldErrorKey>;
  values: Record<string, string>;
  fields: PaymentField[];
  testMode: boolean;
  /** "Open in the app" when everything in the cart is already readable. */
  appLink: string | null;
  /** The session's return scheme: the pay form may redirect there (CSP form-action). */
  returnScheme: string | null;
}

export type PaymentOutcome = { redirectUrl: string } | { page: CheckoutPage };

export interface CheckoutSettings {
  payPath: string;
  /** How long a second submit waits for the first one's outcome. */
  concurrentSubmitWaitMs?: number;
  /** A payer that held the lock longer than this is presumed dead. */
  lockLeaseMs?: number;
}

export class Checkout {
  private readonly waitMs: number;
  private readonly leaseMs: number;

  constructor(
    private readonly deps: {
      store: CommerceRepositories;
      tenants: Tenants;
      names: IssueNames;
      access: AccessQueries;
      provider: PaymentProvider;
      events: EventSink;
      clock: Clock;
      logger: Logger;
    },
    private readonly settings: CheckoutSettings,
  ) {
    this.waitMs = settings.concurrentSubmitWaitMs ?? 5_000;
    this.leaseMs = settings.lockLeaseMs ?? 120_000;
  }

  /** GET {store}/app/checkout */
  async render(request: { tenantId: number; webSessionId: string; autoOpen: boolean; lang: string }): Promise<CheckoutPage> {
    const { tenant, session } = await this.open(request.tenantId, request.webSessionId);
    if (!session) return this.expired(tenant, request.lang);
    return this.cartPage(tenant, session, { lang: request.lang, openForm: request.autoOpen });
  }

  /** POST {store}/app/checkout/pay */
  async pay(request: { tenantId: number; webSessionId: string; form: Record<string, string>; lang: string }): Promise<PaymentOutcome> {
    const { store, provider, clock } = this.deps;
    const { tenant, session } = await this.open(request.tenantId, request.webSessionId);
    if (!session) return { page: this.expired(tenant, request.lang) };
    const form = request.form;
    const values = keptValues(provider.fields, form);
    const pageWith = async (notice: CheckoutNotice, fieldErrors: Record<string, PaymentFieldErrorKey> = {}) => ({
      page: await this.cartPage(tenant, session, { lang: request.lang, openForm: true, notice, fieldErrors, values }),
    });

    if (!sameSecret(form.csrf_token ?? '', session.csrf_token)) return pageWith('form_expired');
    const checkoutId = form.checkout_id ?? '';

    const done = checkoutId ? await this.orderOf(checkoutId, session) : null;
    if (done) return { redirectUrl: await this.complete(done, session) };

    const cart = session.cart;
    if (!checkoutId || cart.checkout_id !== checkoutId) return pageWith('cart_changed');

    const lines = await this.linesOf(tenant, session, cart);
    const buyable = lines.filter((line) => line.state === 'buyable');
    if (!buyable.length) {
      // Everything is readable already (bought elsewhere meanwhile): nothing to charge, back to the app.
      const owned = lines.find((line) => line.state === 'owned');
      if (owned) {
        await store.webSessions.emptyCartIfCheckout(session, cart.checkout_id);
        return { redirectUrl: returnUrl(session.return_scheme, owned.issueId) };
      }
      return pageWith('nothing_to_pay');
    }

    const fieldErrors = provider.validate(form, clock.now());
    if (Object.keys(fieldErrors).length) return pageWith('fix_fields', fieldErrors);

    const lock = await this.acquire(checkoutId, session);
    if (lock === 'paid') {
      const order = await this.orderOf(checkoutId, session);
      if (order) return { redirectUrl: await this.complete(order, session) };
    }
    if (lock !== 'acquired') return pageWith('processing');

    let paid = false;
    try {
      const currency = tenant.currency.toUpperCase();
      const totalMinor = buyable.reduce((sum, line) => sum + toMinor(line.price!.amount, currency), 0);
      const charge = await provider.charge({
        idempotencyKey: checkoutId,
        amountMinor: totalMinor,
        currency,
        description: `${tenant.name}: ${buyable.map((line) => line.name).join(', ')}`.slice(0, 200),
        form,
        metadata: { checkout_id: checkoutId, tenant_id: String(tenant.id), user_id: String(session.user_id) },
      });
      if (charge.status === 'declined') {
        this.deps.logger.info({ checkout_id: checkoutId, reason: charge.reason }, 'payment declined');
        return pageWith(charge.reason);
      }
      paid = true;
      const issueId = buyable.some((line) => line.issueId === session.issue_id) ? session.issue_id : buyable[0]!.issueId;
      const order: OrderRecord = {
        _id: checkoutId,
        tenant_id: tenant.id,
        user_id: session.user_id,
        items: buyable.map((line) => ({
          issue_id: line.issueId,
          name: line.name,
          currency,
          list_amount: line.price!.listAmount,
          amount: line.price!.amount,
        })),
        currency,
        total_minor: totalMinor,
        provider: provider.name,
        payment_id: charge.paymentId,
        return_url: returnUrl(session.return_scheme, issueId),
        created_at: clock.now(),
        erased_at: null,
      };
      await store.orders.insertOnce(order);
      const recorded = (await store.orders.find(checkoutId)) ?? order;
      this.deps.logger.info({ checkout_id: checkoutId, payment_id: recorded.payment_id, total_minor: totalMinor, currency }, 'checkout paid');
      return { redirectUrl: await this.complete(recorded, session) };
    } catch (error) {
      if (paid) throw error; // the order is charged: the next submit completes it
      this.deps.logger.error({ err: error, checkout_id: checkoutId }, 'payment failed');
      return pageWith('payment_failed');
    } finally {
      if (!paid) await this.release(checkoutId);
    }
  }

  /**
   * Records what a paid order gives, each step idempotent: the grants, the
   * event, the session's emptied cart. Returns where the browser goes.
   */
  private async complete(order: OrderRecord, session: WebSessionRecord): Promise<string> {
    const { store, events } = this.deps;
    const userId = order.user_id ?? session.user_id;
    for (const item of order.items) {
      await store.grants.insertOnce({
        _id: `purchase:${order._id}:${item.issue_id}`,
        tenant_id: order.tenant_id,
        issue_id: item.issue_id,
        user_id: userId,
        email: null,
        source: 'purchase',
        expires_at: null,
        revoked: false,
        order_id: order._id,
        created_at: order.created_at,
        erased_at: null,
      });
    }
    await events.publish<PurchaseCompletedPayload>(
      PURCHASE_COMPLETED,
      {
        order_id: order._id,
        tenant_id: order.tenant_id,
        user_id: userId,
        issue_ids: order.items.map((item) => item.issue_id),
        items: order.items.map((item) => ({ issue_id: item.issue_id, currency: item.currency, amount: item.amount, list_amount: item.list_amount })),
        total: { currency: order.currency, amount: fromMinor(order.total_minor, order.currency) },
        payment: { provider: order.provider, payment_id: order.payment_id },
        paid_at: toIso(order.created_at),
      },
      { id: derivedEventId(order._id, PURCHASE_COMPLETED), tenantId: order.tenant_id },
    );
    // Readers cache access decisions: they drop this user's entries (every replica, on commerce.events).
    await events.publish<AccessChangedPayload>(
      ACCESS_CHANGED,
      { tenant_id: order.tenant_id, user_id: userId, issue_ids: order.items.map((item) => item.issue_id) },
      { id: derivedEventId(order._id, ACCESS_CHANGED), tenantId: order.tenant_id },
    );
    await store.webSessions.emptyCartIfCheckout(session, order._id);
    return order.return_url;
  }

  /** The order of a checkout, only if it is this session's user's in this tenant. */
  private async orderOf(checkoutId: string, session: WebSessionRecord): Promise<OrderRecord | null> {
    const order = await this.deps.store.orders.find(checkoutId);
    return order && order.tenant_id === session.tenant_id && order.user_id === session.user_id ? order : null;
  }

  /** Claims the right to charge a checkout; a concurrent submit waits for the holder's outcome. */
  private async acquire(checkoutId: string, session: WebSessionRecord): Promise<'acquired' | 'paid' | 'busy'> {
    const { checkoutLocks: locks, orders } = this.deps.store;
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      if (await locks.claim(checkoutId, session.user_id)) return 'acquired';
      if (await orders.find(checkoutId)) return 'paid';
      const claimedAt = await locks.claimedAt(checkoutId);
      if (claimedAt && claimedAt.getTime() < Date.now() - this.leaseMs) {
        // The holder died mid-payment; the provider's idempotency key keeps a retry from charging twice.
        await locks.breakClaim(checkoutId, claimedAt);
        continue;
      }
      if (Date.now() >= deadline) return 'busy';
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async release(checkoutId: string): Promise<void> {
    await this.deps.store.checkoutLocks.release(checkoutId);
  }

  private async open(tenantId: number, webSessionId: string): Promise<{ tenant: TenantInfo; session: WebSessionRecord | null }> {
    const tenant = await this.deps.tenants.find(tenantId);
    if (!tenant) return { tenant: unknownStore(tenantId), session: null };
    const session = await this.deps.store.webSessions.findLive(webSessionId, tenantId, this.deps.clock.now());
    return { tenant, session };
  }

  /** The cart's lines with their current names, prices and the user's access. */
  private async linesOf(tenant: TenantInfo, session: WebSessionRecord, cart: CartRecord): Promise<CheckoutLine[]> {
    const issueIds = cart.items.map((item) => item.issue_id);
    const accesses = await this.deps.access.batch(tenant.id, session.user_id, issueIds);
    const names = await Promise.all(accesses.map((entry) => this.deps.names.nameOf(tenant.id, entry.issueId)));
    return accesses.map((entry, index) => {
      const name = names[index] ?? entry.offer.name;
      if (entry.access.reason) return { issueId: entry.issueId, name, state: 'owned', price: null };
      const price = entry.view.prices[0];
      if (!entry.canBeBought || !price) return { issueId: entry.issueId, name, state: 'unavailable', price: null };
      return {
        issueId: entry.issueId,
        name,
        state: 'buyable',
        price: {
          currency: price.currency,
          listAmount: price.amount,
          amount: payableAmount(price),
          percentage: price.discount ? (price.discount.percentage ?? null) : null,
          endsAt: price.discount?.endsAt ?? null,
        },
      };
    });
  }

  private async cartPage(
    tenant: TenantInfo,
    session: WebSessionRecord,
    options: {
      lang: string;
      openForm: boolean;
      notice?: CheckoutNotice | null;
      fieldErrors?: Record<string, PaymentFieldErrorKey>;
      values?: Record<string, string>;
    },
  ): Promise<CheckoutPage> {
    const cart = session.cart;
    const lines = cart.items.length ? await this.linesOf(tenant, session, cart) : [];
    const buyable = lines.filter((line) => line.state === 'buyable');
    const currency = tenant.currency.toUpperCase();
    const totalMinor = buyable.reduce((sum, line) => sum + toMinor(line.price!.amount, currency), 0);
    const owned = lines.find((line) => line.state === 'owned');
    return {
      ...this.base(tenant, options.lang),
      kind: lines.length ? 'checkout' : 'empty',
      lines,
      total: buyable.length ? { currency, amount: fromMinor(totalMinor, currency) } : null,
      checkoutId: cart.checkout_id,
      csrfToken: session.csrf_token,
      openForm: options.openForm,
      notice: options.notice ?? (lines.length && !buyable.length && !owned ? 'nothing_to_pay' : null),
      fieldErrors: options.fieldErrors ?? {},
      values: options.values ?? {},
      appLink: !buyable.length && owned ? returnUrl(session.return_scheme, owned.issueId) : null,
      returnScheme: session.return_scheme,
    };
  }

  private expired(tenant: TenantInfo, lang: string): CheckoutPage {
    return {
      ...this.base(tenant, lang),
      kind: 'session_expired',
      lines: [],
      total: null,
      checkoutId: '',
      csrfToken: '',
      openForm: false,
      notice: null,
      fieldErrors: {},
      values: {},
      appLink: null,
      returnScheme: null,
    };
  }

  private base(tenant: TenantInfo, lang: string) {
    return {
      store: { name: tenant.name, lang: tenant.lang, countryCode: tenant.countryCode },
      lang: lang || tenant.lang,
      payPath: this.settings.payPath,
      fields: this.deps.provider.fields,
      testMode: this.deps.provider.testMode,
    };
  }
}

function keptValues(fields: PaymentField[], form: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of fields) if (field.keep && form[field.name]) values[field.name] = form[field.name]!.slice(0, field.maxlength);
  return values;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

/** A store identity does not know (any more): only the expired-session page is shown for it. */
function unknownStore(tenantId: number): TenantInfo {
  return { id: tenantId, name: '', currency: 'USD', freeAccess: false, aggregatorId: null, mobileAppScheme: null, lang: 'en', countryCode: null };
}
