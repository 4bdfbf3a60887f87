// Server-rendered HTML of the web checkout, from the typed page commerce
// answers (GetCheckoutPage, SubmitPayment). The gateway serves the store
// host, so the page, its status and its Content-Security-Policy are decided
// here, once. No JavaScript: the pay form is a <details> element, open (and
// its first empty field focused) when the app asked for
// automatically_open_checkout=true or after a failed submit. Every text goes
// through @folio/text's escapeHtml; the only style is inline, allowed by a
// per-response CSP nonce.
import { randomBytes } from 'node:crypto';
import { commerce } from '@folio/proto';
import { escapeHtml } from '@folio/text';
import { message, pickLang, type MessageKey } from './checkout-messages.js';

export interface RenderedPage {
  html: string;
  status: number;
  contentSecurityPolicy: string;
}

type Page = commerce.CheckoutPage;
type Line = commerce.CheckoutLine;

/** `CHECKOUT_NOTICE_CARD_DECLINED` -> `card_declined`: the enums name the page's message keys one to one. */
function keyOf(name: string | undefined, prefix: string): MessageKey {
  return (name ?? '').slice(prefix.length).toLowerCase() as MessageKey;
}
const noticeKey = (notice: commerce.CheckoutNotice) => keyOf(commerce.CheckoutNotice[notice], 'CHECKOUT_NOTICE_');
const fieldErrorKey = (error: commerce.PaymentFieldError) => keyOf(commerce.PaymentFieldError[error], 'PAYMENT_FIELD_ERROR_');
const labelKey = (label: commerce.PaymentFieldLabel) => keyOf(commerce.PaymentFieldLabel[label], 'PAYMENT_FIELD_LABEL_');

/** The status of a page after a submit, by its notice; a page shown by GET is 200 (401 when the session expired). */
const SUBMIT_STATUS: Partial<Record<commerce.CheckoutNotice, number>> = {
  [commerce.CheckoutNotice.CHECKOUT_NOTICE_FORM_EXPIRED]: 403,
  [commerce.CheckoutNotice.CHECKOUT_NOTICE_CART_CHANGED]: 409,
  [commerce.CheckoutNotice.CHECKOUT_NOTICE_PROCESSING]: 409,
  [commerce.CheckoutNotice.CHECKOUT_NOTICE_NOTHING_TO_PAY]: 409,
  [commerce.CheckoutNotice.CHECKOUT_NOTICE_FIX_FIELDS]: 422,
  [commerce.CheckoutNotice.CHECKOUT_NOTICE_CARD_DECLINED]: 402,
  [commerce.CheckoutNotice.CHECKOUT_NOTICE_TEST_CARD_ONLY]: 402,
  [commerce.CheckoutNotice.CHECKOUT_NOTICE_PAYMENT_FAILED]: 503,
};

export function checkoutStatus(page: Page, submitted: boolean): number {
  if (page.kind === commerce.CheckoutPageKind.CHECKOUT_PAGE_KIND_SESSION_EXPIRED) return 401;
  if (submitted && page.kind === commerce.CheckoutPageKind.CHECKOUT_PAGE_KIND_CHECKOUT) return SUBMIT_STATUS[page.notice] ?? 200;
  return 200;
}

/** A locale for the tenant's language and country (es + AR -> es-AR), valid or the plain language. */
export function localeOf(lang: string, countryCode: string | undefined): string {
  const base = (lang || 'en').toLowerCase().split(/[-_]/)[0] || 'en';
  const candidates = countryCode ? [`${base}-${countryCode.toUpperCase()}`, base] : [base];
  for (const candidate of candidates) {
    try {
      if (Intl.NumberFormat.supportedLocalesOf([candidate]).length) return candidate;
    } catch {
      // not a well-formed tag: try the next
    }
  }
  return 'en';
}

