// The per-user response cache (http/response-cache.ts) against real Redis,
// RabbitMQ and identity: a repeated read is answered without its handler,
// and every way a user's data can change outdates it: the user's own write
// (through any gateway replica), identity's membership change, and the
// owners' events (access.changed, tenant.updated). A counting route stands
// in for the upstream calls, so the tests see when an answer was computed.
import { Broker, createEvent, ACCESS_CHANGED, ISSUES_CHANGED, TENANT_UPDATED } from '@folio/messaging';
import { startTestIdentity, type TestIdentity } from '@folio/identity/testing';
import { createLogger } from '@folio/logger';
import { testInfra, uniqueEmail, uniqueName, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../src/app.js';
import { route } from '../src/http/route.js';
import { routeTable } from '../src/routes/index.js';
import { gatewayConfig, httpClient, loginThroughGateway, type HttpClient } from './support.js';

let computed = 0;

const counted = route({
  method: 'get',
  path: '/test/counted',
  tag: 'Test',
  summary: 'How many answers were computed, for the signed-in user',
  auth: 'jwt',
  tenant: 'none',
  cachePerUser: true,
  responses: { 200: { description: 'the count' } },
  handler: async ({ user }) => ({ status: 200, body: { user: user.id, computed: ++computed } }),
});

const touch = route({
  method: 'post',
  path: '/test/touch',
  tag: 'Test',
  summary: 'A write of the signed-in user',
  auth: 'jwt',
  tenant: 'none',
  responses: { 204: { description: 'written' } },
  handler: async () => ({ status: 204 }),
});

const ask = route({
  method: 'post',
  path: '/test/ask',
  tag: 'Test',
  summary: 'A request that writes nothing the cached reads show',
  auth: 'jwt',
  tenant: 'none',
  leavesCachedReads: true,
  responses: { 200: { description: 'asked' } },
  handler: async () => ({ status: 200, body: { asked: true } }),
});

const SETTLE_MS = 300;

describe('per-user response cache', () => {
  const versionPrefix = uniqueName('uver');
  const exchanges = { commerce: uniqueName('gw_commerce'), identity: uniqueName('gw_identity'), catalog: uniqueName('gw_catalog') };
  let identity: TestIdentity;
  let replicas: Gateway[] = [];
  let http: HttpClient;
  let other: HttpClient;
  let broker: Broker;

  beforeAll(async () => {
    identity = await startTestIdentity({ namePrefix: 'gw', env: { LOG_LEVEL: 'silent', USER_VERSION_PREFIX: versionPrefix } });
    const config = gatewayConfig(identity.address, {
      AMQP_URL: testInfra().amqpUrl,
      USER_VERSION_PREFIX: versionPrefix,
      COMMERCE_EVENTS_EXCHANGE: exchanges.commerce,
      IDENTITY_EVENTS_EXCHANGE: exchanges.identity,
      CATALOG_EVENTS_EXCHANGE: exchanges.catalog,
      RESPONSE_CACHE_SETTLE_MS: String(SETTLE_MS),
    });
    replicas = [
      await startGateway(config, { routes: [...routeTable, counted, touch, ask] }),
      await startGateway(config, { routes: [...routeTable, counted, touch, ask] }),
    ];
    [http, other] = replicas.map((gateway) => httpClient(gateway.url)) as [HttpClient, HttpClient];
    broker = await Broker.connect(testInfra().amqpUrl, { logger: createLogger({ service: 'test', level: 'silent' }), name: 'gw-response-cache-test' });
  });
  afterAll(async () => {
    await broker?.close();
    for (const gateway of replicas) await gateway.stop();
    await identity?.stop();
  });

  const read = async (client: HttpClient, token: string) => {
    const response = await client.get('/test/counted', { token });
    expect(response.status).toBe(200);
    return response.body as { user: number; computed: number };
  };

  /**
   * Signed in, and read until the answer is cached: the first request verifies
   * the token, the next one stores (once the replica's subscriptions are bound).
   */
  async function cachedReader(client: HttpClient = http) {
    const tokens = await loginThroughGateway(client, uniqueEmail('gw_cache'));
    const stored = await waitFor(async () => {
      const [first, second] = [await read(client, tokens.access_token), await read(client, tokens.access_token)];
      return first.computed === second.computed ? first : undefined;
    });
    return { token: tokens.access_token, stored };
  }

  it('when a user repeats a read, then it is answered from the cache, and another user gets an answer of their own', async () => {
    const ana = await cachedReader();
    const bruno = await cachedReader();
    expect(bruno.stored.user).not.toBe(ana.stored.user);
    expect(await read(http, ana.token)).toEqual(ana.stored);
    expect(await read(http, bruno.token)).toEqual(bruno.stored);
  });

  it('when an answer comes from the cache, then its bytes and content type are those of a computed one', async () => {
    const ana = await cachedReader();
    const cached = await http.get('/test/counted', { token: ana.token });
    expect(cached.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(cached.text).toBe(JSON.stringify(ana.stored));
    expect(cached.headers['content-length']).toBe(String(Buffer.byteLength(cached.text)));
  });

  it('when the user writes through another replica, then the next read on this one is computed again', async () => {
    const { token, stored } = await cachedReader();
    expect((await other.post('/test/touch', { token })).status).toBe(204);
    const after = await read(http, token);
    expect(after.computed).toBeGreaterThan(stored.computed);
  });

  it('when a route leaves the cached reads as they are (a session opened, a translation), then the next read is still cached', async () => {
    const { token, stored } = await cachedReader();
    expect((await other.post('/test/ask', { token })).status).toBe(200);
    expect(await read(http, token)).toEqual(stored);
  });

  it("when identity adds a membership, then the user's next read is computed again", async () => {
    const { token, stored } = await cachedReader();
    let created = false;
    for (let tenantId = 1; tenantId <= 6 && !created; tenantId += 1) {
      created = (await identity.client.ensureMembership({ userId: stored.user, tenantId })).created;
    }
    expect(created).toBe(true);
    expect((await read(http, token)).computed).toBeGreaterThan(stored.computed);
  });

  it('when commerce announces an access change of the user, then the cached read is dropped, and nothing is kept while the services settle', async () => {
    const { token, stored } = await cachedReader();
    await broker.publish(exchanges.commerce, createEvent(ACCESS_CHANGED, { user_id: stored.user }));
    const dropped = await waitFor(async () => {
      const answer = await read(http, token);
      return answer.computed > stored.computed ? answer : undefined;
    });
    // Within the settle time the answers are computed, not stored; after it, kept again.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 50));
    const kept = await read(http, token);
    expect(kept.computed).toBeGreaterThan(dropped.computed);
    expect(await read(http, token)).toEqual(kept);
  });

  it('when identity announces a tenant update, then every multi-tenant answer is dropped', async () => {
    const { token, stored } = await cachedReader();
    await broker.publish(exchanges.identity, createEvent(TENANT_UPDATED, { tenant_id: 3 }));
    await waitFor(async () => ((await read(http, token)).computed > stored.computed ? true : undefined));
  });

  it('when catalog announces that issues of a tenant changed (a publish, a withdrawal), then its cached listings are dropped', async () => {
    const { token, stored } = await cachedReader();
    await broker.publish(exchanges.catalog, createEvent(ISSUES_CHANGED, { tenant_id: 3, issue_ids: [3001] }));
    await waitFor(async () => ((await read(http, token)).computed > stored.computed ? true : undefined));
  });

  it('when the broker cannot be reached, then nothing is answered from the cache', async () => {
    const offline = await startGateway(gatewayConfig(identity.address, { AMQP_URL: 'amqp://guest:guest@127.0.0.1:1', USER_VERSION_PREFIX: versionPrefix }), {
      routes: [...routeTable, counted],
    });
    try {
      const client = httpClient(offline.url);
      const tokens = await loginThroughGateway(client, uniqueEmail('gw_cache_offline'));
      const answers = [];
      for (let i = 0; i < 3; i += 1) answers.push((await read(client, tokens.access_token)).computed);
      expect(new Set(answers).size).toBe(3);
    } finally {
      await offline.stop();
    }
  });
});
