// Tenant modes (412), store resolution by Host (404), reader-token presence
// (403), upstream failures (503 while a service is down), and the
// multi-tenant identity routes: tenants, help, push.
import { uniqueEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoLeak, loginThroughGateway, startStack, type Stack, type Tokens } from './support.js';

describe('tenant modes and stores', () => {
  let stack: Stack;
  let tokens: Tokens;

  beforeAll(async () => {
    stack = await startStack();
    tokens = await loginThroughGateway(stack.http, uniqueEmail('gw_tenancy'));
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const get = (path: string, headers: Record<string, string> = {}) => stack.http.get(path, { token: tokens.access_token, headers });

  describe('single-tenant routes', () => {
    it('when X-Svc-Tenant-Id is missing, then 412 says the header is needed', async () => {
      const response = await get('/api/v2/library');
      expect(response.status).toBe(412);
      expect(response.body).toEqual({ message: expect.stringContaining('X-Svc-Tenant-Id') });
    });

    it('when X-Svc-Tenant-Id is not a positive integer, then 412', async () => {
      for (const value of ['abc', '0', '-1', '1.5', '99999999999', '1, 2']) {
        const response = await get('/api/v2/library', { 'x-svc-tenant-id': value });
        expect(response.status, value).toBe(412);
        expect(response.body.message).toMatch(/positive integer/);
      }
    });

    it('when X-Svc-Tenant-Id names no tenant, then 412 says the tenant is unknown', async () => {
      const response = await get('/api/v2/search/store?query=atlas', { 'x-svc-tenant-id': '999' });
      expect(response.status).toBe(412);
      expect(response.body.message).toMatch(/Unknown tenant/);
    });

    it('when everything is in order but the upstream is down, then 503 JSON with Retry-After', async () => {
      const response = await get('/api/v2/library', { 'x-svc-tenant-id': '1' });
      expect(response.status).toBe(503);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.headers['retry-after']).toMatch(/^\d+$/);
      expect(response.body).toEqual({ message: expect.any(String) });
    });

    it('when the request is invalid, then validation runs before any upstream call', async () => {
      const response = await get('/api/v2/library?per_page=0&scope=everything', { 'x-svc-tenant-id': '1' });
      expect(response.status).toBe(422);
      expect(Object.keys(response.body.errors).sort()).toEqual(['per_page', 'scope']);
      const badId = await stack.http.post('/api/v2/library/abc/favorite-issues', { token: tokens.access_token, headers: { 'x-svc-tenant-id': '1' } });
      expect(badId.status).toBe(422);
      expect(badId.body.errors).toHaveProperty('issue_id');
    });

    it('when there is no JWT, then 401 comes before the tenant check', async () => {
      expect((await stack.http.get('/api/v2/library')).status).toBe(401);
    });

    it('when a v2 reader-token route lacks the reader-token, then 403; with it, the reader is asked (down here: 503)', async () => {
      const headers = { 'x-svc-tenant-id': '1' };
      const missing = await get('/api/v2/reader/notes', headers);
      expect(missing.status).toBe(403);
      expect(missing.body).toEqual({ message: expect.stringContaining('reader-token') });
      const present = await get('/api/v2/reader/notes', { ...headers, 'reader-token': 'opaque' });
      expect(present.status).toBe(503);
      const search = await get('/api/v2/reader/issue-text-content?search=abc', { ...headers, 'reader-token': 'opaque' });
      expect(search.status).toBe(422);
      expect(search.body.errors).toHaveProperty('search');
    });
  });

  describe('multi-tenant routes', () => {
    it('when X-Svc-Tenant-Id is sent to /tenants, /user or /help, then 412', async () => {
      for (const path of ['/api/v2/tenants', '/api/v2/user', '/api/v2/help', '/api/v2/user/my-content']) {
        const response = await get(path, { 'x-svc-tenant-id': '1' });
        expect(response.status, path).toBe(412);
        expect(response.body).toEqual({ message: expect.stringContaining('X-Svc-Tenant-Id') });
      }
      const push = await stack.http.post('/api/v2/user/push-notifications', {
        token: tokens.access_token,
        headers: { 'x-svc-tenant-id': '1' },
        body: { fcm_token: 'x' },
      });
      expect(push.status).toBe(412);
    });

    it("when tenants are listed, then tenant objects with cursor meta come back, without the user's own tenant", async () => {
      const response = await get('/api/v2/tenants?per_page=2');
      expect(response.status).toBe(200);
      expect(response.body.meta).toMatchObject({ per_page: 2, prev_cursor: null });
      expect(response.body.data).toHaveLength(2);
      for (const tenant of response.body.data) {
        expect(Object.keys(tenant).sort()).toEqual(['colors', 'country_code', 'country_name', 'domain', 'id', 'logo', 'name']);
        expect(tenant.id).not.toBe(1);
      }
      const next = await get(`/api/v2/tenants?per_page=2&cursor=${encodeURIComponent(response.body.meta.next_cursor)}`);
      expect(next.status).toBe(200);
      const ids = [...response.body.data, ...next.body.data].map((tenant: { id: number }) => tenant.id);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('when a custom app lists tenants, then only its family comes back', async () => {
      const response = await get('/api/v2/tenants', { 'x-customapp-tenant-id': '2' });
      expect(response.status).toBe(200);
      const ids = response.body.data.map((tenant: { id: number }) => tenant.id).sort();
      expect(ids.every((id: number) => [2, 3, 4].includes(id))).toBe(true);
    });

    it('when tenants get bad filters, then 422 names each', async () => {
      const response = await get('/api/v2/tenants?country_code=USA&per_page=0&query=a');
      expect(response.status).toBe(422);
      expect(response.body.message).toBe('The given data was invalid.');
      expect(Object.keys(response.body.errors).sort()).toEqual(['country_code', 'per_page', 'query']);
      const tooMany = await get('/api/v2/tenants?per_page=101');
      expect(tooMany.body.errors.per_page).toEqual(['The per_page field must not be greater than 100.']);
      const notNumber = await get('/api/v2/tenants?per_page=ten');
      expect(notNumber.status).toBe(422);
      expectNoLeak(notNumber);
    });

    it('when help subjects are asked in Spanish, then labels are Spanish', async () => {
      const en = await get('/api/v2/help');
      expect(en.status).toBe(200);
      expect(en.body).toHaveProperty('other', 'Other');
      const es = await get('/api/v2/help', { 'x-app-lang': 'es-AR' });
      expect(es.body.other).not.toBe('Other');
      const unknown = await get('/api/v2/help', { 'x-app-lang': 'klingon' });
      expect(unknown.body).toEqual(en.body);
    });

    it('when a help request is sent, then 201 empty; a short message is 422', async () => {
      const ok = await stack.http.post('/api/v2/help', {
        token: tokens.access_token,
        headers: { 'x-app-version': '3.1.0', 'x-appbase-version': '1.28.0' },
        body: { subject: 'other', message: 'The reader crashes on page 3.', device: 'Pixel 8', so: 'Android 15' },
      });
      expect(ok.status).toBe(201);
      expect(ok.text).toBe('');
      const short = await stack.http.post('/api/v2/help', { token: tokens.access_token, body: { subject: 'other', message: 'help' } });
      expect(short.status).toBe(422);
      expect(short.body.errors).toEqual({ message: ['The message field must be at least 10 characters.'] });
    });

    it('when a push token is registered and removed, then 201 and 204 with empty bodies', async () => {
      const register = await stack.http.post('/api/v2/user/push-notifications', {
        token: tokens.access_token,
        body: { fcm_token: 'fcm-123', device_token: 'device-1', platform: 'android' },
      });
      expect(register.status).toBe(201);
      expect(register.text).toBe('');
      const badPlatform = await stack.http.post('/api/v2/user/push-notifications', {
        token: tokens.access_token,
        body: { fcm_token: 'fcm-123', platform: 'windows' },
      });
      expect(badPlatform.status).toBe(422);
      const missing = await stack.http.post('/api/v2/user/push-notifications', { token: tokens.access_token, body: {} });
      expect(missing.body.errors).toHaveProperty('fcm_token');
      const remove = await stack.http.delete('/api/v2/user/push-notifications', {
        token: tokens.access_token,
        body: { device_token: 'device-1', platform: 'android' },
      });
      expect(remove.status).toBe(204);
    });
  });

  describe('store routes', () => {
    it('when the purchase redirect is valid but commerce is unreachable, then 503 with Retry-After', async () => {
      const response = await stack.http.get(`/app/purchase/1001?token=${tokens.access_token}&app_tenant_id=2`, {
        headers: { host: 'sur.localhost:8080' },
      });
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toMatch(/^\d+$/);
    });

    it('when the purchase redirect has no token or a bad one, then 401', async () => {
      const missing = await stack.http.get('/app/purchase/1001', { headers: { host: 'sur.localhost' } });
      expect(missing.status).toBe(401);
      const bad = await stack.http.get('/app/purchase/1001?token=abc', { headers: { host: 'sur.localhost' } });
      expect(bad.status).toBe(401);
    });

    it("when the Host is no tenant's store, then store routes answer 404", async () => {
      const purchase = await stack.http.get(`/app/purchase/1001?token=${tokens.access_token}`, { headers: { host: 'unknown.localhost:8080' } });
      expect(purchase.status).toBe(404);
      expect(purchase.body).toEqual({ message: expect.any(String) });
      const v1 = await stack.http.get('/api/v1/notes', { headers: { host: 'unknown.localhost', 'reader-token': 'x' } });
      expect(v1.status).toBe(404);
      const ip = await stack.http.get('/api/v1/sessions/abc');
      expect(ip.status).toBe(404);
    });

    it('when a v1 reader-token route lacks the header, then 403; with it, the reader is asked (down here: 503)', async () => {
      const headers = { host: 'sur.localhost' };
      const missing = await stack.http.get('/api/v1/notes', { headers });
      expect(missing.status).toBe(403);
      const present = await stack.http.get('/api/v1/notes', { headers: { ...headers, 'reader-token': 'opaque' } });
      expect(present.status).toBe(503);
      const alias = await stack.http.post('/api/v1/integrations/google-translate', {
        headers: { ...headers, 'reader-token': 'opaque' },
        body: { text: 'hola' },
      });
      expect(alias.status).toBe(503);
      const notText = await stack.http.post('/api/v1/integrations/amazon-polly', {
        headers: { ...headers, 'reader-token': 'opaque' },
        body: { text: 42 },
      });
      expect(notText.status).toBe(422);
    });

    it('when v1 public routes are called on a store, then they validate before asking the reader (down here: 503)', async () => {
      const headers = { host: 'northwind.localhost' };
      expect((await stack.http.post('/api/v1/sessions', { headers, body: {} })).status).toBe(422);
      expect((await stack.http.post('/api/v1/sessions', { headers, body: { token: 'encrypted' } })).status).toBe(503);
      expect((await stack.http.get('/api/v1/issue-text-content/7', { headers })).status).toBe(422);
      expect((await stack.http.get('/api/v1/issue-text-content/7?issue_id=1001', { headers })).status).toBe(503);
    });
  });
});
