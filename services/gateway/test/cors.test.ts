// CORS (http/cors.ts): which origins a tenant allows (the demo's settings
// overlay: Biblioteca Aurora, tenant 4, allows https://reader.aurora.example
// and http://reader.aurora.localhost:*), the development origins outside
// production, preflights with each route's methods and headers, and no
// Access-Control-* header at all for an origin that is not allowed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../src/app.js';
import { originAllowed } from '../src/http/cors.js';
import { gatewayConfig, httpClient, startStack, type HttpClient, type HttpResponse, type Stack } from './support.js';

const AURORA = 'https://reader.aurora.example';
const FOREIGN = 'https://evil.example';
const LOCAL = 'http://127.0.0.1:46677';

function expectNoCors(response: HttpResponse): void {
  for (const name of Object.keys(response.headers)) expect(name, `${name} on an answer to a foreign origin`).not.toMatch(/^access-control-/);
}

describe('originAllowed', () => {
  it('when an origin is matched, then scheme, host and port must match, `:*` standing for any port', () => {
    const patterns = ['https://reader.example', 'http://localhost:*', 'http://app.example:8443'];
    expect(originAllowed('https://reader.example', patterns)).toBe(true);
    expect(originAllowed('HTTPS://Reader.Example', patterns)).toBe(true);
    expect(originAllowed('http://localhost:46677', patterns)).toBe(true);
    expect(originAllowed('http://localhost', patterns)).toBe(true);
    expect(originAllowed('http://app.example:8443', patterns)).toBe(true);
    for (const origin of [
      'http://reader.example',
      'https://reader.example:8443',
      'https://reader.example.evil.example',
      'https://evil-reader.example',
      'http://localhost.evil.example:80',
      'http://app.example',
      'http://evil.localhost:46677',
      'null',
      '',
      'https://reader.example/',
    ]) {
      expect(originAllowed(origin, patterns), origin).toBe(false);
    }
  });
});

