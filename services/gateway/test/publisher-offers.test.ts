// The publisher API's offer and grant routes against catalog and commerce
// stand-ins, with the real identity behind the API key and the audit log:
// what each route sends to commerce (the issue's type and name, on sale only
// when the issue is published, the sale mode, the discount as given), how it
// renders commerce's answers, and how unknown issues and bad bodies answer.
// Commerce's own rules are its component test's (services/commerce/test/publishing.test.ts).
import { DomainError, invalidArgument, notFound } from '@folio/errors';
import { startGrpcServer, type GrpcServer, type ServiceHandlers } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { catalog, commerce } from '@folio/proto';
import { unimplementedHandlers } from '@folio/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectNoLeak, fromIp, startStack, type Stack } from './support.js';

const TENANT = 1;

const issue = (id: number, state: catalog.IssueState): catalog.PublisherIssue => ({
  id,
  tenantId: TENANT,
  name: `Issue ${id}`,
  slug: `issue-${id}`,
  type: 'epub',
  authors: [],
  publisher: '',
  lang: 'en',
  description: '',
  bisac: '',
  externalId: '',
  publishedAt: '2026-01-01T00:00:00Z',
  collections: [],
  state,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  accessibility: undefined,
});
const ISSUES = new Map([
  [7001, issue(7001, catalog.IssueState.ISSUE_STATE_DRAFT)],
  [7002, issue(7002, catalog.IssueState.ISSUE_STATE_PUBLISHED)],
]);

const OFFER: commerce.Offer = {
  issueId: 7002,
  tenantId: TENANT,
  free: false,
  saleMode: commerce.SaleMode.SALE_MODE_PAY_PER_USE,
  prices: [
    { currency: 'USD', amount: 9.99, discount: { amount: 7.99, percentage: 20, endsAt: '2031-01-01T00:00:00Z' } },
    { currency: 'EUR', amount: 8, discount: undefined },
  ],
  onSale: true,
  updatedAt: '2026-12-03T10:00:00Z',
};
const OFFER_WIRE = {
  issue_id: 7002,
  free: false,
  sale_mode: 'pay_per_use',
  prices: [
    { currency: 'USD', amount: 9.99, discount: { amount: 7.99, percentage: 20, ends_at: '2031-01-01T00:00:00Z' } },
    { currency: 'EUR', amount: 8, discount: null },
  ],
  on_sale: true,
  updated_at: '2026-12-03T10:00:00Z',
};

