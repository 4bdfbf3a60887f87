// Graceful shutdown, proven on real processes without touching the shared
// stack: a second gateway and a second notes service are started here as
// child processes (their built dist/main.js, on ports of their own), put
// under load, and sent SIGTERM while requests are in flight. Requests are
// made "in flight" without timings: their upstream is held (a fake media
// server that answers only when told, or the TCP proxy of @folio/testing in
// front of MongoDB holding the bytes) until after the signal.
import { Agent, createServer as createHttpServer, request as httpRequest, type ServerResponse } from 'node:http';
import { createConnection } from 'node:net';
import { checkHealth, createPromiseClient, type PromiseClient } from '@folio/grpc';
import { notes } from '@folio/proto';
import { deleteTopology, failureOf, freePort, freshDatabase, startTcpProxy, testInfra, uniqueEmail, uniqueName, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild, startGatewayChild, type Child } from './children.js';
import { GATEWAY_URL, loginByEmail } from './client.js';

/** The drain every Deployment sets (SHUTDOWN_TIMEOUT_MS) and the processes' default. */
const DRAIN_MS = 10_000;
/** Closing channels, broker, store and exporting the last spans after the drain (deploy/test's CLOSE_MARGIN_SECONDS). */
const CLOSE_MARGIN_MS = 10_000;

/** Whether a new TCP connection to the port is refused (the listener is closed). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

type Outcome = { status: number } | { error: string };

/** The fetch error's cause code (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET, ...). */
function errorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? String(error);
}

