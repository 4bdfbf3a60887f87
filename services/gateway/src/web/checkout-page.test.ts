import { commerce } from '@folio/proto';
import { describe, expect, it } from 'vitest';
import { renderCheckoutPage } from './checkout-page.js';

const { CheckoutPageKind: Kind, CheckoutNotice: Notice, CheckoutLineState: LineState, PaymentFieldError: FieldError, PaymentFieldLabel: Label } = commerce;

const fields: commerce.PaymentField[] = [
  { name: 'cardholder_name', label: Label.PAYMENT_FIELD_LABEL_CARDHOLDER_NAME, autocomplete: 'cc-name', inputmode: 'text', maxlength: 100 },
  {
    name: 'card_number',
    label: Label.PAYMENT_FIELD_LABEL_CARD_NUMBER,
    autocomplete: 'cc-number',
    inputmode: 'numeric',
    placeholder: '4242 4242 4242 4242',
    maxlength: 23,
  },
];

const page = (overrides: Partial<commerce.CheckoutPage> = {}): commerce.CheckoutPage => ({
  kind: Kind.CHECKOUT_PAGE_KIND_CHECKOUT,
  store: { name: 'Northwind Reader', lang: 'en', countryCode: 'US' },
  lang: 'en',
  lines: [
    {
      issueId: 1002,
      name: 'Harbor Monthly - March',
      state: LineState.CHECKOUT_LINE_STATE_BUYABLE,
      price: { currency: 'USD', listAmount: 4.99, amount: 2.49, percentage: 50 },
    },
  ],
  total: { currency: 'USD', amount: 2.49 },
  checkoutId: 'chk_1',
  csrfToken: 'csrf-token',
  payPath: '/app/checkout/pay',
  openForm: true,
  notice: Notice.CHECKOUT_NOTICE_UNSPECIFIED,
  fieldErrors: {},
  values: {},
  fields,
  testMode: true,
  returnScheme: 'folio://',
  ...overrides,
});

describe('the checkout page rendered by the gateway', () => {
  it('when a cart is shown, then the page has the store, the discounted price over the struck list price, the open pay form and a nonce CSP', () => {
    const rendered = renderCheckoutPage(page(), false);
    expect(rendered.status).toBe(200);
    expect(rendered.html).toMatch(/^<!doctype html>/);
    expect(rendered.html).toContain('Northwind Reader');
    expect(rendered.html).toContain('<del data-list-price>$4.99</del><strong data-price>$2.49</strong>');
    expect(rendered.html).toContain('50% off');
    expect(rendered.html).toContain('<form method="post" action="/app/checkout/pay"');
    expect(rendered.html).toContain('<input type="hidden" name="checkout_id" value="chk_1">');
    expect(rendered.html).toContain('<input type="hidden" name="csrf_token" value="csrf-token">');
    expect(rendered.html).toContain('Pay $2.49');
    expect(rendered.html).toContain('<details open>');
    expect(rendered.html).toMatch(/<input [^>]*name="cardholder_name"[^>]*autofocus/);
    expect(rendered.html).not.toMatch(/<script/i);
    const nonce = /<style nonce="([^"]+)">/.exec(rendered.html)?.[1];
    expect(rendered.contentSecurityPolicy).toBe(
      `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self' folio:; base-uri 'none'; frame-ancestors 'none'`,
    );
  });

  it('when the form is not to be opened, then it starts closed and nothing is focused', () => {
    const { html } = renderCheckoutPage(page({ openForm: false }), false);
    expect(html).toContain('<details>');
    expect(html).not.toContain('autofocus');
  });

  it('when a name holds markup, then it is escaped', () => {
    const lines = [{ issueId: 1, name: '<script>alert("x")</script> & Co', state: LineState.CHECKOUT_LINE_STATE_UNAVAILABLE, price: undefined }];
    const { html } = renderCheckoutPage(page({ lines }), false);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(html).not.toContain('<script>');
  });

  it('when the page is in Spanish for an Argentinian store, then texts and money follow language and country', () => {
    const lines = [
      { issueId: 2002, name: 'Revista Pampa N° 12', state: LineState.CHECKOUT_LINE_STATE_BUYABLE, price: { currency: 'ARS', listAmount: 1200, amount: 900 } },
    ];
    const rendered = renderCheckoutPage(
      page({
        store: { name: 'Editorial Sur', lang: 'es', countryCode: 'AR' },
        lang: 'es',
        lines,
        total: { currency: 'ARS', amount: 900 },
        returnScheme: 'editorialsur://',
      }),
      false,
    );
    expect(rendered.html).toContain('Pagar con tarjeta');
    expect(rendered.html).toMatch(/<del data-list-price>\$\s1\.200,00<\/del><strong data-price>\$\s900,00<\/strong>/);
    expect(rendered.contentSecurityPolicy).toContain("form-action 'self' editorialsur:");
  });

  it('when the session expired, then the page says so without a form (401)', () => {
    const rendered = renderCheckoutPage(page({ kind: Kind.CHECKOUT_PAGE_KIND_SESSION_EXPIRED, lines: [], total: undefined }), false);
    expect(rendered.status).toBe(401);
    expect(rendered.html).toContain('Your checkout session has expired');
    expect(rendered.html).not.toContain('<form');
  });

  it.each([
    [Notice.CHECKOUT_NOTICE_CARD_DECLINED, 402, 'Your card was declined.'],
    [Notice.CHECKOUT_NOTICE_FORM_EXPIRED, 403, 'This form has expired.'],
    [Notice.CHECKOUT_NOTICE_CART_CHANGED, 409, 'Your cart changed'],
    [Notice.CHECKOUT_NOTICE_FIX_FIELDS, 422, 'Please correct the fields marked below.'],
  ])('when a submit comes back with notice %i, then the status is %i and the notice is shown', (notice, status, text) => {
    const rendered = renderCheckoutPage(page({ notice }), true);
    expect(rendered.status).toBe(status);
    expect(rendered.html).toContain(text);
  });

  it('when a cart shown by GET has nothing to pay, then the notice is shown with 200', () => {
    expect(renderCheckoutPage(page({ notice: Notice.CHECKOUT_NOTICE_NOTHING_TO_PAY, total: undefined }), false).status).toBe(200);
  });

  it('when fields are invalid, then each is marked and focused first, and only kept values are shown again', () => {
    const { html } = renderCheckoutPage(
      page({
        notice: Notice.CHECKOUT_NOTICE_FIX_FIELDS,
        fieldErrors: { card_number: FieldError.PAYMENT_FIELD_ERROR_CARD_NUMBER_INVALID },
        values: { cardholder_name: 'Ana "Test"' },
      }),
      true,
    );
    expect(html).toContain('Enter a valid card number.');
    expect(html).toContain('value="Ana &quot;Test&quot;"');
    expect(html).toMatch(/<input [^>]*name="card_number"[^>]*aria-invalid="true"[^>]*autofocus/);
    expect(html).not.toMatch(/name="card_number"[^>]*value=/);
  });

  it('when everything is already readable, then the page links to the app with the link escaped', () => {
    const lines = [{ issueId: 2001, name: 'Pampa', state: LineState.CHECKOUT_LINE_STATE_OWNED, price: undefined }];
    const { html } = renderCheckoutPage(page({ lines, total: undefined, appLink: 'editorialsur://purchase-complete?issue_id=2001&status=success' }), false);
    expect(html).toContain('Already in your library');
    expect(html).toContain('href="editorialsur://purchase-complete?issue_id=2001&amp;status=success"');
    expect(html).not.toContain('<form');
  });
});
