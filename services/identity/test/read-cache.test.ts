// Identity serves users, memberships and tenants from memory (data/read-cache.ts)
// with a TTL far longer than this test runs; each change must still show on
// the next read: its own writes drop the entry at once, and a change made
// elsewhere (the seed in another process) arrives as tenant.updated.
import { createLogger } from '@folio/logger';
import { Broker, createEvent, Outbox } from '@folio/messaging';
import { testInfra, uniqueEmail, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedIdentity } from '../src/seed.js';
import { claimsOf, dataset, loginByEmail, startTestIdentity, type TestIdentity } from './support.js';

describe('read cache of users, memberships and tenants', () => {
  let t: TestIdentity;
  const quiet = createLogger({ service: 'test', level: 'silent' });

  beforeAll(async () => {
    t = await startTestIdentity({ READ_CACHE_TTL_MS: '600000' });
  });
  afterAll(() => t?.stop());

  it('when a user joins another store, then the next profile read lists it', async () => {
    const tokens = await loginByEmail(t.client, uniqueEmail('joiner'), { appTenantId: 1 });
    const userId = Number((await claimsOf(t.client, t.config, tokens.accessToken)).sub);
    const tenantsOf = async () => (await t.client.getUser({ userId })).user!.tenants.map((tenant) => tenant.id);
    expect(await tenantsOf()).toEqual([1]);
    expect(await tenantsOf()).toEqual([1]); // now from memory

    await t.client.ensureMembership({ userId, tenantId: 4 });

    expect(await tenantsOf()).toEqual([1, 4]);
  });

  it('when a membership the cached list already has is ensured, then it is answered from memory, without a write', async () => {
    const tokens = await loginByEmail(t.client, uniqueEmail('member'), { appTenantId: 1 });
    const userId = Number((await claimsOf(t.client, t.config, tokens.accessToken)).sub);
    expect(await t.client.ensureMembership({ userId, tenantId: 3 })).toEqual({ created: true });
    expect((await t.client.getUser({ userId })).user!.tenants.map((tenant) => tenant.id)).toEqual([1, 3]);
    // Removed behind the cache's back: an ensure that wrote would bring the document back.
    await t.db.collection('memberships').deleteOne({ user_id: userId, tenant_id: 3 });
    expect(await t.client.ensureMembership({ userId, tenantId: 3 })).toEqual({ created: false });
    expect(await t.db.collection('memberships').countDocuments({ user_id: userId, tenant_id: 3 })).toBe(0);
  });

  it("when the seed changes a tenant's name from another process, then profile, tenant and domain reads show it without waiting for the TTL", async () => {
    const nameSeenBy = async () => {
      const [user, tenant, byDomain] = await Promise.all([
        t.client.getUser({ userId: 1 }),
        t.client.getTenant({ tenantId: 2 }),
        t.client.resolveTenantByDomain({ domain: 'sur.localhost' }),
      ]);
      return [user.user!.tenants.find((one) => one.id === 2)!.name, tenant.tenant!.name, byDomain.tenant!.name];
    };
    expect(await nameSeenBy()).toEqual(['Editorial Sur', 'Editorial Sur', 'Editorial Sur']);

    const broker = await Broker.connect(testInfra().amqpUrl, { logger: quiet, name: 'identity-test-seed' });
    const outbox = new Outbox(t.db, broker, { exchange: t.config.EVENTS_EXCHANGE, logger: quiet });
    try {
      const tenants = dataset.tenants.map((tenant) => (tenant.id === 2 ? { ...tenant, name: 'Editorial Sur (renamed)' } : tenant));
      await seedIdentity(t.db, { ...dataset, tenants }, { events: { publish: async (type, payload, meta) => outbox.add(createEvent(type, payload, meta)) } });
      await waitFor(async () => ((await nameSeenBy()).every((name) => name === 'Editorial Sur (renamed)') ? true : undefined), {
        what: 'the renamed tenant in every read',
      });
    } finally {
      await outbox.stop();
      await broker.close();
    }
  });
});
