// A client of a peer given as two replicas (`ipv4:a,b`, as ./dev up
// --replicas=2 gives it): calls spread over both, a read cut off by a replica
// that dies mid-call is answered by the other, and a write cut off the same
// way fails to its caller instead of being sent again. The replica "dies"
// behind a TCP proxy that drops every connection at once, which is what a
// client sees of a SIGKILLed process.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { createLogger } from '@folio/logger';
import { identity } from '@folio/proto';
import { DomainError } from '@folio/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPromiseClient, isReadMethod, serviceConfigFor, startGrpcServer, type GrpcServer, type ServiceHandlers } from './index.js';

interface Replica {
  server: GrpcServer;
  reads: number;
  writes: number;
  /** Calls that wait until the test lets them go (or the replica dies). */
  hang: boolean;
  started: () => void;
}

async function startReplica(): Promise<Replica> {
  const replica = { reads: 0, writes: 0, hang: false, started: () => {} } as Replica;
  const unimplemented = async () => {
    throw new DomainError('UNIMPLEMENTED', 'not here');
  };
  const handlers = Object.fromEntries(Object.keys(identity.IdentityServiceService).map((name) => [name, unimplemented])) as unknown as ServiceHandlers<
    typeof identity.IdentityServiceService
  >;
  const waitIfHanging = async () => {
    if (!replica.hang) return;
    replica.started();
    await new Promise(() => {}); // until the connection goes
  };
  handlers.getUser = async (request) => {
    replica.reads++;
    await waitIfHanging();
    return { user: { id: request.userId, admin: false, email: 'a@b.c', picture: '', tenants: [] } };
  };
  handlers.logout = async () => {
    replica.writes++;
    await waitIfHanging();
    return {};
  };
  replica.server = await startGrpcServer({
    logger: createLogger({ service: 'test', level: 'silent' }),
    port: 0,
    host: '127.0.0.1',
    services: [{ name: 'svc.identity.v1.IdentityService', definition: identity.IdentityServiceService, handlers }],
  });
  return replica;
}

/** A proxy whose `kill()` drops every connection and refuses new ones. */
async function startProxy(port: number): Promise<{ port: number; kill(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let dead = false;
  const server: Server = createServer((client) => {
    if (dead) return void client.destroy();
    const upstream = createConnection({ host: '127.0.0.1', port });
    sockets.add(client).add(upstream);
    const drop = () => (client.destroy(), upstream.destroy());
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    kill() {
      dead = true;
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('a client of two replicas', () => {
  let one: Replica;
  let two: Replica;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let client: ReturnType<typeof createPromiseClient<identity.IdentityServiceClient>>;

  beforeAll(async () => {
    [one, two] = await Promise.all([startReplica(), startReplica()]);
    proxy = await startProxy(one.server.port);
    client = createPromiseClient(identity.IdentityServiceClient, `ipv4:127.0.0.1:${proxy.port},127.0.0.1:${two.server.port}`);
  });

  afterAll(async () => {
    client.close();
    await proxy.close();
    await Promise.all([one.server.shutdown(1_000), two.server.shutdown(1_000)]);
  });

  it('when it names its read methods, then every Get/List/Search/Check/Verify/Authorize... is one and no write is', () => {
    expect(JSON.parse(serviceConfigFor(identity.IdentityServiceClient, '127.0.0.1:50051')).loadBalancingConfig).toEqual([{ pick_first: {} }]);
    expect(JSON.parse(serviceConfigFor(identity.IdentityServiceClient, 'unix:/run/identity.sock')).loadBalancingConfig).toEqual([{ pick_first: {} }]);
    const config = JSON.parse(serviceConfigFor(identity.IdentityServiceClient, 'ipv4:127.0.0.1:50051,127.0.0.1:50151')) as {
      loadBalancingConfig: unknown;
      methodConfig: { name: { method: string }[] }[];
    };
    const retried = config.methodConfig.flatMap((entry) => entry.name.map((name) => name.method));
    expect(config.loadBalancingConfig).toEqual([{ round_robin: {} }]);
    expect(retried).toEqual(expect.arrayContaining(['GetUser', 'ListStaff', 'CheckSession', 'VerifyDeviceKey', 'AuthorizeStaff', 'ResolveTenantByDomain']));
    for (const write of ['Logout', 'RefreshToken', 'CreateDeviceKey', 'SetStaffRole', 'RecordAuditEntry', 'EnsureMembership', 'SubmitHelpRequest']) {
      expect(retried).not.toContain(write);
      expect(isReadMethod(write)).toBe(false);
    }
    // A verb must be a whole word: "Listen" (integrations' speech) and "Getaway" are not reads by their names.
    expect(isReadMethod('Listen')).toBe(false);
    expect(isReadMethod('ListAiActions')).toBe(true);
  });

  it('when both replicas are up, then the calls are spread over both', async () => {
    // Until both connections are up, round robin uses the one that is.
    await client.getUser({ userId: 1 }, { waitForReady: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = { one: one.reads, two: two.reads };
    for (let i = 0; i < 20; i++) await client.getUser({ userId: i + 1 });
    expect(one.reads - before.one).toBeGreaterThanOrEqual(8);
    expect(two.reads - before.two).toBeGreaterThanOrEqual(8);
  });

  it('when a replica dies during a read, then the other one answers it, and during a write, then the caller is told and it is never sent again', async () => {
    one.hang = true;
    // A write that lands on the dying replica: round robin alternates, so one of two calls does.
    const writes = { one: one.writes, two: two.writes };
    const started = new Promise<void>((resolve) => (one.started = resolve));
    const outcomes = [
      client.logout({ accessToken: 'x' }).then(
        () => 'ok',
        (error: { code?: string }) => error.code,
      ),
      client.logout({ accessToken: 'y' }).then(
        () => 'ok',
        (error: { code?: string }) => error.code,
      ),
    ];
    await started;
    // And a read on it too, before it dies.
    const readsBefore = { one: one.reads, two: two.reads };
    const readStarted = new Promise<void>((resolve) => (one.started = resolve));
    const reads = [client.getUser({ userId: 41 }), client.getUser({ userId: 42 })];
    await readStarted;
    proxy.kill();

    expect((await Promise.all(reads)).map((answer) => answer.user?.id)).toEqual([41, 42]);
    expect(one.reads - readsBefore.one).toBe(1);
    expect(two.reads - readsBefore.two).toBe(2); // its own read and the retried one
    expect((await Promise.all(outcomes)).sort()).toEqual(['UNAVAILABLE', 'ok']);
    expect({ one: one.writes - writes.one, two: two.writes - writes.two }).toEqual({ one: 1, two: 1 });

    // The survivor takes every call from now on.
    for (let i = 0; i < 5; i++) await client.getUser({ userId: i });
  });
});
