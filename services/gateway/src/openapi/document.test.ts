import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../routes/index.js';
import { buildOpenApiDocument } from './document.js';

/** Every endpoint of the interface spec, as "METHOD path". */
const SPEC_ENDPOINTS = [
  'POST /api/v2/login/token/init',
  'POST /api/v2/login/token/validate',
  'POST /api/v2/login/social/{provider}',
  'POST /api/v2/auth/refresh',
  'GET /api/v2/auth/session/validate',
  'GET /api/v2/logout',
  'GET /api/v2/user',
  'GET /api/v2/user/continue-reading',
  'GET /api/v2/user/my-content',
  'POST /api/v2/user/push-notifications',
  'DELETE /api/v2/user/push-notifications',
  'GET /api/v2/tenants',
  'GET /api/v2/library',
  'GET /api/v2/library/filter',
  'GET /api/v2/library/{issue_id}/favorite-issues',
  'POST /api/v2/library/{issue_id}/favorite-issues',
  'GET /api/v2/search/store',
  'GET /api/v2/search/global',
  'POST /api/v2/reader/{issue_id}/sessions',
  'GET /api/v2/reader/settings/{issue_id}',
  'PUT /api/v2/reader/settings',
  'PUT /api/v2/reader/{issue_id}/last-location',
  'GET /api/v2/content/{issue_id}/download',
  'GET /api/v2/reader/issue-text-content',
  'GET /api/v2/reader/notes',
  'POST /api/v2/reader/notes',
  'PUT /api/v2/reader/notes/{note_id}',
  'DELETE /api/v2/reader/notes/{note_id}',
  'POST /api/v2/reader/integrations/translate',
  'POST /api/v2/reader/integrations/listen',
  'POST /api/v2/reader/integrations/dictionary',
  'GET /api/v2/reader/integrations/ai-integrations',
  'POST /api/v2/reader/integrations/ai-integrations',
  'PUT /api/v2/reader/integrations/ai-integrations',
  'GET /app/purchase/{issue_id}',
  'GET /api/v2/help',
  'POST /api/v2/help',
  'POST /api/v1/sessions',
  'GET /api/v1/sessions/{id}',
  'DELETE /api/v1/sessions/{id}',
  'GET /api/v1/notes',
  'POST /api/v1/notes',
  'GET /api/v1/notes/{id}',
  'PATCH /api/v1/notes/{id}',
  'DELETE /api/v1/notes/{id}',
  'GET /api/v1/issue-text-content',
  'GET /api/v1/issue-text-content/{id}',
  'POST /api/v1/integrations/translate',
  'POST /api/v1/integrations/google-translate',
  'POST /api/v1/integrations/listen',
  'POST /api/v1/integrations/amazon-polly',
  'POST /api/v1/integrations/dictionary',
  'GET /api/v1/integrations/ai-integrations',
  'POST /api/v1/integrations/ai-integrations',
  'PUT /api/v1/integrations/ai-integrations',
];

// Beyond the spec: the web checkout the purchase redirect leads to (commerce's server-rendered pages).
const WEB_CHECKOUT = ['GET /app/checkout', 'POST /app/checkout/pay'];

// Beyond the spec: the open reading ecosystem (OPDS, KOReader sync, Readium manifests, annotation export).
const READING_ECOSYSTEM = [
  'GET /api/v2/user/annotations/export',
  'GET /api/v2/reader/{issue_id}/manifest',
  'GET /api/v2/reader/{issue_id}/positions',
  'POST /api/v2/user/device-keys',
  'GET /api/v2/user/device-keys',
  'DELETE /api/v2/user/device-keys/{id}',
  ...['v2', 'v1.2'].flatMap((version) => ['catalog', 'publications', 'search', 'shelf'].map((feed) => `GET /opds/${version}/${feed}`)),
  'GET /opds/v2/authentication',
  'GET /opds/v1.2/opensearch.xml',
  'GET /opds/download/{issue_id}',
  'GET /opds/v2/publications/{issue_id}/progression',
  'PUT /opds/v2/publications/{issue_id}/progression',
  'POST /kosync/users/create',
  'GET /kosync/users/auth',
  'PUT /kosync/syncs/progress',
  'GET /kosync/syncs/progress/{document}',
  'GET /kosync/healthcheck',
];