describe('graceful shutdown', () => {
  describe('gateway: SIGTERM under load', () => {
    // The media server the gateway proxies /media/* to: it holds every request until released.
    const waiting: ServerResponse[] = [];
    const media = createHttpServer((_req, res) => void waiting.push(res));
    let gateway: Child;
    let url: string;
    let port: number;
    let token: string;

    const mediaUrl = () => `http://127.0.0.1:${(media.address() as { port: number }).port}`;
    const started: Child[] = [];

    beforeAll(async () => {
      await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
      // A user of its own: no other test file's logout or session eviction can touch its token.
      token = (await loginByEmail(uniqueEmail('shutdown'))).access_token;
      ({ gateway, url, port } = await startGatewayChild(mediaUrl()));
      started.push(gateway);
    });

    afterAll(async () => {
      for (const res of waiting.splice(0)) res.destroy();
      for (const child of started) if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
      media.closeAllConnections();
      await new Promise((resolve) => media.close(resolve));
    });

    it('when SIGTERM arrives with requests in flight, then each completes with its status, new connections are refused, and the process exits within the drain time', async () => {
      const validate = () =>
        fetch(`${url}/api/v2/auth/session/validate`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '198.51.100.77' } });
      expect((await validate()).status).toBe(200);
      expect((await fetch(GATEWAY_URL + '/healthz')).status).toBe(200); // the shared stack's gateway, untouched

      // 20 slow requests: each is held by the media server, so it is in flight at the gateway.
      const slow = Array.from({ length: 20 }, (_, i) =>
        fetch(`${url}/media/held-${i}`).then(
          async (response): Promise<Outcome & { body?: string }> => ({ status: response.status, body: await response.text() }),
          (error: unknown): Outcome => ({ error: errorCode(error) }),
        ),
      );
      await waitFor(() => (waiting.length === 20 ? true : undefined), { what: '20 requests at the media server' });

      // Fast load: 8 clients in a loop on keep-alive connections, 240 requests in all, the signal after the first 80.
      // node:http rather than fetch: its request says whether it went on a reused connection.
      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      const validateOnAgent = () =>
        new Promise<{ outcome: Outcome; reused: boolean }>((resolve) => {
          const request = httpRequest(
            `${url}/api/v2/auth/session/validate`,
            { agent, headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '198.51.100.77' } },
            (response) => {
              response.resume();
              response.once('end', () => resolve({ outcome: { status: response.statusCode! }, reused: request.reusedSocket }));
              response.once('error', (error: NodeJS.ErrnoException) =>
                resolve({ outcome: { error: error.code ?? error.message }, reused: request.reusedSocket }),
              );
            },
          );
          request.once('error', (error: NodeJS.ErrnoException) => resolve({ outcome: { error: error.code ?? error.message }, reused: request.reusedSocket }));
          request.end();
        });
      let signalledAt: number | undefined;
      const fast: { sentBeforeSignal: boolean; outcome: Outcome; reused: boolean }[] = [];
      let sent = 0;
      let signalled!: () => void;
      const eightyDone = new Promise<void>((resolve) => (signalled = resolve));
      const client = async () => {
        while (sent < 240) {
          sent += 1;
          const sentBeforeSignal = signalledAt === undefined;
          fast.push({ sentBeforeSignal, ...(await validateOnAgent()) });
          if (fast.length === 80) signalled();
        }
      };
      const clients = Promise.all(Array.from({ length: 8 }, client));
      await eightyDone;
      signalledAt = Date.now();
      const sigtermAt = await gateway.terminate();

      // Draining: the port is closed while the 20 slow requests are still unanswered.
      await waitFor(async () => ((await refused(port)) ? true : undefined), { what: 'the listener to close' });
      expect(waiting).toHaveLength(20);

      // Their upstream answers now: every one completes with its own status and body.
      for (const res of waiting.splice(0)) res.end('the held bytes');
      expect(await Promise.all(slow)).toEqual(Array.from({ length: 20 }, () => ({ status: 200, body: 'the held bytes' })));
      await clients;

      agent.destroy();

      // Sent before the signal: the normal 200. Sent after on an open keep-alive connection: still answered, never a
      // reset. Sent after on a new connection: answered, refused, or reset (EPIPE when the reset came first). The reset
      // is the kernel's, not the gateway's: a connection still in the listen backlog when the listener closes is reset,
      // and its request was never read, so the client may send it again.
      const before = fast.filter((r) => r.sentBeforeSignal).map((r) => r.outcome);
      const after = fast.filter((r) => !r.sentBeforeSignal);
      const outcomeOf = ({ outcome }: { outcome: Outcome }) => ('status' in outcome ? outcome.status : outcome.error);
      expect(before.length).toBeGreaterThanOrEqual(80);
      expect(before.every((outcome) => 'status' in outcome && outcome.status === 200)).toBe(true);
      expect(
        after
          .filter((r) => r.reused)
          .map(outcomeOf)
          .filter((outcome) => outcome !== 200),
      ).toEqual([]);
      const neverRead = ['ECONNREFUSED', 'ECONNRESET', 'EPIPE'];
      expect(
        after
          .filter((r) => !r.reused)
          .map(outcomeOf)
          .filter((outcome) => outcome !== 200 && !neverRead.includes(String(outcome))),
      ).toEqual([]);

      const exit = await gateway.exited;
      expect({ code: exit.code, signal: exit.signal }, gateway.output()).toEqual({ code: 0, signal: null });
      expect(exit.at - sigtermAt).toBeLessThan(DRAIN_MS + CLOSE_MARGIN_MS);
      expect(gateway.output()).toContain('"gateway stopped"');
    });

    it('when a request outlives the drain time, then the process still exits within it (that one request is cut)', async () => {
      const drainMs = 2_000;
      const child = await startGatewayChild(mediaUrl(), { SHUTDOWN_TIMEOUT_MS: String(drainMs) });
      started.push(child.gateway);
      const before = waiting.length;
      const stuck = fetch(`${child.url}/media/never-answered`).then(
        (response) => response.text().then(() => 'answered'),
        (error: unknown) => errorCode(error),
      );
      await waitFor(() => (waiting.length === before + 1 ? true : undefined), { what: 'the request at the media server' });

      const sigtermAt = await child.gateway.terminate();
      const exit = await child.gateway.exited;
      expect({ code: exit.code, signal: exit.signal }, child.gateway.output()).toEqual({ code: 0, signal: null });
      expect(exit.at - sigtermAt).toBeLessThan(drainMs + CLOSE_MARGIN_MS);
      expect(await stuck).not.toBe('answered');
      for (const res of waiting.splice(0)) res.destroy();
    });
  });

  describe('gRPC service (notes): SIGTERM with calls in flight', () => {
    const { amqpUrl, mongoUrl } = testInfra();
    const exchange = uniqueName('identity.events');
    const queuePrefix = uniqueName('notes-shutdown');
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    let mongoProxy: Awaited<ReturnType<typeof startTcpProxy>>;
    let service: Child;
    let port: number;
    let client: PromiseClient<notes.NotesServiceClient>;

    beforeAll(async () => {
      database = await freshDatabase('notes_shutdown');
      const store = new URL(mongoUrl);
      mongoProxy = await startTcpProxy(store.hostname, Number(store.port || 27017));
      // Its own database (through the proxy), exchange and queues: nothing of the shared notes service.
      const serviceMongoUrl = new URL(database.url);
      serviceMongoUrl.hostname = '127.0.0.1';
      serviceMongoUrl.port = String(mongoProxy.port);
      port = await freePort();
      service = startChild('notes', {
        GRPC_PORT: String(port),
        METRICS_PORT: String(await freePort()),
        MONGO_URL: serviceMongoUrl.toString(),
        AMQP_URL: amqpUrl,
        IDENTITY_EVENTS_EXCHANGE: exchange,
        QUEUE_PREFIX: queuePrefix,
      });
      await waitFor(async () => ((await checkHealth(`127.0.0.1:${port}`)) ? true : undefined), {
        what: `the child notes service on ${port}`,
        timeoutMs: 30_000,
      });
      client = createPromiseClient(notes.NotesServiceClient, `127.0.0.1:${port}`, { defaultDeadlineMs: 60_000 });
    });

    afterAll(async () => {
      client?.close();
      mongoProxy?.release();
      if (service && service.process.exitCode === null) service.process.kill('SIGKILL');
      await mongoProxy?.close();
      await deleteTopology({ exchanges: [exchange], consumers: [`${queuePrefix}.account-eraser`] }).catch(() => {});
      await database?.drop();
    });

    const draft = (): notes.NoteDraft => ({
      uuid: uniqueName('uuid'),
      color: 'yellow',
      totalLength: 24,
      totalText: 'the highlighted sentence',
      startPage: 3,
      startPageStartOffset: 120,
      startPageLength: 24,
      endPage: 3,
      endPageLength: 24,
    });

    it('when SIGTERM arrives with calls waiting on the store, then they finish with their result, the port closes, and the process exits within the drain time', async () => {
      const scope = { tenantId: 1, userId: 4_000_000 + Math.floor(Math.random() * 1_000_000), issueId: 10 };
      // Warm: 10 calls at once, so the pool holds a connection for each.
      await Promise.all(Array.from({ length: 10 }, () => client.createNote({ scope, note: draft() })));

      mongoProxy.hold();
      const uuids = Array.from({ length: 10 }, () => uniqueName('uuid'));
      const inFlight = uuids.map((uuid) => client.createNote({ scope, note: { ...draft(), uuid } }));
      // Each call has reached its handler once its insert waits in the proxy.
      // Creates of the same moment share one insertMany: look for each note, not for a command each.
      const allHeld = () => uuids.every((uuid) => mongoProxy.heldTowardServerIncludes(uuid));
      await waitFor(() => (allHeld() ? true : undefined), { what: 'the 10 notes held' });

      const sigtermAt = await service.terminate();
      await waitFor(async () => ((await refused(port)) ? true : undefined), { what: 'the gRPC port to close' });
      // Not answered yet (the store holds them), and a new call finds no server.
      expect(allHeld()).toBe(true);
      expect((await failureOf(client.listNotes({ scope }, { deadlineMs: 5_000 }))).code).toBe('UNAVAILABLE');

      mongoProxy.release();
      const created = await Promise.all(inFlight);
      expect(created.map((answer) => answer.note?.totalText)).toEqual(Array.from({ length: 10 }, () => 'the highlighted sentence'));
      expect(await database.connection.collection('notes').countDocuments({ user_id: scope.userId })).toBe(20);

      const exit = await service.exited;
      expect({ code: exit.code, signal: exit.signal }, service.output()).toEqual({ code: 0, signal: null });
      expect(exit.at - sigtermAt).toBeLessThan(DRAIN_MS + CLOSE_MARGIN_MS);
      expect(service.output()).toContain('"stopped"');
    });
  });
});
