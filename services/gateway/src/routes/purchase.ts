// The purchase redirect on the store domain: opened by the app in a browser
// with the access token in the query string.
import { z } from 'zod';
import { RATE_RULES } from '../http/rate-limit.js';
import { later, route } from '../http/route.js';
import { id, issueIdParams } from './schemas.js';

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
        description: 'Redirect to the web checkout with automatically_open_checkout=true; empty body',
        headers: { Location: { description: 'Checkout URL', schema: { type: 'string' } } },
      },
    },
    errors: { 404: 'Unknown store, or the issue is not in this store', 422: 'Free, pay-per-use, or without prices' },
    handler: later('the purchase redirect', 'the commerce release'),
  }),
];
