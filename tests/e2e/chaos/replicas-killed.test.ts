// With two or more replicas of everything (./dev up --replicas=N): one
// replica of each service killed in turn (SIGKILL) under a read load through
// HAProxy, with notes written meanwhile. Not one read fails: a gRPC read the
// dead replica had taken is retried on another (@folio/grpc's retry policy),
// and a GET a dead gateway had taken is sent to another by HAProxy. A write
// is never applied twice: every note is there once, whatever its request
// answered. And once its supervisor has restarted it, the replica takes its
// share again (its request counter on /metrics grows). Skipped when the stack
// runs one replica of each (./dev up), where a kill takes a service down and
// services-killed.test.ts covers what clients see then.
import { uniqueName } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { session, v2, type ReaderSessionBody } from '../test/reader-helpers.js';
import { clientIp, sharedLogin, type Tokens } from '../test/client.js';
import {
  answeredRequests,
  api,
  chaosNote,
  killService,
  loggedErrors,
  portOpen,
  replica,
  sleep,
  stackReplicas,
  startLoad,
  summary,
  uncached,
  until,
  type LoadRoute,
  type ServiceName,
} from './stack.js';

const replicas = await stackReplicas();

let ana: Tokens;
let epub: ReaderSessionBody;

/**
 * Reads only (GET), together needing every service: identity (user, help),
 * catalog and commerce (library, search), reader (settings, and the reader
 * token of notes and AI actions), notes, integrations (AI actions). Each from
 * another client address, so the per-IP limit is not what is measured.
 */
function reads(): LoadRoute[] {
  const jwt = ana.access_token;
  const ip = () => ({ 'x-forwarded-for': `198.18.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}` });
  const get = (name: string, path: string, headers: Record<string, string> = {}): LoadRoute => ({
    name,
    send: () => api('GET', uncached(path), { token: jwt, headers: { ...headers, ...ip() } }),
  });
  return [
    get('user', '/api/v2/user'),
    get('help-subjects', '/api/v2/help'),
    get('library', '/api/v2/library', v2(1)),
    get('search', '/api/v2/search/store?query=atlas', v2(1)),
    get('notes', '/api/v2/reader/notes', v2(1, epub.token)),
    get('settings', '/api/v2/reader/settings/1001', v2(1)),
    get('ai-actions', '/api/v2/reader/integrations/ai-integrations', v2(1, epub.token)),
  ];
}

/** Notes written one after the other while a case runs, each with its own uuid; what each request answered. */
function startWrites(pauseMs = 250) {
  const written: { uuid: string; status: number; retryAfter: string | null }[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const uuid = uniqueName('replica-note');
      try {
        const response = await api('POST', '/api/v2/reader/notes', {
          token: ana.access_token,
          headers: { ...v2(1, epub.token), ...clientIp() },
          body: chaosNote(uuid, 'green'),
        });
        written.push({ uuid, status: response.status, retryAfter: response.headers.get('retry-after') });
      } catch {
        written.push({ uuid, status: 0, retryAfter: null });
      }
      await sleep(pauseMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return written;
    },
  };
}

const KILLED: (ServiceName | 'gateway')[] = ['identity', 'catalog', 'commerce', 'reader', 'notes', 'integrations', 'gateway'];

describe.skipIf(replicas < 2)(`one of ${replicas} replicas killed under load`, () => {
  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
    epub = await session(ana.access_token, 1, 1001);
    // Every replica up and answering before the first kill.
    for (const service of KILLED) {
      for (let k = 1; k <= replicas; k++) await until(() => portOpen(replica(service, k).port), 60_000, `${replica(service, k).name} listening`);
    }
  });

  for (const service of KILLED) {
    it(`when ${service}'s last replica is killed, then no read fails, no note is written twice, and once it is back it answers its share again`, async () => {
      const victim = replica(service, replicas);
      const load = startLoad(reads());
      const writes = startWrites();
      await sleep(1_500);

      const killedAt = Date.now();
      await killService(victim.name);
      await until(async () => !(await portOpen(victim.port)), 5_000, `${victim.name} down`).catch(() => 0);
      await until(() => portOpen(victim.port), 45_000, `${victim.name} listening again`);
      const backAt = Date.now();
      // Its share returns: a fresh process counts from 0, so anything it answered came after the restart. One
      // call is enough. Commerce sees few under this load, as its callers keep its answers (catalog and reader,
      // 30 s), so while it is awaited it is asked directly: reader asks it on every settings read of an issue
      // the user has no grant for, and each reader replica's calls alternate over both commerce replicas.
      const askCommerce = () =>
        Promise.all(
          [1002, 1003, 1004, 1006, 1007, 1008, 1009].map((issueId) =>
            api('GET', uncached(`/api/v2/reader/settings/${issueId}`), { token: ana.access_token, headers: { ...v2(1), ...clientIp() } }).catch(
              () => undefined,
            ),
          ),
        );
      const servedAgainIn = await until(
        async () => {
          if (service === 'commerce') await askCommerce();
          return (await answeredRequests(service, victim.metricsPort)) >= 1;
        },
        40_000,
        `${victim.name} answering again`,
      ).catch((error: Error) => error);
      await sleep(1_000);
      const outcomes = await load.stop();
      const written = await writes.stop();

      const during = outcomes.filter((outcome) => outcome.at >= killedAt - 500);
      const logged = async () => `; logged: ${JSON.stringify(await loggedErrors(killedAt))}`;
      const failedReads = during.filter((outcome) => outcome.status !== 200);
      expect(failedReads, `${JSON.stringify(summary(during))}${await logged()}`).toEqual([]);
      expect(servedAgainIn, `${victim.name} back at +${backAt - killedAt} ms`).not.toBeInstanceOf(Error);

      // Writes: each answered 201, or 503 with Retry-After (it reached the dying replica and the client is told);
      // never a conflict from a second application, never a 500 or a broken connection.
      const statuses = written.map((write) => write.status);
      expect(
        written.filter((write) => write.status !== 201 && !(write.status === 503 && write.retryAfter)),
        `writes answered ${JSON.stringify(statuses)}`,
      ).toEqual([]);
      const listed = await api<{ id: string | number; uuid: string }[]>('GET', uncached('/api/v2/reader/notes'), {
        token: ana.access_token,
        headers: { ...v2(1, epub.token), ...clientIp() },
      });
      expect(listed.status).toBe(200);
      const times = new Map<string, number>();
      for (const one of listed.body) times.set(one.uuid, (times.get(one.uuid) ?? 0) + 1);
      for (const write of written) {
        const count = times.get(write.uuid) ?? 0;
        // Once if it answered 201 (nothing lost); at most once otherwise (it may have been applied before the replica died).
        if (write.status === 201) expect(count, `note ${write.uuid}`).toBe(1);
        else expect(count, `note ${write.uuid} (answered ${write.status})`).toBeLessThanOrEqual(1);
      }
      // The case's notes go, so that ana's list stays the size the other tests know.
      const ours = new Set(written.map((write) => write.uuid));
      for (const one of listed.body.filter((each) => ours.has(each.uuid))) {
        await api('DELETE', `/api/v2/reader/notes/${one.id}`, { token: ana.access_token, headers: { ...v2(1, epub.token), ...clientIp() } });
      }
      console.info(
        `${victim.name}: back ${backAt - killedAt} ms after the kill; ${during.length} reads, 0 failed; ` +
          `${written.length} writes (${statuses.filter((status) => status === 201).length} created); ${JSON.stringify(summary(during))}`,
      );
    });
  }
});