// Beyond the spec: the publisher API (staff JWT or publisher API key, one tenant).
const PUBLISHER = [
  'POST /api/v2/publisher/issues',
  'GET /api/v2/publisher/issues',
  'GET /api/v2/publisher/issues/{issue_id}',
  'PATCH /api/v2/publisher/issues/{issue_id}',
  'DELETE /api/v2/publisher/issues/{issue_id}',
  'POST /api/v2/publisher/issues/{issue_id}/publish',
  'POST /api/v2/publisher/issues/{issue_id}/withdraw',
  'PUT /api/v2/publisher/issues/{issue_id}/content',
  'GET /api/v2/publisher/issues/{issue_id}/content',
  'PUT /api/v2/publisher/issues/{issue_id}/offer',
  'GET /api/v2/publisher/issues/{issue_id}/offer',
  'POST /api/v2/publisher/grants',
  'POST /api/v2/publisher/api-keys',
  'GET /api/v2/publisher/api-keys',
  'DELETE /api/v2/publisher/api-keys/{key_id}',
  'GET /api/v2/publisher/staff',
  'PUT /api/v2/publisher/staff',
  'GET /api/v2/publisher/audit-log',
];

const SINGLE_TENANT_PREFIXES = ['/api/v2/publisher', '/api/v2/library', '/api/v2/search/store', '/api/v2/reader', '/api/v2/content'];
const MULTI_TENANT = ['/api/v2/user', '/api/v2/search/global', '/api/v2/help', '/api/v2/tenants'];

describe('route table and OpenAPI document', () => {
  const document = buildOpenApiDocument(routeTable, { serverUrl: 'http://127.0.0.1:8080' });
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item as object)
      .filter((key) => ['get', 'post', 'put', 'patch', 'delete'].includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

  it('when generated, then it documents every endpoint of the spec and the web checkout, nothing else', () => {
    expect([...operations].sort()).toEqual([...SPEC_ENDPOINTS, ...WEB_CHECKOUT, ...READING_ECOSYSTEM, ...PUBLISHER].sort());
  });

  it('when each route is declared, then it is declared exactly once', () => {
    const keys = routeTable.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('when generated, then it is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('when a route is single- or multi-tenant, then the table says so as the spec lists it', () => {
    for (const route of routeTable) {
      if (!route.path.startsWith('/api/v2/')) continue;
      if (MULTI_TENANT.some((prefix) => route.path.startsWith(prefix))) expect(route.tenant, route.path).toBe('multi');
      else if (SINGLE_TENANT_PREFIXES.some((prefix) => route.path.startsWith(prefix))) expect(route.tenant, route.path).toBe('single');
      else expect(route.tenant, route.path).toBe('none');
    }
  });

  it('when a route is authenticated, then its security and 401/403/412 responses are documented', () => {
    const op = (path: string, method: string) => (document.paths![path] as Record<string, any>)[method];
    expect(op('/api/v2/user', 'get').security).toEqual([{ bearerAuth: [] }]);
    expect(op('/api/v2/user', 'get').responses['401']).toBeDefined();
    expect(op('/api/v2/reader/notes', 'get').security).toEqual([{ bearerAuth: [], readerToken: [] }]);
    expect(op('/api/v1/notes', 'get').security).toEqual([{ readerToken: [] }]);
    expect(op('/api/v1/notes', 'get').responses['403']).toBeDefined();
    expect(op('/api/v2/library', 'get').parameters).toContainEqual({ $ref: '#/components/parameters/SvcTenantId' });
    expect(op('/api/v2/library', 'get').responses['412']).toBeDefined();
    expect(op('/api/v2/library', 'get').responses['503']).toBeDefined();
    expect(op('/api/v2/auth/refresh', 'post').responses['429'].headers['Retry-After']).toBeDefined();
    expect(document.components?.securitySchemes).toHaveProperty('bearerAuth');
    expect(document.components?.securitySchemes).toHaveProperty('readerToken');
  });
});
