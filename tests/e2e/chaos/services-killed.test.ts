// Each service killed in turn (SIGKILL) under a small load: only the routes
// that need it fail, and only as 503 with Retry-After (never a 500, never a
// reset connection); its routes answer again within 15 s of the service being
// back; what was written before the kill is still there after it. Every
// request misses the gateway's response cache (`uncached`), so that what is
// measured is the services and their breakers, not answers kept from before.
import { uniqueName } from '@folio/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { session, STORE, v2, type ReaderSessionBody } from '../test/reader-helpers.js';
import { clientIp, sharedLogin, type Tokens } from '../test/client.js';
import {
  chaosNote,
  api,
  killService,
  loggedErrors,
  portOpen,
  SERVICE_PORTS,
  startLoad,
  summary,
  until,
  type LoadRoute,
  type Outcome,
  type ServiceName,
  uncached,
} from './stack.js';

let ana: Tokens;
let epub: ReaderSessionBody;

/**
 * One route per service family, each named for what it needs. Every request
 * comes from another client address (198.18.0.0/15, the benchmarking range;
 * the gateway trusts X-Forwarded-For from loopback outside production), so
 * the per-IP limit is not what is measured.
 */
function routes(): LoadRoute[] {
  const jwt = ana.access_token;
  const ip = () => ({ 'x-forwarded-for': `198.18.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}` });
  return [
    { name: 'user', send: () => api('GET', uncached('/api/v2/user'), { token: jwt, headers: ip() }) },
    { name: 'help-subjects', send: () => api('GET', uncached('/api/v2/help'), { token: jwt, headers: ip() }) },
    { name: 'library', send: () => api('GET', uncached('/api/v2/library'), { token: jwt, headers: { ...v2(1), ...ip() } }) },
    { name: 'search', send: () => api('GET', uncached('/api/v2/search/store?query=atlas'), { token: jwt, headers: { ...v2(1), ...ip() } }) },
    { name: 'notes', send: () => api('GET', uncached('/api/v2/reader/notes'), { token: jwt, headers: { ...v2(1, epub.token), ...ip() } }) },
    { name: 'settings', send: () => api('GET', uncached('/api/v2/reader/settings/1001'), { token: jwt, headers: { ...v2(1), ...ip() } }) },
    {
      name: 'translate',
      send: () =>
        api('POST', '/api/v1/integrations/google-translate', {
          headers: { host: STORE[1], 'reader-token': epub.token, ...ip() },
          body: { text: 'El faro está cerca del mar.', target_lang: 'pt' },
        }),
    },
  ];
}

/**
 * The routes a dead service may take down with it (as 503), from the call
 * graph: every other route must keep answering 200.
 */
const CASES: Record<ServiceName, { mayFail: string[] }> = {
  // Store hosts (translate, v1) resolve their tenant through identity when the gateway's cache is cold.
  identity: { mayFail: ['user', 'help-subjects', 'library', 'search', 'settings', 'translate'] },
  catalog: { mayFail: ['library', 'search', 'settings'] },
  commerce: { mayFail: ['library', 'search', 'settings'] },
  reader: { mayFail: ['library', 'notes', 'settings', 'translate'] },
  notes: { mayFail: ['notes'] },
  integrations: { mayFail: ['translate'] },
};

/**
 * Every route answers 200, each asked once: the whole stack is back, breakers
 * closed. Checked before each case too, so that a breaker a case leaves open
 * for its last seconds is never counted against the next service.
 */
async function everyRouteAnswers(): Promise<boolean> {
  const statuses = await Promise.all(routes().map(async (route) => (await route.send()).status));
  return statuses.every((status) => status === 200);
}

describe('a service killed under load', () => {
  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
    epub = await session(ana.access_token, 1, 1001);
  });

  beforeEach(async () => {
    await until(everyRouteAnswers, 15_000, 'every route answering 200 before the kill');
  });

  for (const [service, rules] of Object.entries(CASES) as [ServiceName, (typeof CASES)[ServiceName]][]) {
    it(`when ${service} is killed and comes back, then only its routes fail, as 503 with Retry-After, and they recover within 15 s`, async () => {
      const load = startLoad(routes());
      // A note written before the kill must be there after it.
      const written = await api('POST', '/api/v2/reader/notes', {
        token: ana.access_token,
        headers: { ...v2(1, epub.token), ...clientIp() },
        body: chaosNote(uniqueName('chaos-note')),
      });
      expect(written.status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 1_500));

      const killedAt = Date.now();
      await killService(service);
      // The supervisor restarts it (1 s backoff, then its start-up).
      await until(async () => !(await portOpen(SERVICE_PORTS[service])), 5_000, `${service} down`).catch(() => 0);
      await until(() => portOpen(SERVICE_PORTS[service]), 30_000, `${service} listening again`);
      const backAt = Date.now();
      const timeline = () =>
        `back at +${backAt - killedAt} ms; ` +
        load.outcomes
          .filter((o) => rules.mayFail.includes(o.route) && o.at >= killedAt)
          .map((o) => `${o.route}+${o.at - killedAt}:${o.status}`)
          .join(' ');
      const recoveredIn = await until(everyRouteAnswers, 15_000, `every route answering 200 after ${service} is back`).catch(async (error: Error) => {
        await load.stop();
        throw new Error(`${error.message} (${timeline()})`);
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const outcomes = await load.stop();

      const during = outcomes.filter((outcome) => outcome.at >= killedAt);
      const table = `${JSON.stringify(summary(during))}; logged: ${JSON.stringify(await loggedErrors(killedAt))}`;
      const bad = (outcome: Outcome) => outcome.status !== 200 && outcome.status !== 201;
      // Never a 500 or a broken connection; a failure is a 503 that says when to come back.
      expect(
        during.filter((outcome) => outcome.status === 0 || (outcome.status >= 500 && outcome.status !== 503)),
        table,
      ).toEqual([]);
      expect(
        during.filter((outcome) => outcome.status === 503 && !outcome.retryAfter),
        table,
      ).toEqual([]);
      // Routes that do not need the service never noticed.
      expect(
        during.filter((outcome) => bad(outcome) && !rules.mayFail.includes(outcome.route)),
        table,
      ).toEqual([]);
      // Nothing written before is lost.
      const listed = await api<{ uuid: string }[]>('GET', uncached('/api/v2/reader/notes'), {
        token: ana.access_token,
        headers: { ...v2(1, epub.token), ...clientIp() },
      });
      expect(listed.body.map((one) => one.uuid)).toContain((written.body as { uuid: string }).uuid);
      console.info(
        `${service}: back ${backAt - killedAt} ms after the kill, every route answered 200 ${recoveredIn} ms after that; ${JSON.stringify(summary(during))}`,
      );
    });
  }
});

afterAll(async () => {
  // Leave every service up for whatever runs next.
  for (const port of Object.values(SERVICE_PORTS)) await until(() => portOpen(port), 30_000, `port ${port}`);
});