export function formatMoney(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

const STYLE = `
:root{color-scheme:light;--ink:#1d2330;--muted:#5d6472;--line:#e3e6eb;--accent:#1f5eff;--bad:#b42318;--good:#067647;--bg:#f5f6f8}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
main{max-width:32rem;margin:0 auto;padding:1.5rem 1rem 3rem}
.store{margin:0;color:var(--muted);font-size:.9rem;text-transform:uppercase;letter-spacing:.06em}
h1{margin:.2rem 0 1.2rem;font-size:1.6rem}
.card{background:#fff;border:1px solid var(--line);border-radius:12px;padding:1.1rem 1.2rem;margin-bottom:1rem}
h2{font-size:1rem;margin:0 0 .6rem;color:var(--muted);font-weight:600}
ul{list-style:none;margin:0;padding:0}
li{display:flex;justify-content:space-between;gap:1rem;padding:.6rem 0;border-bottom:1px solid var(--line)}
li:last-child{border-bottom:0}
.name{font-weight:600;flex:1;min-width:0}
.meta{display:block;color:var(--muted);font-size:.85rem;font-weight:400}
.price{display:flex;flex-direction:column;align-items:flex-end;gap:.2rem;text-align:right;white-space:nowrap}
del{color:var(--muted);margin-right:.35rem}
.badge{display:inline-block;background:#e8f0ff;color:var(--accent);border-radius:999px;padding:0 .5rem;font-size:.8rem;font-weight:600}
.total{display:flex;justify-content:space-between;font-size:1.1rem;font-weight:700;margin:.8rem 0 0}
.notice{border-radius:10px;padding:.75rem 1rem;margin-bottom:1rem;background:#fef3f2;color:var(--bad);border:1px solid #fecdca}
.info{border-radius:10px;padding:.75rem 1rem;margin-bottom:1rem;background:#ecfdf3;color:var(--good);border:1px solid #abefc6}
summary{cursor:pointer;font-weight:600;padding:.2rem 0}
label{display:block;margin:.8rem 0 .25rem;font-weight:600;font-size:.92rem}
input{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #c4c9d2;border-radius:8px}
input:focus{outline:2px solid var(--accent);outline-offset:1px}
input[aria-invalid=true]{border-color:var(--bad)}
.field-error{color:var(--bad);font-size:.85rem;margin:.25rem 0 0}
.row{display:flex;gap:.8rem}.row>div{flex:1}
button,.button{display:block;width:100%;margin-top:1.2rem;padding:.8rem;border:0;border-radius:10px;background:var(--accent);color:#fff;font:inherit;font-weight:700;text-align:center;text-decoration:none;cursor:pointer}
.test{color:var(--muted);font-size:.85rem;margin-top:1rem}
.secure{color:var(--muted);font-size:.8rem;margin-top:.6rem;text-align:center}
`;

/** The page as HTML, with the status (`submitted`: the answer to the pay form) and Content-Security-Policy to answer with. */
export function renderCheckoutPage(page: Page, submitted: boolean): RenderedPage {
  const store = page.store ?? { name: '', lang: '' };
  const lang = pickLang(page.lang, store.lang);
  const locale = localeOf(lang, store.countryCode);
  const t = (key: MessageKey, values?: Record<string, string>) => escapeHtml(message(lang, key, values));
  const money = (amount: number, currency: string) => escapeHtml(formatMoney(amount, currency, locale));
  const nonce = randomBytes(16).toString('base64');

  let body: string;
  if (page.kind === commerce.CheckoutPageKind.CHECKOUT_PAGE_KIND_SESSION_EXPIRED) {
    body = `<h1>${t('session_expired_title')}</h1><div class="card"><p>${t('session_expired')}</p></div>`;
  } else if (page.kind === commerce.CheckoutPageKind.CHECKOUT_PAGE_KIND_EMPTY) {
    body = `<h1>${t('title')}</h1><div class="card"><p>${t('empty')}</p><p>${t('back_to_app')}</p></div>`;
  } else {
    body = `<h1>${t('title')}</h1>
${page.notice ? `<div class="notice" role="alert">${t(noticeKey(page.notice))}</div>` : ''}
<section class="card" aria-labelledby="order"><h2 id="order">${t('order')}</h2>
<ul>${page.lines.map((line) => lineHtml(line, t, money, locale)).join('')}</ul>
${page.total ? `<p class="total"><span>${t('total')}</span><span data-total>${money(page.total.amount, page.total.currency)}</span></p>` : ''}
</section>
${page.appLink ? `<div class="info">${t('owned')}</div><a class="button" href="${escapeHtml(page.appLink)}">${t('open_app')}</a>` : ''}
${page.total ? payForm(page, t, money) : ''}`;
  }

  const expired = page.kind === commerce.CheckoutPageKind.CHECKOUT_PAGE_KIND_SESSION_EXPIRED;
  const title = [expired ? message(lang, 'session_expired_title') : message(lang, 'title'), store.name].filter(Boolean).join(' · ');
  const html = `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
${store.name ? `<p class="store">${escapeHtml(store.name)}</p>` : ''}
${body}
</main>
</body>
</html>
`;
  return { html, status: checkoutStatus(page, submitted), contentSecurityPolicy: csp(nonce, page.returnScheme) };
}

function lineHtml(
  line: Line,
  t: (key: MessageKey, values?: Record<string, string>) => string,
  money: (amount: number, currency: string) => string,
  locale: string,
): string {
  let right: string;
  let meta = '';
  if (line.state === commerce.CheckoutLineState.CHECKOUT_LINE_STATE_OWNED) right = `<span class="badge">${t('owned')}</span>`;
  else if (line.state !== commerce.CheckoutLineState.CHECKOUT_LINE_STATE_BUYABLE || !line.price) right = `<span class="meta">${t('unavailable')}</span>`;
  else {
    const price = line.price;
    const discounted = price.amount < price.listAmount;
    right = discounted
      ? `<span><del data-list-price>${money(price.listAmount, price.currency)}</del><strong data-price>${money(price.amount, price.currency)}</strong></span>`
      : `<strong data-price>${money(price.amount, price.currency)}</strong>`;
    if (discounted && price.percentage !== undefined) {
      const percentage = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(price.percentage / 100);
      right += `<span class="badge">${t('discount', { percentage })}</span>`;
    }
    if (discounted && price.endsAt) {
      const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(price.endsAt));
      meta = `<span class="meta">${t('discount_until', { date })}</span>`;
    }
  }
  return `<li data-issue-id="${line.issueId}"><span class="name">${escapeHtml(line.name)}${meta}</span><span class="price">${right}</span></li>`;
}