describe('publisher offer and grant routes', () => {
  let stack: Stack;
  let catalogServer: GrpcServer;
  let commerceServer: GrpcServer;
  let key: string;
  const calls: Record<string, unknown[]> = {};
  let answer: { offer?: commerce.Offer; error?: DomainError } = {};

  beforeAll(async () => {
    const logger = createLogger({ service: 'stand-in', level: 'silent' });
    const catalogHandlers: ServiceHandlers<typeof catalog.CatalogServiceService> = {
      ...unimplementedHandlers(catalog.CatalogServiceService, 'never'),
      async getPublisherIssue(request) {
        const found = request.tenantId === TENANT ? ISSUES.get(request.issueId) : undefined;
        if (!found) throw notFound('Issue not found.');
        return { issue: found };
      },
    };
    const recorded = (method: string, request: unknown) => {
      (calls[method] ??= []).push(request);
      if (answer.error) throw answer.error;
    };
    const commerceHandlers: ServiceHandlers<typeof commerce.CommerceServiceService> = {
      ...unimplementedHandlers(commerce.CommerceServiceService, 'never'),
      async putOffer(request) {
        recorded('putOffer', request);
        return { offer: answer.offer ?? OFFER };
      },
      async getOffer(request) {
        recorded('getOffer', request);
        return { offer: answer.offer };
      },
      async createGrant(request) {
        recorded('createGrant', request);
        return {
          grantId: `admin:${request.email}:${request.issueId}`,
          issueId: request.issueId,
          email: request.email.toLowerCase(),
          expiresAt: request.expiresAt,
          createdAt: '2026-12-03T10:00:00Z',
        };
      },
    };
    catalogServer = await startGrpcServer({
      logger,
      port: 0,
      host: '127.0.0.1',
      services: [{ name: 'svc.catalog.v1.CatalogService', definition: catalog.CatalogServiceService, handlers: catalogHandlers }],
    });
    commerceServer = await startGrpcServer({
      logger,
      port: 0,
      host: '127.0.0.1',
      services: [{ name: 'svc.commerce.v1.CommerceService', definition: commerce.CommerceServiceService, handlers: commerceHandlers }],
    });
    stack = await startStack({ gatewayEnv: { CATALOG_ADDR: `127.0.0.1:${catalogServer.port}`, COMMERCE_ADDR: `127.0.0.1:${commerceServer.port}` } });
    const created = await stack.identity.client.createPublisherApiKey({ tenantId: TENANT, name: 'gateway offers test', createdByUserId: 0 });
    key = created.key;
  });
  afterAll(async () => {
    await stack?.stop();
    await catalogServer?.shutdown(1_000);
    await commerceServer?.shutdown(1_000);
  });
  beforeEach(() => {
    answer = {};
    for (const method of Object.keys(calls)) delete calls[method];
  });

  const headers = { 'x-svc-tenant-id': String(TENANT), ...fromIp(71) };
  const put = (issueId: number | string, body: unknown) => stack.http.put(`/api/v2/publisher/issues/${issueId}/offer`, { token: key, headers, body });
  const auditActions = async () =>
    (await stack.identity.client.listAuditEntries({ tenantId: TENANT, page: 1, perPage: 100 })).entries.map((entry) => ({
      action: entry.action,
      target: entry.target,
      details: JSON.parse(entry.detailsJson) as unknown,
    }));

  describe('PUT /issues/{id}/offer', () => {
    it('when a published issue is priced, then commerce gets its type, name, on_sale true and the discount as given, and the offer is rendered', async () => {
      const body = {
        free: false,
        sale_mode: 'pay_per_use',
        prices: [
          { currency: 'USD', amount: 9.99, discount: { percentage: 20, ends_at: '2031-01-01T00:00:00Z' } },
          { currency: 'EUR', amount: 8 },
        ],
      };
      const response = await put(7002, body);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual(OFFER_WIRE);
      expect(calls.putOffer).toEqual([
        {
          tenantId: TENANT,
          issueId: 7002,
          type: 'epub',
          name: 'Issue 7002',
          free: false,
          saleMode: commerce.SaleMode.SALE_MODE_PAY_PER_USE,
          prices: [
            { currency: 'USD', amount: 9.99, discount: { amount: undefined, percentage: 20, endsAt: '2031-01-01T00:00:00Z' } },
            { currency: 'EUR', amount: 8, discount: undefined },
          ],
          onSale: true,
        },
      ]);
      expect(await auditActions()).toContainEqual({ action: 'offer.put', target: 'issue:7002', details: body });
    });

    it('when a draft is priced, then it is not put on sale', async () => {
      answer.offer = { ...OFFER, issueId: 7001, onSale: false, saleMode: commerce.SaleMode.SALE_MODE_SUBSCRIPTION, prices: [] };
      const response = await put(7001, { free: true, sale_mode: 'subscription', prices: [] });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({ issue_id: 7001, sale_mode: 'subscription', on_sale: false, prices: [] });
      expect(calls.putOffer).toEqual([expect.objectContaining({ onSale: false, free: true, saleMode: commerce.SaleMode.SALE_MODE_SUBSCRIPTION })]);
    });

    it('when the issue is not in the store, then 404 and commerce is not asked', async () => {
      const response = await put(7999, { free: true, sale_mode: 'individual', prices: [] });
      expect(response.status).toBe(404);
      expect(calls.putOffer).toBeUndefined();
    });

    it('when the body has the wrong shape, then 422 names the fields as sent', async () => {
      const response = await put(7002, { free: 'no', sale_mode: 'rental', prices: [{ currency: 'USD', amount: '5', discount: { percent: 5 } }] });
      expect(response.status).toBe(422);
      expect(Object.keys(response.body.errors)).toEqual(expect.arrayContaining(['free', 'sale_mode', 'prices.0.amount', 'prices.0.discount']));
      expect(calls.putOffer).toBeUndefined();
      expectNoLeak(response);
    });

    it("when commerce refuses a price, then its field errors are the 422's", async () => {
      answer.error = invalidArgument('The given data was invalid.', {
        'prices.0.currency': ['The currency must be an ISO 4217 code in upper case, such as USD or EUR.'],
      });
      const response = await put(7002, { free: false, sale_mode: 'individual', prices: [{ currency: 'usd', amount: 5 }] });
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual({ 'prices.0.currency': ['The currency must be an ISO 4217 code in upper case, such as USD or EUR.'] });
    });
  });

  describe('GET /issues/{id}/offer', () => {
    it('when the issue has an offer, then it is rendered; without one, 404', async () => {
      answer.offer = OFFER;
      const found = await stack.http.get('/api/v2/publisher/issues/7002/offer', { token: key, headers });
      expect(found.status).toBe(200);
      expect(found.body).toEqual(OFFER_WIRE);
      answer.offer = undefined;
      const none = await stack.http.get('/api/v2/publisher/issues/7001/offer', { token: key, headers });
      expect(none.status).toBe(404);
      expect(none.body.message).toContain('no offer');
    });
  });

  describe('POST /grants', () => {
    it('when an e-mail is granted an issue, then 201 with the grant, and the audit log has it', async () => {
      const response = await stack.http.post('/api/v2/publisher/grants', {
        token: key,
        headers,
        body: { email: 'Reader@Example.com', issue_id: 7001, expires_at: '2031-01-01T00:00:00Z' },
      });
      expect(response.status, response.text).toBe(201);
      expect(response.body).toEqual({
        id: 'admin:Reader@Example.com:7001',
        issue_id: 7001,
        email: 'reader@example.com',
        expires_at: '2031-01-01T00:00:00Z',
        created_at: '2026-12-03T10:00:00Z',
      });
      expect(calls.createGrant).toEqual([{ tenantId: TENANT, issueId: 7001, email: 'Reader@Example.com', expiresAt: '2031-01-01T00:00:00Z' }]);
      expect(await auditActions()).toContainEqual({
        action: 'grant.create',
        target: 'issue:7001',
        details: { email: 'reader@example.com', expires_at: '2031-01-01T00:00:00Z' },
      });
    });

    it('when the issue is unknown or the e-mail is not one, then 404 or 422, and commerce is not asked', async () => {
      const unknown = await stack.http.post('/api/v2/publisher/grants', { token: key, headers, body: { email: 'reader@example.com', issue_id: 7999 } });
      expect(unknown.status).toBe(404);
      const bad = await stack.http.post('/api/v2/publisher/grants', { token: key, headers, body: { email: 'nope', issue_id: 7001 } });
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.errors)).toEqual(['email']);
      expect(calls.createGrant).toBeUndefined();
    });

    it('when there is no credential, then 401', async () => {
      const response = await stack.http.post('/api/v2/publisher/grants', { headers, body: { email: 'reader@example.com', issue_id: 7001 } });
      expect(response.status).toBe(401);
    });
  });
});
