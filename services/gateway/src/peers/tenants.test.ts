import { unavailable } from '@folio/errors';
import type { identity } from '@folio/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STALE_RETRY_MS, TenantDirectory } from './tenants.js';

const TTL_MS = 30_000;
const tenant = (name: string) => ({ id: 1, name }) as identity.Tenant;

/** identity's two tenant lookups, answering whatever `next` holds at the time of each call. */
function fakeIdentity() {
  const calls: number[] = [];
  const state = { next: (): Promise<{ tenant?: identity.Tenant }> => Promise.resolve({ tenant: tenant('Northwind') }) };
  const client = {
    getTenant: ({ tenantId }: { tenantId: number }) => {
      calls.push(tenantId);
      return state.next();
    },
    resolveTenantByDomain: () => state.next(),
  };
  return { client: client as never, calls, state };
}

describe('TenantDirectory', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('when identity cannot answer after an entry expired, then the tenant is served as it last was, and asked for again after a short while', async () => {
    const identity = fakeIdentity();
    const tenants = new TenantDirectory(identity.client, TTL_MS);
    expect(await tenants.byTenantId(1)).toEqual(tenant('Northwind'));

    vi.setSystemTime(Date.now() + TTL_MS + 1);
    identity.state.next = () => Promise.reject(unavailable('Service temporarily unavailable.', 3));
    expect(await tenants.byTenantId(1)).toEqual(tenant('Northwind'));
    expect(identity.calls).toHaveLength(2);
    // Within the retry pause: no call.
    expect(await tenants.byTenantId(1)).toEqual(tenant('Northwind'));
    expect(identity.calls).toHaveLength(2);

    vi.setSystemTime(Date.now() + STALE_RETRY_MS + 1);
    identity.state.next = () => Promise.resolve({ tenant: tenant('Northwind Books') });
    expect(await tenants.byTenantId(1)).toEqual(tenant('Northwind Books'));
    expect(identity.calls).toHaveLength(3);
  });

  it('when identity cannot answer and the tenant was never loaded, then the outage is the answer', async () => {
    const identity = fakeIdentity();
    const tenants = new TenantDirectory(identity.client, TTL_MS);
    identity.state.next = () => Promise.reject(unavailable('Service temporarily unavailable.', 3));
    await expect(tenants.byTenantId(1)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('when tenant.updated cleared the cache, then identity is asked at once, and only an outage gets the tenant from before', async () => {
    const identity = fakeIdentity();
    const tenants = new TenantDirectory(identity.client, TTL_MS);
    expect(await tenants.byStoreDomain('northwind.localhost')).toEqual(tenant('Northwind'));

    tenants.clear();
    identity.state.next = () => Promise.resolve({ tenant: tenant('Northwind Books') });
    expect(await tenants.byStoreDomain('northwind.localhost')).toEqual(tenant('Northwind Books'));

    tenants.clear();
    identity.state.next = () => Promise.reject(unavailable('Service temporarily unavailable.', 3));
    expect(await tenants.byStoreDomain('northwind.localhost')).toEqual(tenant('Northwind Books'));
  });

  it('when identity answers that the tenant does not exist, then that is the answer, not the tenant as it was', async () => {
    const identity = fakeIdentity();
    const tenants = new TenantDirectory(identity.client, TTL_MS);
    expect(await tenants.byTenantId(1)).toEqual(tenant('Northwind'));
    vi.setSystemTime(Date.now() + TTL_MS + 1);
    identity.state.next = () => Promise.resolve({});
    expect(await tenants.byTenantId(1)).toBeNull();
  });
});
