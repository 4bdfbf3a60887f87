// The purchase redirect and the web checkout on the store domain. The app
// opens the redirect in a browser with the access token in the query string;
// from there on the browser carries a web session cookie. Commerce answers
// what the checkout page shows; the gateway renders it (web/checkout-page.ts).
import { DomainError } from '@folio/errors';
import type { commerce } from '@folio/proto';
import type { Request } from 'express';
import { z } from 'zod';
import { RATE_RULES } from '../http/rate-limit.js';
import { route, type Reply } from '../http/route.js';
import { renderCheckoutPage } from '../web/checkout-page.js';
import { id, issueIdParams } from './schemas.js';

/** The web session cookie commerce issues at the purchase redirect. */
const SESSION_COOKIE = 'folio_session';

function sessionCookie(req: Request, value: string, maxAgeSeconds: number): string {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  return `${SESSION_COOKIE}=${encodeURIComponent(value)}; Path=/app; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

function sessionOf(req: Request): string {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) {
      try {
        return decodeURIComponent(value.join('='));
      } catch {
        return '';
      }
    }
  }
  return '';
}

/** The checkout page commerce described, rendered with its status and Content-Security-Policy. */
function page(checkout: commerce.CheckoutPage | undefined, submitted: boolean): Reply {
  // A success without the page is a contract breach upstream, not the client's fault.
  if (!checkout) throw new DomainError('INTERNAL', 'commerce answered without a checkout page');
  const rendered = renderCheckoutPage(checkout, submitted);
  return {
    status: rendered.status,
    html: rendered.html,
    headers: { 'Content-Security-Policy': rendered.contentSecurityPolicy, 'Cache-Control': 'no-store' },
  };
}

const htmlReply = { description: 'Server-rendered HTML page', contentType: 'text/html' };

export const purchaseRoutes = [
  route({
    method: 'get',
    path: '/app/purchase/{issue_id}',
    tag: 'Purchase',
    summary: 'Start a purchase: log in on the web store, fill the cart, redirect to checkout',
    description:
      'Query `token` is the access token (`purchase_link` + `?token=<ACCESS_TOKEN>&app_tenant_id=<id>`). ' +
      'At most 60 requests per minute per IP. After payment the user returns to `<scheme>purchase-complete?issue_id=..&status=success`.',
    auth: 'jwt-query',
    tenant: 'store',
    rateLimit: RATE_RULES.purchase,
    params: issueIdParams,
    query: z.object({ app_tenant_id: id('Tenant of a custom-branded app; omitted by the generic app').optional() }),
    responses: {
      302: {
        description: 'Redirect to the web checkout with automatically_open_checkout=true; empty body; sets the web session cookie',
        headers: {
          Location: { description: 'Checkout URL', schema: { type: 'string' } },
          'Set-Cookie': { description: `${SESSION_COOKIE}: the web session (HttpOnly, Path=/app)`, schema: { type: 'string' } },
        },
      },
    },
    errors: { 404: 'Unknown store, or the issue is not in this store', 422: 'Free, pay-per-use, or without prices' },
    handler: async ({ params, query, user, tenant, services, req }) => {
      const started = await services.commerce.startPurchase({
        tenantId: tenant.id,
        userId: user.id,
        issueId: params.issue_id,
        appTenantId: query.app_tenant_id,
      });
      return {
        status: 302,
        headers: {
          Location: started.checkoutUrl,
          'Set-Cookie': sessionCookie(req, started.webSessionId, started.webSessionMaxAgeSeconds),
          'Cache-Control': 'no-store',
        },
      };
    },
  }),
  route({
    method: 'get',
    path: '/app/checkout',
    tag: 'Purchase',
    summary: 'The web checkout page: the issue, its price and the pay form',
    description: `Needs the ${SESSION_COOKIE} cookie set by the purchase redirect; without it the page says the session expired (401).`,
    auth: 'none',
    tenant: 'store',
    query: z.object({ automatically_open_checkout: z.enum(['true', 'false']).optional() }),
    responses: { 200: htmlReply },
    errors: { 401: 'No or expired web session (HTML page)' },
    errorContentType: 'text/html',
    handler: async ({ query, tenant, lang, services, req }) => {
      const response = await services.commerce.getCheckoutPage({
        tenantId: tenant.id,
        webSessionId: sessionOf(req),
        automaticallyOpenCheckout: query.automatically_open_checkout === 'true',
        lang: req.get('x-app-lang') ? lang : '',
      });
      return page(response.page, false);
    },
  }),
  route({
    method: 'post',
    path: '/app/checkout/pay',
    tag: 'Purchase',
    summary: 'Pay for the cart (form post from the checkout page)',
    description:
      'application/x-www-form-urlencoded: checkout_id, csrf_token, cardholder_name, card_number, card_expiry (MM/YY), card_cvc. ' +
      'On success 303 to `<scheme>purchase-complete?issue_id=<id>&status=success`; otherwise the page again with its error.',
    auth: 'none',
    tenant: 'store',
    body: z.record(z.string(), z.string().max(256)),
    responses: {
      303: { description: 'Paid: redirect to the app deeplink', headers: { Location: { description: 'App deeplink', schema: { type: 'string' } } } },
      200: htmlReply,
    },
    errors: { 401: 'Web session expired', 402: 'Card declined', 403: 'Bad CSRF token', 409: 'Cart changed or payment in progress' },
    // The page again, with the error on it.
    errorContentType: 'text/html',
    handler: async ({ body, tenant, lang, services, req }) => {
      const result = await services.commerce.submitPayment({
        tenantId: tenant.id,
        webSessionId: sessionOf(req),
        form: body,
        lang: req.get('x-app-lang') ? lang : '',
      });
      if (result.redirectUrl) return { status: 303, headers: { Location: result.redirectUrl, 'Cache-Control': 'no-store' } };
      return page(result.page, true);
    },
  }),
];
