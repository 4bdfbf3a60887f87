// Infrastructure restarted under use: RabbitMQ while help and account-deletion
// requests pour in (none lost, none applied twice: each is one e-mail), Redis
// (the written policy: the per-IP limit fails open, the limits that protect
// logins and payments fail closed, sessions are checked with identity; back
// without a gateway restart), and the document store (503s, never a 500;
// back without restarting a service).
import { createLogger } from '@folio/logger';
import { Broker } from '@folio/messaging';
import { emailsTo, testInfra, uniqueEmail, uniqueName } from '@folio/testing';
import { describe, expect, it } from 'vitest';
import { clientIp, loginByEmail, sharedLogin, type Tokens } from '../test/client.js';
import { session, v2 } from '../test/reader-helpers.js';
import { api, loggedErrors, restartInfra, sleep, startLoad, summary, until, type LoadRoute } from './stack.js';

const SUPPORT = 'support@folio.localhost';
const ip = () => ({ 'x-forwarded-for': `198.19.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}` });

/** Runs `task` over `items`, `concurrency` at a time. */
async function pool<T, R>(items: T[], concurrency: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]!, index);
      }
    }),
  );
  return results;
}

describe('infrastructure restarted under use', () => {
  it(
    'when RabbitMQ restarts while 500 help requests, 500 account deletions and 500 push registrations arrive, then every one is carried out exactly once',
    { timeout: 600_000 },
    async () => {
      const run = uniqueName('chaos');
      const HELP = 500;
      const LEAVING = 500;
      const PUSH = 500;
      const leaving = await pool(
        Array.from({ length: LEAVING }, (_, n) => uniqueEmail(`chaos-leaving-${n}`)),
        8,
        async (email) => ({ email, tokens: await loginByEmail(email) }),
      );
      const ana = await sharedLogin('ana@example.com');
      // push.registered has no consumer in the platform (a push provider's bridge would be one): a durable
      // queue of this test's own, bound before the restart, receives them as such a consumer would.
      const pushQueue = `${run}.push-registered`;
      const broker = await Broker.connect(testInfra().amqpUrl, { logger: createLogger({ service: 'chaos', level: 'silent' }), name: 'chaos-push' });
      const setup = await broker.createChannel();
      await setup.assertExchange('identity.events', 'topic', { durable: true });
      await setup.assertQueue(pushQueue, { durable: true });
      await setup.bindQueue(pushQueue, 'identity.events', 'push.registered');
      await setup.close();

      const restarting = sleep(500).then(() => restartInfra('rabbitmq'));
      const requests = [
        ...Array.from(
          { length: HELP },
          (_, n) => () =>
            api('POST', '/api/v2/help', {
              token: ana.access_token,
              headers: ip(),
              body: { subject: 'missing-issues', message: `${run} help ${n} of ${HELP}` },
            }),
        ),
        ...leaving.map(
          ({ tokens }, n) =>
            () =>
              api('POST', '/api/v2/help', {
                token: tokens.access_token,
                headers: ip(),
                body: { subject: 'delete-account-and-data', message: `${run} leaving ${n}` },
              }),
        ),
        ...Array.from(
          { length: PUSH },
          (_, n) => () =>
            api('POST', '/api/v2/user/push-notifications', {
              token: ana.access_token,
              headers: ip(),
              body: { fcm_token: `${run}-fcm-${n}`, device_token: `${run}-device-${n}`, platform: 'android' },
            }),
        ),
      ].sort(() => Math.random() - 0.5);
      const answers = await pool(requests, 8, (send) => send());
      await restarting;

      // The outbox takes every request while the broker is away.
      expect(summary(answers.map((answer) => ({ route: 'accepted', at: 0, status: answer.status, retryAfter: null })))).toEqual({
        accepted: { 201: HELP + LEAVING + PUSH },
      });

      // Each request is one e-mail to support: none lost, none twice.
      const markers = async () =>
        (await emailsTo(SUPPORT)).flatMap((mail) => mail.text.match(new RegExp(`${run} (help \\d+ of ${HELP}|leaving \\d+)`, 'g')) ?? []);
      const sentAt = Date.now();
      await until(async () => (await markers()).length >= HELP + LEAVING, 240_000, 'every help e-mail');
      console.info(
        `rabbitmq restart: ${HELP + LEAVING + PUSH} requests accepted, the ${HELP + LEAVING} e-mails all sent ${Date.now() - sentAt} ms after the last answer`,
      );
      await sleep(2_000); // a duplicate would arrive just after
      const seen = await markers();
      expect(seen.length).toBe(HELP + LEAVING);
      expect(new Set(seen).size).toBe(HELP + LEAVING);

      // Every registration announced, each by one event (a redelivery repeats its id, never a second event).
      const eventsByToken = new Map<string, Set<string>>();
      const consumer = await broker.createChannel();
      try {
        await until(
          async () => {
            for (;;) {
              const message = await consumer.get(pushQueue, { noAck: true });
              if (!message) break;
              const event = JSON.parse(message.content.toString()) as { id: string; payload: { fcm_token: string } };
              const ids = eventsByToken.get(event.payload.fcm_token) ?? new Set<string>();
              eventsByToken.set(event.payload.fcm_token, ids.add(event.id));
            }
            return eventsByToken.size >= PUSH;
          },
          120_000,
          'every push.registered event',
        );
        expect(eventsByToken.size).toBe(PUSH);
        expect([...eventsByToken.values()].filter((ids) => ids.size !== 1)).toEqual([]);
        await consumer.deleteQueue(pushQueue);
      } finally {
        await consumer.close().catch(() => {});
        await broker.close();
      }

      // Every account asked to be deleted is gone, its session with it. Asked 8 at a time: 500 at once
      // queued up at identity's CheckSession past the gateway's deadline and left that breaker open for
      // the next case, which is not what this case checks.
      await until(
        async () =>
          (await pool(leaving, 8, ({ tokens }) => api('GET', '/api/v2/user', { token: tokens.access_token, headers: ip() }))).every((r) => r.status === 401),
        60_000,
        'every leaving account erased',
      );
    },
  );

  it('when Redis restarts, then sessions are checked with identity, the per-IP limit fails open, the refresh limit fails closed, and all is back without a gateway restart', async () => {
    const user: Tokens = await loginByEmail(uniqueEmail('chaos-redis'));
    const routes: LoadRoute[] = [
      { name: 'user', send: () => api('GET', '/api/v2/user', { token: user.access_token, headers: ip() }) },
      { name: 'library', send: () => api('GET', '/api/v2/library', { token: user.access_token, headers: { ...v2(1), ...ip() } }) },
    ];
    const load = startLoad(routes, { concurrency: 2, pauseMs: 50 });
    const restarting = restartInfra('redis');
    // While Redis is down or starting: a refresh is refused with 503 (its limit cannot be counted), never 5xx otherwise.
    const duringRefresh: number[] = [];
    let done = false;
    void restarting.finally(() => (done = true));
    while (!done) {
      duringRefresh.push((await api('POST', '/api/v2/auth/refresh', { body: { refresh_token: 'not-a-token-but-counted-first' }, headers: ip() })).status);
      await sleep(200);
    }
    await restarting;
    await sleep(1_000);
    const outcomes = await load.stop();
    // Back: a real refresh works again, with no gateway restart (last: it ends the session the load used).
    await until(
      async () => (await api('POST', '/api/v2/auth/refresh', { body: { refresh_token: user.refresh_token }, headers: clientIp() })).status === 200,
      15_000,
      'a refresh answered 200 after Redis is back',
    );
    const table = JSON.stringify(summary(outcomes));
    expect(
      outcomes.filter((o) => o.status !== 200),
      table,
    ).toEqual([]);
    console.info(`redis restart: ${table}; refresh while it restarted: ${JSON.stringify(duringRefresh)}`);
    expect(duringRefresh.filter((status) => status >= 500 && status !== 503)).toEqual([]);
  });

  it('when the document store restarts, then requests fail as 503 (never 500) and writes work again without restarting a service', async () => {
    const ana = await sharedLogin('ana@example.com');
    const epub = await session(ana.access_token, 1, 1001);
    const note = () => ({
      uuid: uniqueName('chaos-store'),
      color: 'green',
      totalLength: 7,
      totalText: 'keeper.',
      epubLocationStartCfi: 'epubcfi(/6/2[chapter-1]!/4/2,/1:0,/1:7)',
      epubLocationEndCfi: 'epubcfi(/6/2[chapter-1]!/4/2/1:7)',
      epubChapter: 'text/chapter-1.xhtml',
      epubLocationStartChar: '0',
      epubLocation: ['text/chapter-1.xhtml', 'epubcfi(/6/2[chapter-1]!/4/2,/1:0,/1:7)'],
    });
    const routes: LoadRoute[] = [
      { name: 'user', send: () => api('GET', '/api/v2/user', { token: ana.access_token, headers: ip() }) },
      { name: 'library', send: () => api('GET', '/api/v2/library', { token: ana.access_token, headers: { ...v2(1), ...ip() } }) },
      {
        name: 'note-write',
        send: () => api('POST', '/api/v2/reader/notes', { token: ana.access_token, headers: { ...v2(1, epub.token), ...ip() }, body: note() }),
      },
      {
        name: 'position-write',
        send: () =>
          api('PUT', '/api/v2/reader/1001/last-location', {
            token: ana.access_token,
            headers: { ...v2(1), ...ip() },
            body: { lastLocation: { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2!/4/2/1:0)' } },
          }),
      },
    ];
    const startedAt = Date.now();
    const load = startLoad(routes, { concurrency: 3, pauseMs: 50 });
    await sleep(1_000);
    await restartInfra('docdb');
    await until(
      async () =>
        (await api('POST', '/api/v2/reader/notes', { token: ana.access_token, headers: { ...v2(1, epub.token), ...ip() }, body: note() })).status === 201,
      30_000,
      'a note written after the store is back',
    );
    const outcomes = await load.stop();
    const table = `${JSON.stringify(summary(outcomes))}; logged: ${JSON.stringify(await loggedErrors(startedAt))}`;
    expect(
      outcomes.filter((o) => o.status === 0 || (o.status >= 500 && o.status !== 503)),
      table,
    ).toEqual([]);
    expect(
      outcomes.filter((o) => o.status === 503 && !o.retryAfter),
      table,
    ).toEqual([]);
    console.info(`document store restart: ${JSON.stringify(summary(outcomes))}`);
  });
});
