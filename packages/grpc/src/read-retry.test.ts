// A read whose answer had begun when its connection broke (response headers
// sent, then the replica gone) is past grpc-js's own retry, which stops at the
// first headers: the client asks once more itself, within the same deadline.
// A write in the same spot fails to its caller and is never sent twice.
import { Metadata, Server, ServerCredentials, status, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import { identity } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPromiseClient } from './index.js';

describe('a read cut off after its answer began', () => {
  const server = new Server();
  const calls = { reads: 0, writes: 0 };
  let client: ReturnType<typeof createPromiseClient<identity.IdentityServiceClient>>;

  /** The first call of each kind sends its headers, then fails as a broken connection does. */
  const failFirst = (kind: 'reads' | 'writes', answer: unknown) => (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    calls[kind] += 1;
    if (calls[kind] > 1) return callback(null, answer);
    call.sendMetadata(new Metadata());
    callback({ code: status.UNAVAILABLE, details: 'read ECONNRESET' });
  };

  beforeAll(async () => {
    const handlers = Object.fromEntries(
      Object.keys(identity.IdentityServiceService).map((name) => [
        name,
        (_call: unknown, callback: sendUnaryData<unknown>) => callback({ code: status.UNIMPLEMENTED }),
      ]),
    );
    handlers.getUser = failFirst('reads', { user: { id: 7, admin: false, email: 'a@b.c', picture: '', tenants: [] } });
    handlers.logout = failFirst('writes', {});
    server.addService(identity.IdentityServiceService, handlers);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    client = createPromiseClient(identity.IdentityServiceClient, `127.0.0.1:${port}`);
  });

  afterAll(() => {
    client.close();
    server.forceShutdown();
  });

  it('when a read fails so, then it is asked once more and answers', async () => {
    const { user } = await client.getUser({ userId: 7 });
    expect(user?.id).toBe(7);
    expect(calls.reads).toBe(2);
  });

  it('when a write fails so, then its caller sees UNAVAILABLE and it was sent once', async () => {
    await expect(client.logout({ jti: 'j' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(calls.writes).toBe(1);
  });
});
