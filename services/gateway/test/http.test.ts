// The HTTP surface: error bodies for bad input, security headers, request
// ids, health and readiness, the OpenAPI document and the docs page; and the
// pipeline itself, through a small route table of its own.
import SwaggerParser from '@apidevtools/swagger-parser';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../src/app.js';
import { route } from '../src/http/route.js';
import { CLOSED_ADDR, expectNoLeak, gatewayConfig, httpClient, startStack, type HttpClient, type Stack } from './support.js';

describe('HTTP surface', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ gatewayEnv: { BODY_LIMIT: '1kb' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('when the body is malformed JSON, then 400 {message, errors} as the OpenAPI document says', async () => {
    const response = await stack.http.post('/api/v2/login/token/init', { body: '{"email": ' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'The request body is not valid JSON.', errors: {} });
    expectNoLeak(response);
  });

  it('when the body is over the limit, then 413 {message}', async () => {
    const response = await stack.http.post('/api/v2/login/token/init', { body: { email: `${'a'.repeat(2_000)}@example.com` } });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: 'The request body is too large.' });
  });

  it('when the path or method is unknown, then 404 {message}', async () => {
    for (const [method, path] of [
      ['GET', '/api/v2/nothing-here'],
      ['GET', '/'],
      ['DELETE', '/api/v2/user'],
      ['GET', '/api/v3/user'],
    ] as const) {
      const response = await stack.http.send(method, path);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toEqual({ message: 'Not found.' });
    }
  });

  it('when the body is not JSON at all or a JSON array, then 422 rather than 500', async () => {
    const form = await stack.http.post('/api/v2/login/token/init', { body: 'email=a@b.c', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(422);
    expect(form.body.errors).toHaveProperty('email');
    const array = await stack.http.post('/api/v2/auth/refresh', { body: '[]' });
    expect(array.status).toBe(422);
    expect(array.body.errors).toHaveProperty('body');
  });

  it('when a path segment is badly percent-encoded, then 400 and no stack', async () => {
    const response = await stack.http.get('/api/v1/sessions/%E0%A4%A');
    expect([400, 404]).toContain(response.status);
    expectNoLeak(response);
  });

  it('when any response goes out, then it has security headers, no X-Powered-By, and no-store', async () => {
    const response = await stack.http.get('/api/v2/nothing');
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('when X-Request-Id is sane, then it is echoed; otherwise a new one is made', async () => {
    const sane = await stack.http.get('/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(sane.headers['x-request-id']).toBe('abc-123');
    const insane = await stack.http.get('/healthz', { headers: { 'x-request-id': 'a b <script>' } });
    expect(insane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const none = await stack.http.get('/healthz');
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when /healthz is asked, then 200 {status: ok}', async () => {
    const response = await stack.http.get('/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('when upstreams are down, then /readyz stays 200 (the pod can serve) and ?verbose names them', async () => {
    const response = await stack.http.get('/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', checks: { redis: true } });
    const verbose = await stack.http.get('/readyz?verbose');
    expect(verbose.status).toBe(200);
    expect(verbose.body).toEqual({
      status: 'ok',
      checks: { redis: true },
      upstreams: { identity: true, catalog: false, commerce: false, reader: false, notes: false, integrations: false },
    });
  });

  it('when Redis cannot be reached, then /readyz answers 503 and names it', async () => {
    const noRedis = await startGateway(gatewayConfig(CLOSED_ADDR, { REDIS_URL: 'redis://127.0.0.1:1' }));
    try {
      const response = await httpClient(noRedis.url).get('/readyz');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ status: 'unavailable', checks: { redis: false } });
    } finally {
      await noRedis.stop();
    }
  });

  it('when /openapi.json is fetched, then it is a valid OpenAPI 3.1 document with the spec paths', async () => {
    const response = await stack.http.get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(Object.keys(response.body.paths)).toEqual(
      expect.arrayContaining(['/api/v2/tenants', '/api/v1/notes/{id}', '/app/purchase/{issue_id}', '/api/v2/reader/integrations/ai-integrations']),
    );
    await expect(SwaggerParser.validate(response.body)).resolves.toBeTruthy();
  });

  it('when /docs is opened, then it is an HTML page whose scripts are served locally', async () => {
    const page = await stack.http.get('/docs', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('swagger-ui');
    const scripts = [...page.text.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src.startsWith('/')).toBe(true);
      const asset = await stack.http.get(src);
      expect(asset.status, src).toBe(200);
      expect(asset.headers['content-type']).toMatch(/javascript/);
    }
    expect((await stack.http.get('/docs/assets/swagger-ui.css')).status).toBe(200);
    expect((await stack.http.get('/docs/assets/package.json')).status).toBe(404);
    expect((await stack.http.get('/docs/assets/..%2Fpackage.json')).status).toBe(404);
  });
});

describe('the request pipeline', () => {
  let gateway: Gateway;
  let http: HttpClient;

  beforeAll(async () => {
    const routes = [
      route({
        method: 'get',
        path: '/test/echo',
        tag: 'Test',
        summary: 'Echo what the pipeline resolved',
        auth: 'none',
        tenant: 'none',
        uses: ['app-tenant'],
        responses: { 200: { description: 'echo' } },
        handler: async (ctx) => ({
          status: 200,
          body: {
            clientIp: ctx.clientIp,
            lang: ctx.lang,
            appTenantId: ctx.appTenantId,
            appBaseVersion: ctx.appBaseVersion?.toString() ?? null,
            modern: ctx.appBaseVersion?.atLeast('1.28.0') ?? false,
            requestId: ctx.requestId,
          },
        }),
      }),
      route({
        method: 'post',
        path: '/test/boom',
        tag: 'Test',
        summary: 'A handler with a bug',
        auth: 'none',
        tenant: 'none',
        body: z.object({ n: z.number().int() }),
        responses: { 200: { description: 'never' } },
        handler: async () => {
          throw new Error('secret detail at /srv/app.js');
        },
      }),
    ];
    gateway = await startGateway(gatewayConfig(CLOSED_ADDR, { TRUSTED_PROXIES: 'loopback' }), { routes });
    http = httpClient(gateway.url);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('when a loopback proxy forwards a client, then the right-most untrusted X-Forwarded-For entry is the client IP', async () => {
    const direct = await http.get('/test/echo');
    expect(direct.body.clientIp).toBe('127.0.0.1');
    const forwarded = await http.get('/test/echo', { headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' } });
    expect(forwarded.body.clientIp).toBe('203.0.113.7');
  });

  it('when client headers are sent, then handlers see them parsed', async () => {
    const response = await http.get('/test/echo', {
      headers: { 'x-app-lang': 'PT-br', 'x-customapp-tenant-id': '3', 'x-appbase-version': '1.9.0', 'x-request-id': 'req-1' },
    });
    expect(response.body).toEqual({ clientIp: '127.0.0.1', lang: 'pt', appTenantId: 3, appBaseVersion: '1.9.0', modern: false, requestId: 'req-1' });
    const modern = await http.get('/test/echo', { headers: { 'x-appbase-version': '1.28.0' } });
    expect(modern.body).toMatchObject({ lang: 'en', appTenantId: 1, modern: true });
    const invalid = await http.get('/test/echo', { headers: { 'x-appbase-version': 'banana' } });
    expect(invalid.body.appBaseVersion).toBeNull();
    const badTenant = await http.get('/test/echo', { headers: { 'x-customapp-tenant-id': '0' } });
    expect(badTenant.status).toBe(422);
    expect(badTenant.body.errors).toEqual({ 'X-CustomApp-Tenant-Id': ['The X-CustomApp-Tenant-Id header must be a positive integer.'] });
  });

  it('when a handler throws, then 500 with a generic body and nothing of the error', async () => {
    const response = await http.post('/test/boom', { body: { n: 1 } });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ message: 'Internal server error.' });
    expect(response.text).not.toContain('secret');
  });

  it('when identity is unreachable, then authenticated and identity routes answer 503 with Retry-After', async () => {
    const full = await startGateway(gatewayConfig(CLOSED_ADDR));
    try {
      const client = httpClient(full.url);
      const user = await client.get('/api/v2/user', { token: 'a.b.c' });
      expect(user.status).toBe(503);
      expect(Number(user.headers['retry-after'])).toBeGreaterThan(0);
      expect(user.body).toEqual({ message: 'Service temporarily unavailable.' });
      const init = await client.post('/api/v2/login/token/init', { body: { email: 'a@example.com' } });
      expect(init.status).toBe(503);
      const ready = await client.get('/readyz?verbose');
      expect(ready.status).toBe(200);
      expect(ready.body.upstreams.identity).toBe(false);
    } finally {
      await full.stop();
    }
  });
});
