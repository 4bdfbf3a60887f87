// A server ends each caller's connection past its age, and the caller opens a
// new one (resolving its target again) without a call failing: that is how the
// callers of a peer reach the replicas an autoscaler adds. The connections are
// counted at a TCP proxy in front of the server.
import { createConnection, createServer, type Server } from 'node:net';
import { createLogger } from '@folio/logger';
import { identity } from '@folio/proto';
import { DomainError } from '@folio/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_OPTIONS, createPromiseClient, startGrpcServer, type GrpcServer, type ServiceHandlers } from './index.js';

const TEST_AGE_MS = 300;

async function startCountingProxy(port: number): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((client) => {
    connections++;
    const upstream = createConnection({ host: '127.0.0.1', port });
    const drop = () => (client.destroy(), upstream.destroy());
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('connection age', () => {
  let server: GrpcServer;
  let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
  let client: ReturnType<typeof createPromiseClient<identity.IdentityServiceClient>>;

  beforeAll(async () => {
    const unimplemented = async () => {
      throw new DomainError('UNIMPLEMENTED', 'not here');
    };
    const handlers = Object.fromEntries(Object.keys(identity.IdentityServiceService).map((name) => [name, unimplemented])) as unknown as ServiceHandlers<
      typeof identity.IdentityServiceService
    >;
    handlers.getUser = async (request) => ({ user: { id: request.userId, admin: false, email: 'a@b.c', picture: '', tenants: [] } });
    server = await startGrpcServer({
      logger: createLogger({ service: 'test', level: 'silent' }),
      port: 0,
      host: '127.0.0.1',
      maxConnectionAgeMs: TEST_AGE_MS,
      services: [{ name: 'svc.identity.v1.IdentityService', definition: identity.IdentityServiceService, handlers }],
    });
    proxy = await startCountingProxy(server.port);
    client = createPromiseClient(identity.IdentityServiceClient, `127.0.0.1:${proxy.port}`);
  });

  afterAll(async () => {
    client.close();
    await proxy.close();
    await server.shutdown(1_000);
  });

  it('given every server, then its connections have an age limit, and calls in flight a grace at least as long', () => {
    expect(SERVER_OPTIONS['grpc.max_connection_age_ms']).toBeGreaterThan(0);
    expect(SERVER_OPTIONS['grpc.max_connection_age_grace_ms']).toBeGreaterThanOrEqual(SERVER_OPTIONS['grpc.max_connection_age_ms']);
  });

  it('when a connection outlives its age, then the caller reconnects and no call fails', async () => {
    const until = Date.now() + TEST_AGE_MS * 4;
    let answered = 0;
    while (Date.now() < until) {
      const { user } = await client.getUser({ userId: 7 });
      expect(user?.id).toBe(7);
      answered++;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(answered).toBeGreaterThan(10);
    // At least one reconnect; not an exact count, which a loaded machine's timers would make flaky.
    expect(proxy.connections()).toBeGreaterThanOrEqual(2);
  });
});
