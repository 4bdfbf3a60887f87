// gRPC entry point of commerce: decode the request, call a use case, encode
// the reply. No rules live here.
import type { ServiceHandlers } from '@folio/grpc';
import type { commerce } from '@folio/proto';
import type { AccessQueries } from '../domain/access-queries.js';
import type { Checkout } from '../domain/checkout.js';
import type { Publishing } from '../domain/publishing.js';
import type { Purchases } from '../domain/purchase.js';
import { toSpecDateTime } from '../domain/time.js';
import { fromOfferPrice, fromSaleMode, toAccess, toCheckoutPage, toGrant, toOffer, toReason } from './mappers.js';

export interface UseCases {
  access: AccessQueries;
  purchases: Purchases;
  checkout: Checkout;
  publishing: Publishing;
}

export function commerceHandlers(app: UseCases): ServiceHandlers<typeof commerce.CommerceServiceService> {
  return {
    async batchGetAccess(request) {
      return { accesses: (await app.access.batch(request.tenantId, request.userId, request.issueIds)).map(toAccess) };
    },

    async getAccess(request) {
      return { access: toAccess(await app.access.one(request.tenantId, request.userId, request.issueId)) };
    },

    async listAccessibleIssues(request) {
      const { issues, wholeTenants } = await app.access.listAccessible(request.tenantIds, request.userId);
      return {
        issues: issues.map((issue) => ({
          tenantId: issue.tenantId,
          issueId: issue.issueId,
          reason: toReason(issue.reason),
          expiresAt: issue.expiresAt ? toSpecDateTime(issue.expiresAt) : undefined,
        })),
        wholeTenants: wholeTenants.map((tenant) => ({ tenantId: tenant.tenantId, reason: toReason(tenant.reason) })),
      };
    },

    async startPurchase(request) {
      const started = await app.purchases.start({
        tenantId: request.tenantId,
        userId: request.userId,
        issueId: request.issueId,
        appTenantId: request.appTenantId,
      });
      return { checkoutUrl: started.checkoutUrl, webSessionId: started.webSessionId, webSessionMaxAgeSeconds: started.maxAgeSeconds };
    },

    async getCheckoutPage(request) {
      const page = await app.checkout.render({
        tenantId: request.tenantId,
        webSessionId: request.webSessionId,
        autoOpen: request.automaticallyOpenCheckout,
        lang: request.lang,
      });
      return { page: toCheckoutPage(page) };
    },

    async submitPayment(request) {
      const outcome = await app.checkout.pay({
        tenantId: request.tenantId,
        webSessionId: request.webSessionId,
        form: request.form,
        lang: request.lang,
      });
      if ('redirectUrl' in outcome) return { redirectUrl: outcome.redirectUrl, page: undefined };
      return { redirectUrl: '', page: toCheckoutPage(outcome.page) };
    },

    async putOffer(request) {
      const offer = await app.publishing.putOffer({
        tenantId: request.tenantId,
        issueId: request.issueId,
        type: request.type,
        name: request.name,
        free: request.free,
        saleMode: fromSaleMode(request.saleMode),
        prices: request.prices.map(fromOfferPrice),
        onSale: request.onSale,
      });
      return { offer: toOffer(offer) };
    },

    async getOffer(request) {
      const offer = await app.publishing.getOffer(request.tenantId, request.issueId);
      return { offer: offer ? toOffer(offer) : undefined };
    },

    async setOfferOnSale(request) {
      return { found: await app.publishing.setOnSale(request.tenantId, request.issueId, request.onSale) };
    },

    async createGrant(request) {
      const grant = await app.publishing.createGrant({
        tenantId: request.tenantId,
        issueId: request.issueId,
        email: request.email,
        expiresAt: request.expiresAt,
      });
      return toGrant(grant);
    },
  };
}