function payForm(page: Page, t: (key: MessageKey, values?: Record<string, string>) => string, money: (amount: number, currency: string) => string): string {
  const total = page.total!;
  // Focus the first field that still needs the user: the first invalid one, else the first empty one.
  const focus = page.fields.find((field) => page.fieldErrors[field.name]) ?? page.fields.find((field) => !page.values[field.name]) ?? page.fields[0];
  const inputs = page.fields
    .map((field) => {
      const error = page.fieldErrors[field.name];
      const id = `f-${field.name}`;
      const attributes = [
        `id="${id}"`,
        `name="${escapeHtml(field.name)}"`,
        'type="text"',
        'required',
        `autocomplete="${escapeHtml(field.autocomplete)}"`,
        `maxlength="${field.maxlength}"`,
        field.inputmode ? `inputmode="${escapeHtml(field.inputmode)}"` : '',
        field.placeholder ? `placeholder="${escapeHtml(field.placeholder)}"` : '',
        page.values[field.name] ? `value="${escapeHtml(page.values[field.name]!)}"` : '',
        error ? `aria-invalid="true" aria-describedby="${id}-error"` : '',
        page.openForm && field === focus ? 'autofocus' : '',
      ].filter(Boolean);
      return `<div><label for="${id}">${t(labelKey(field.label))}</label><input ${attributes.join(' ')}>${
        error ? `<p class="field-error" id="${id}-error">${t(fieldErrorKey(error))}</p>` : ''
      }</div>`;
    })
    .join('\n');
  return `<section class="card">
<details${page.openForm ? ' open' : ''}>
<summary>${t('pay_with_card')}</summary>
<form method="post" action="${escapeHtml(page.payPath)}" autocomplete="on">
<input type="hidden" name="checkout_id" value="${escapeHtml(page.checkoutId)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(page.csrfToken)}">
${inputs}
<button type="submit">${t('pay', { amount: money(total.amount, total.currency) })}</button>
<p class="secure">${t('secure_note')}</p>
</form>
</details>
${page.testMode ? `<p class="test">${t('test_mode')}</p>` : ''}
</section>`;
}

/**
 * Nothing but the nonce'd style runs; the form posts to the store and its
 * answer may redirect to the app's scheme (Chrome checks form-action on redirects).
 */
function csp(nonce: string, returnScheme: string | undefined): string {
  const scheme = returnScheme ? /^([a-z][a-z0-9+.-]*):/i.exec(returnScheme)?.[1]?.toLowerCase() : undefined;
  const formAction = ["'self'", ...(scheme && !['http', 'https'].includes(scheme) ? [`${scheme}:`] : [])].join(' ');
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    `form-action ${formAction}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
