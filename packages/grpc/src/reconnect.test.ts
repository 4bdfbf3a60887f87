// A peer that goes away and comes back at the same address: calls fail fast
// while it is away, and a wait-for-ready call reaches it once it is back,
// although the channel is still in reconnect backoff.
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { DomainError } from '@folio/errors';
import { createLogger } from '@folio/logger';
import { identity } from '@folio/proto';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANNEL_OPTIONS, createPromiseClient, startGrpcServer, type GrpcServer, type ServiceHandlers } from './index.js';

async function freePort(): Promise<number> {
  const probe = new Server();
  const port = await new Promise<number>((resolve, reject) =>
    probe.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  probe.forceShutdown();
  return port;
}

function startIdentity(port: number): Promise<GrpcServer> {
  const handlers = Object.fromEntries(
    Object.keys(identity.IdentityServiceService).map((name) => [
      name,
      async () => {
        throw new DomainError('UNIMPLEMENTED', 'not here');
      },
    ]),
  ) as unknown as ServiceHandlers<typeof identity.IdentityServiceService>;
  handlers.getUser = async (request) => ({ user: { id: request.userId, admin: false, email: 'a@b.c', picture: '', tenants: [] } });
  return startGrpcServer({
    logger: createLogger({ service: 'test', level: 'silent' }),
    port,
    host: '127.0.0.1',
    services: [{ name: 'svc.identity.v1.IdentityService', definition: identity.IdentityServiceService, handlers }],
  });
}

describe('reconnecting to a peer', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('bounds the reconnect backoff so a peer that is back is found within seconds, not minutes', () => {
    expect(CHANNEL_OPTIONS['grpc.max_reconnect_backoff_ms']).toBeLessThanOrEqual(2_000);
    expect(CHANNEL_OPTIONS['grpc.initial_reconnect_backoff_ms']).toBeLessThanOrEqual(CHANNEL_OPTIONS['grpc.max_reconnect_backoff_ms']);
  });

  it('when the peer is away, then calls fail as UNAVAILABLE; once it is back, a wait-for-ready call reaches it', async () => {
    const port = await freePort();
    const client = createPromiseClient(identity.IdentityServiceClient, `127.0.0.1:${port}`, { defaultDeadlineMs: 8_000 });
    cleanup.push(() => client.close());

    await expect(client.getUser({ userId: 7 })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(client.getUser({ userId: 7 })).rejects.toMatchObject({ code: 'UNAVAILABLE' });

    const server = await startIdentity(port);
    cleanup.push(() => server.shutdown(1_000));
    const response = await client.getUser({ userId: 7 }, { waitForReady: true });
    expect(response.user?.id).toBe(7);
  });
});
