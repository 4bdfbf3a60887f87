// The memberships a purchase redirect ensures: identity is asked once per
// user and store while this replica remembers the answer, again after the
// user's erasure, and a failed call is never remembered.
import type { PromiseClient } from '@folio/grpc';
import type { identity } from '@folio/proto';
import { describe, expect, it } from 'vitest';
import { IdentityUsers } from './identity.js';

function countingIdentity(fail = false) {
  const calls: { userId: number; tenantId: number }[] = [];
  const client = {
    ensureMembership: async (request: { userId: number; tenantId: number }) => {
      calls.push(request);
      if (fail) throw new Error('identity is away');
      return { created: false };
    },
  } as unknown as PromiseClient<identity.IdentityServiceClient>;
  return { client, calls };
}

describe('IdentityUsers.ensureMembership', () => {
  it('when the same user and store come again, then identity is asked once', async () => {
    const { client, calls } = countingIdentity();
    const users = new IdentityUsers(client);
    await users.ensureMembership(7, 1);
    await users.ensureMembership(7, 1);
    await users.ensureMembership(7, 2);
    expect(calls).toEqual([
      { userId: 7, tenantId: 1 },
      { userId: 7, tenantId: 2 },
    ]);
  });

  it('when the user was erased, then identity is asked again', async () => {
    const { client, calls } = countingIdentity();
    const users = new IdentityUsers(client);
    await users.ensureMembership(7, 1);
    await users.ensureMembership(8, 1);
    users.forgetUser(7);
    await users.ensureMembership(7, 1);
    await users.ensureMembership(8, 1);
    expect(calls.map((call) => call.userId)).toEqual([7, 8, 7]);
  });

  it('when identity fails, then nothing is remembered', async () => {
    const { client, calls } = countingIdentity(true);
    const users = new IdentityUsers(client);
    await expect(users.ensureMembership(7, 1)).rejects.toThrow('identity is away');
    await expect(users.ensureMembership(7, 1)).rejects.toThrow('identity is away');
    expect(calls).toHaveLength(2);
  });
});
