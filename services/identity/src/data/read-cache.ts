// Identity's own documents that nearly every request reads (GET /user and
// the multi-tenant listings ask for a user's profile; store hosts resolve
// their tenant by domain), kept in memory so that those reads do not wait on
// the document store. Identity writes these documents itself, so the
// repositories drop an entry when they change it; other identity replicas
// hear tenant.updated and account.deleted (events/read-cache-invalidation.ts)
// and otherwise see a change within IDENTITY_READ_CACHE_TTL_MS (a membership
// made through another replica: at most that long until it shows in /user).
// Absent documents are never cached: a user or tenant created by a seed in
// another process is found on its first read.
import { ReferenceCache } from '@folio/messaging';
import type { TenantDoc, UserDoc } from './schemas.js';

export interface IdentityReadCacheSettings {
  ttlMs: number;
  maxEntries: number;
}

export class IdentityReadCache {
  readonly users: ReferenceCache<number, UserDoc>;
  /** A user's tenant ids, ascending. */
  readonly memberships: ReferenceCache<number, number[]>;
  readonly tenants: ReferenceCache<number, TenantDoc>;
  readonly tenantsByDomain: ReferenceCache<string, TenantDoc>;

  constructor(settings: IdentityReadCacheSettings) {
    const { ttlMs, maxEntries } = settings;
    this.users = new ReferenceCache({ ttlMs, maxEntries });
    this.memberships = new ReferenceCache({ ttlMs, maxEntries });
    this.tenants = new ReferenceCache({ ttlMs, maxEntries: 10_000 });
    this.tenantsByDomain = new ReferenceCache({ ttlMs, maxEntries: 10_000 });
  }

  forgetUser(userId: number): void {
    this.users.delete(userId);
    this.memberships.delete(userId);
  }

  /** One tenant, or every tenant when the id is absent. */
  forgetTenant(tenantId?: number): void {
    if (tenantId === undefined) this.tenants.clear();
    else this.tenants.delete(tenantId);
    // Domains are few and can move between tenants: drop them all.
    this.tenantsByDomain.clear();
  }
}

/** Through `cache` when the repository has one (the service's own store), else straight to the store. */
export function readThrough<K, V>(cache: ReferenceCache<K, V> | undefined, key: K, load: () => Promise<V | null>): Promise<V | null> {
  return cache ? cache.getPresent(key, load) : load();
}