describe('CORS', () => {
  let stack: Stack;
  /** A gateway on the same identity with NODE_ENV=production: no development origins. */
  let production: Gateway;
  let prod: HttpClient;

  beforeAll(async () => {
    stack = await startStack({ gatewayEnv: { READER_MEDIA_URL: 'http://127.0.0.1:1' } });
    production = await startGateway(gatewayConfig(stack.identity.address, { NODE_ENV: 'production', READER_MEDIA_URL: 'http://127.0.0.1:1' }));
    prod = httpClient(production.url);
  });
  afterAll(async () => {
    await production?.stop();
    await stack?.stop();
  });

  describe('answers', () => {
    it('when a single-tenant route is called from an origin its tenant allows, then the answer, an error too, names that origin and exposes ETag and Retry-After', async () => {
      const response = await prod.get('/api/v2/library', { headers: { origin: AURORA, 'x-svc-tenant-id': '4' } });
      expect(response.status).toBe(401);
      expect(response.headers['access-control-allow-origin']).toBe(AURORA);
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(response.headers['access-control-expose-headers']).split(', ')).toEqual(expect.arrayContaining(['ETag', 'Retry-After', 'X-Request-Id']));
      expect(response.headers.vary).toMatch(/Origin/);
      expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    });

    it('when the tenant named is one that does not allow the origin, then no Access-Control-* header', async () => {
      const response = await prod.get('/api/v2/library', { headers: { origin: AURORA, 'x-svc-tenant-id': '2' } });
      expect(response.status).toBe(401);
      expectNoCors(response);
      expect(response.headers.vary).toMatch(/Origin/);
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    });

    it('when an origin no tenant allows calls, then nothing is reflected, on any kind of route', async () => {
      for (const [path, headers] of [
        ['/api/v2/library', { 'x-svc-tenant-id': '4' }],
        ['/api/v2/user', {}],
        ['/api/v1/notes', { host: 'aurora.localhost' }],
        ['/openapi.json', {}],
        ['/api/v2/no-such-route', {}],
      ] as const) {
        const response = await stack.http.get(path, { headers: { origin: FOREIGN, ...headers } });
        expectNoCors(response);
      }
    });

    it('when a multi-tenant route or the docs are called from an origin some tenant allows, then it is allowed', async () => {
      for (const path of ['/api/v2/user', '/openapi.json']) {
        const response = await prod.get(path, { headers: { origin: AURORA } });
        expect(response.headers['access-control-allow-origin'], path).toBe(AURORA);
      }
    });

    it('when a store route is called, then the Host names the tenant whose origins count', async () => {
      const aurora = await prod.get('/api/v1/notes', { headers: { origin: AURORA, host: 'aurora.localhost' } });
      expect(aurora.headers['access-control-allow-origin']).toBe(AURORA);
      expectNoCors(await prod.get('/api/v1/notes', { headers: { origin: AURORA, host: 'sur.localhost' } }));
    });

    it('when the gateway is not in production, then http://localhost:* and http://127.0.0.1:* are allowed for every tenant; in production they are not', async () => {
      for (const origin of [LOCAL, 'http://localhost:5173']) {
        const response = await stack.http.get('/api/v2/library', { headers: { origin, 'x-svc-tenant-id': '2' } });
        expect(response.headers['access-control-allow-origin'], origin).toBe(origin);
        expectNoCors(await prod.get('/api/v2/library', { headers: { origin, 'x-svc-tenant-id': '2' } }));
      }
      // Only those two hosts: a *.localhost name is another origin.
      expectNoCors(await stack.http.get('/api/v2/library', { headers: { origin: 'http://evil.localhost:46677', 'x-svc-tenant-id': '2' } }));
    });

    it('when no Origin is sent (apps, e-readers), then no CORS header and no Vary', async () => {
      const response = await stack.http.get('/api/v2/library', { headers: { 'x-svc-tenant-id': '4' } });
      expectNoCors(response);
      expect(response.headers.vary).toBeUndefined();
    });
  });

  describe('preflights', () => {
    const preflight = (http: HttpClient, path: string, method: string, headers: Record<string, string> = {}) =>
      http.send('OPTIONS', path, { headers: { origin: AURORA, 'access-control-request-method': method, ...headers } });

    it("when a preflight asks for a route, then 204 with the path's methods and the headers that route reads", async () => {
      const put = await preflight(prod, '/api/v2/reader/1001/last-location', 'PUT', {
        'access-control-request-headers': 'authorization,if-match,x-svc-tenant-id',
      });
      expect(put.status).toBe(204);
      expect(put.headers['access-control-allow-origin']).toBe(AURORA);
      expect(put.headers['access-control-allow-credentials']).toBeUndefined();
      expect(put.headers['access-control-allow-methods']).toBe('PUT');
      expect(String(put.headers['access-control-allow-headers']).split(', ').sort()).toEqual(
        ['Authorization', 'Content-Type', 'If-Match', 'X-App-Lang', 'X-App-Version', 'X-AppBase-Version', 'X-Request-Id', 'X-Svc-Tenant-Id'].sort(),
      );
      expect(put.headers['access-control-max-age']).toBe('600');

      const get = await preflight(prod, '/api/v2/reader/1001/manifest', 'GET');
      expect(get.headers['access-control-allow-methods']).toBe('GET, HEAD');
      expect(get.headers['access-control-allow-headers']).toMatch(/If-None-Match/);
      expect(get.headers['access-control-allow-headers']).not.toMatch(/If-Match|Content-Type/);

      // A multi-tenant route does not take the tenant header; a v1 route takes the reader-token.
      const user = await preflight(prod, '/api/v2/user', 'GET');
      expect(user.headers['access-control-allow-headers']).toMatch(/Authorization/);
      expect(user.headers['access-control-allow-headers']).not.toMatch(/X-Svc-Tenant-Id/);
      const notes = await preflight(prod, '/api/v1/notes', 'POST', { host: 'aurora.localhost' });
      expect(notes.status).toBe(204);
      expect(notes.headers['access-control-allow-methods']).toBe('GET, HEAD, POST');
      expect(notes.headers['access-control-allow-headers']).toMatch(/reader-token/);
      expect(notes.headers['access-control-allow-headers']).not.toMatch(/Authorization/);
    });

    it('when a preflight comes from an origin that is not allowed, then the plain OPTIONS answer, without any Access-Control-* header', async () => {
      for (const [http, path, headers] of [
        [stack.http, '/api/v2/reader/1001/manifest', { origin: FOREIGN }],
        [prod, '/api/v2/library', { origin: LOCAL }],
        [prod, '/api/v1/notes', { host: 'sur.localhost' }],
      ] as const) {
        const response = await preflight(http, path, 'GET', headers);
        expect(response.status, path).toBe(200);
        expect(response.headers.allow, path).toMatch(/GET/);
        expectNoCors(response);
      }
    });

    it('when a preflight names a path no route has, then it is not answered as CORS', async () => {
      const response = await preflight(prod, '/api/v2/no-such-route', 'GET');
      expect(response.status).toBe(404);
      expectNoCors(response);
    });
  });

  it('when a media file is asked for from any origin, then any origin may read it (the signed URL is the credential) and embed it, errors too', async () => {
    const response = await prod.get('/media/1/1001/package.epub?expires=1&signature=x', { headers: { origin: FOREIGN, range: 'bytes=0-9' } });
    expect(response.status).toBe(503);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(response.headers['access-control-expose-headers']).split(', ')).toEqual(
      expect.arrayContaining(['Accept-Ranges', 'Content-Length', 'Content-Range', 'ETag']),
    );
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});
