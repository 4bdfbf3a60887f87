import { Metadata } from '@grpc/grpc-js';
import { createLogger } from '@folio/logger';
import { identity } from '@folio/proto';
import { DomainError, invalidArgument } from '@folio/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkHealth,
  closeHealthClients,
  contextFromMetadata,
  contextToMetadata,
  createPromiseClient,
  startGrpcServer,
  type GrpcServer,
  type ServiceHandlers,
} from './index.js';
import { runWithContext } from '@folio/logger';

const unimplemented = async () => {
  throw new DomainError('UNIMPLEMENTED', 'not here');
};

describe('gRPC server and client', () => {
  let server: GrpcServer;
  let client: ReturnType<typeof createPromiseClient<identity.IdentityServiceClient>>;
  let seenContext: unknown;

  beforeAll(async () => {
    const handlers = Object.fromEntries(Object.keys(identity.IdentityServiceService).map((name) => [name, unimplemented])) as unknown as ServiceHandlers<
      typeof identity.IdentityServiceService
    >;
    handlers.getUser = async (request, call) => {
      seenContext = { requestId: call.requestId, tenantId: call.tenantId, hasDeadline: call.remainingMs !== undefined };
      if (request.userId === 0) throw invalidArgument('The given data was invalid.', { user_id: ['must be positive'] });
      if (request.userId === 13) throw new Error('database exploded at /srv/secret');
      if (request.userId === 14) throw invalidArgument('Invalid «é».', { é: ['unknown filter é'] });
      if (request.userId === 15) throw new DomainError('INVALID_ARGUMENT', 'x', { retryAfterSeconds: 10n as never });
      if (request.userId === 99) await new Promise((resolve) => setTimeout(resolve, 500));
      return { user: { id: request.userId, admin: false, email: 'a@b.c', picture: '', tenants: [] } };
    };
    server = await startGrpcServer({
      logger: createLogger({ service: 'test', level: 'silent' }),
      port: 0,
      host: '127.0.0.1',
      services: [{ name: 'svc.identity.v1.IdentityService', definition: identity.IdentityServiceService, handlers }],
    });
    client = createPromiseClient(identity.IdentityServiceClient, `127.0.0.1:${server.port}`);
  });

  afterAll(async () => {
    client.close();
    await server.shutdown(1_000);
  });

  it('when called inside a request context, then the handler sees its ids and a deadline', async () => {
    const response = await runWithContext({ requestId: 'req-42', tenantId: 3 }, () => client.getUser({ userId: 7 }));
    expect(response.user?.id).toBe(7);
    expect(seenContext).toEqual({ requestId: 'req-42', tenantId: 3, hasDeadline: true });
  });

  it('when the handler throws a domain error, then the client gets it back with details', async () => {
    await expect(client.getUser({ userId: 0 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { fieldErrors: { user_id: ['must be positive'] } },
    });
  });

  it('when the handler throws anything else, then the client gets a generic internal error', async () => {
    const error = await client.getUser({ userId: 13 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INTERNAL', message: 'Internal server error.' });
  });

  it('when a field error holds non-ASCII text, then the client gets it and the server keeps serving', async () => {
    await expect(client.getUser({ userId: 14 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'Invalid «é».',
      details: { fieldErrors: { é: ['unknown filter é'] } },
    });
    expect((await client.getUser({ userId: 7 })).user?.id).toBe(7);
  });

  it('when the error cannot even be encoded, then the call is answered INTERNAL and the server keeps serving', async () => {
    await expect(client.getUser({ userId: 15 })).rejects.toMatchObject({ code: 'INTERNAL' });
    expect((await client.getUser({ userId: 7 })).user?.id).toBe(7);
  });

  it('when the deadline passes, then the call fails with DEADLINE_EXCEEDED', async () => {
    await expect(client.getUser({ userId: 99 }, { deadlineMs: 100 })).rejects.toMatchObject({ code: 'DEADLINE_EXCEEDED' });
  });

  it('when asked for health, then the service reports SERVING', async () => {
    expect(await checkHealth(`127.0.0.1:${server.port}`, 'svc.identity.v1.IdentityService')).toBe(true);
    expect(await checkHealth(`127.0.0.1:${server.port}`, 'svc.nothing.v1.Nope')).toBe(false);
    closeHealthClients();
  });

  it('when metadata has no request id, then a new one is made; tenant ids must be integers', () => {
    const metadata = new Metadata();
    metadata.set('x-tenant-id', 'abc');
    const context = contextFromMetadata(metadata);
    expect(context.requestId).toMatch(/[0-9a-f-]{36}/);
    expect(context.tenantId).toBeUndefined();
    expect(contextFromMetadata(contextToMetadata({ requestId: 'r', userId: 5 }))).toEqual({ requestId: 'r', userId: 5 });
  });
});
