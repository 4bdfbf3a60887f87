// A server ends each caller's connection past its age, and the caller opens a
// new one (resolving its target again) without a call failing: that is how the
// callers of a peer reach the replicas an autoscaler adds. The connections are
// counted at a TCP proxy in front of the server.
import { createLogger } from '@folio/logger';
import { identity } from '@folio/proto';
import { startTcpProxy, type TcpProxy } from '@folio/testing';
import { DomainError } from '@folio/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_OPTIONS, createPromiseClient, startGrpcServer, type GrpcServer, type ServiceHandlers } from './index.js';

const TEST_AGE_MS = 300;

describe('connection age', () => {
  let server: GrpcServer;
  let proxy: TcpProxy;
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
    proxy = await startTcpProxy('127.0.0.1', server.port);
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
