// A domain names what happened (a reason); the gateway turns it into an HTTP
// status with the one table in @folio/errors. The reason has to survive the
// hop through startGrpcServer and createPromiseClient (the
// folio-error-details-bin metadata entry) for that status to be right.
import { createLogger } from '@folio/logger';
import { identity } from '@folio/proto';
import { DomainError, failedPrecondition, httpStatusOf } from '@folio/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPromiseClient, startGrpcServer, type GrpcServer, type ServiceHandlers } from './index.js';

const unimplemented = async () => {
  throw new DomainError('UNIMPLEMENTED', 'not here');
};

describe('error reasons over gRPC', () => {
  let server: GrpcServer;
  let client: ReturnType<typeof createPromiseClient<identity.IdentityServiceClient>>;

  beforeAll(async () => {
    const handlers = Object.fromEntries(Object.keys(identity.IdentityServiceService).map((name) => [name, unimplemented])) as unknown as ServiceHandlers<
      typeof identity.IdentityServiceService
    >;
    handlers.getUser = async (request) => {
      if (request.userId === 1) throw failedPrecondition('The store must keep an owner: make someone else owner first.', 'LAST_OWNER');
      if (request.userId === 2)
        throw new DomainError('RESOURCE_EXHAUSTED', 'The file is larger than the 5 MB allowed for one upload.', { reason: 'FILE_TOO_LARGE' });
      // A status of its own, which does not cross gRPC: the code decides.
      if (request.userId === 3) throw new DomainError('FAILED_PRECONDITION', 'This issue is free: there is nothing to buy.', { httpStatus: 422 });
      throw failedPrecondition('Not yet.');
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

  const failureOf = (userId: number): Promise<DomainError> =>
    client.getUser({ userId }).then(
      () => {
        throw new Error('expected the call to fail');
      },
      (error: unknown) => {
        expect(error).toBeInstanceOf(DomainError);
        return error as DomainError;
      },
    );

  it.each([
    [1, 'FAILED_PRECONDITION', 'LAST_OWNER', 409],
    [2, 'RESOURCE_EXHAUSTED', 'FILE_TOO_LARGE', 413],
  ] as const)('when the server throws reason %#, then the client has the code, the reason and the table status', async (userId, code, reason, status) => {
    const failure = await failureOf(userId);
    expect(failure).toMatchObject({ code, details: { reason } });
    expect(httpStatusOf(failure)).toBe(status);
  });

  it('when a server sets an HTTP status without a reason, then it is not sent and the code decides', async () => {
    const failure = await failureOf(3);
    expect(failure.details).toEqual({});
    expect(httpStatusOf(failure)).toBe(412);
  });

  it('when the error names no reason, then its code decides', async () => {
    const failure = await failureOf(4);
    expect(failure.details).toEqual({});
    expect(httpStatusOf(failure)).toBe(412);
  });
});
