// The gateway authenticates from Redis: identity writes each session's
// liveness key, the gateway reads it in the request's one Redis round trip,
// and asks identity (CheckSession) only when the key is missing. Identity is
// reached through a cuttable proxy to show which requests need it.
import { Redis } from 'ioredis';
import { startTestIdentity, type TestIdentity } from '@folio/identity/testing';
import { startTcpProxy, testInfra, uniqueEmail, type TcpProxy } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../src/app.js';
import { route } from '../src/http/route.js';
import { routeTable } from '../src/routes/index.js';
import { flipS } from '@folio/crypto';
import { fromIp, gatewayConfig, httpClient, loginThroughGateway, type HttpClient } from './support.js';

const INVALID = { message: 'The given data was invalid.' };

const whoami = route({
  method: 'get',
  path: '/test/whoami',
  tag: 'Test',
  summary: 'The authenticated user, without any upstream call',
  auth: 'jwt',
  tenant: 'none',
  responses: { 200: { description: 'the user' } },
  handler: async ({ user }) => ({ status: 200, body: user }),
});

describe('session liveness from Redis', () => {
  let identity: TestIdentity;
  let proxy: TcpProxy;
  let gateway: Gateway;
  let http: HttpClient;
  const redis = new Redis(testInfra().redisUrl);

  beforeAll(async () => {
    identity = await startTestIdentity({ namePrefix: 'gw', env: { LOG_LEVEL: 'silent', SESSION_LIMIT: '1' } });
    const [host, port] = identity.address.split(':') as [string, string];
    proxy = await startTcpProxy(host, Number(port));
    // The breaker stays closed through the cut: this file is about auth, not breakers.
    gateway = await startGateway(gatewayConfig(`127.0.0.1:${proxy.port}`, { BREAKER_VOLUME_THRESHOLD: '100000' }), {
      routes: [...routeTable, whoami],
    });
    http = httpClient(gateway.url);
  });
  afterAll(async () => {
    await gateway?.stop();
    await proxy?.close();
    await identity?.stop();
    await redis.quit();
  });

  const keyOf = (token: string) => `${identity.config.SESSION_LIVENESS_PREFIX}:${JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti}`;
  const me = (token: string) => http.get('/test/whoami', { token });

  it('when the liveness key is missing, then the gateway asks identity once and identity writes the key again', async () => {
    const email = uniqueEmail('gw_live_miss');
    const tokens = await loginThroughGateway(http, email);
    await redis.del(keyOf(tokens.access_token));

    const response = await me(tokens.access_token);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ email, admin: false });
    expect(JSON.parse((await redis.get(keyOf(tokens.access_token)))!)).toMatchObject({ e: email });
  });

  it('when the user logs out, then the very next request is refused from the tombstone', async () => {
    const tokens = await loginThroughGateway(http, uniqueEmail('gw_live_logout'));
    expect((await me(tokens.access_token)).status).toBe(200);
    expect((await http.get('/api/v2/logout', { token: tokens.access_token })).status).toBeLessThan(300);
    expect(await redis.get(keyOf(tokens.access_token))).toBe('-');
    const after = await me(tokens.access_token);
    expect(after.status).toBe(401);
    expect(after.body).toEqual(INVALID);
  });

  it('when a login evicts the previous session, then that token is refused at once, and validate says 409', async () => {
    const email = uniqueEmail('gw_live_evict');
    const first = await loginThroughGateway(http, email);
    expect((await me(first.access_token)).status).toBe(200);
    const second = await loginThroughGateway(http, email);
    expect((await me(first.access_token)).status).toBe(401);
    expect((await http.get('/api/v2/auth/session/validate', { token: first.access_token })).status).toBe(409);
    expect((await me(second.access_token)).status).toBe(200);
  });

  it('when a refresh rotates the session, then the old token is refused and the new one served from Redis', async () => {
    const tokens = await loginThroughGateway(http, uniqueEmail('gw_live_rotate'));
    const renewed = await http.post('/api/v2/auth/refresh', { body: { refresh_token: tokens.refresh_token }, headers: fromIp(60) });
    expect(renewed.status).toBe(200);
    expect((await me(tokens.access_token)).status).toBe(401);
    expect(await redis.get(keyOf(renewed.body.access_token))).not.toBeNull();
    expect((await me(renewed.body.access_token)).status).toBe(200);
  });

  it('when 100 refreshes of one token race from 100 addresses, then exactly one gets 200 and the others 401', async () => {
    const tokens = await loginThroughGateway(http, uniqueEmail('gw_live_race'));
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => http.post('/api/v2/auth/refresh', { body: { refresh_token: tokens.refresh_token }, headers: fromIp(101 + i) })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(99);
  });

  it("when a token's signature is malleated (s → n - s, or a changed padding bit), then 401", async () => {
    const tokens = await loginThroughGateway(http, uniqueEmail('gw_live_malleable'));
    expect((await me(tokens.access_token)).status).toBe(200);
    const highS = await me(flipS(tokens.access_token));
    expect(highS.status).toBe(401);
    expect(highS.body).toEqual(INVALID);
    // 64 bytes take 86 characters: the last carries 4 spare bits.
    const last = tokens.access_token.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sameBytes = alphabet[alphabet.indexOf(last) ^ 1]!;
    expect((await me(tokens.access_token.slice(0, -1) + sameBytes)).status).toBe(401);
  });

  it('when a token is 16 KB long, then 401 with the usual body; a header past 64 KB is a 431 with a JSON body', async () => {
    const long = await me(`${'a'.repeat(8_000)}.${'b'.repeat(8_000)}.${'c'.repeat(400)}`);
    expect(long.status).toBe(401);
    expect(long.body).toEqual(INVALID);
    const huge = await me('x'.repeat(70_000));
    expect(huge.status).toBe(431);
    expect(huge.body).toEqual({ message: 'Request header fields too large.' });
  });

  // Last: it cuts identity off.
  it('when identity cannot be reached, then live sessions are still served from Redis, and only a missing key needs identity (503)', async () => {
    const email = uniqueEmail('gw_live_cut');
    const tokens = await loginThroughGateway(http, email);
    const other = await loginThroughGateway(http, uniqueEmail('gw_live_cut2'));
    await proxy.cut();
    try {
      const served = await me(tokens.access_token);
      expect(served.status).toBe(200);
      expect(served.body).toMatchObject({ email });
      await redis.del(keyOf(other.access_token));
      const unknown = await me(other.access_token);
      expect(unknown.status).toBe(503);
      expect(Number(unknown.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await proxy.restore();
    }
  });
});
