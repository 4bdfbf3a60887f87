// Tenants by id (X-Svc-Tenant-Id) and by store domain (Host), cached in
// process for a short while: nearly every request needs one, and tenants
// change rarely. Unknown ids and hosts are remembered briefly too, so a
// client that repeats a bad header does not reach identity every time.
// While identity cannot answer, a tenant is served as it last was, and
// identity is asked again after STALE_RETRY_MS (ReferenceCache's lastKnown):
// an identity outage must not take every tenant's routes down with it
// whenever an entry happens to expire. `tenant.updated` clears the cache
// (app.ts); the copy from before stays only for that fallback.
// Every tenant's web origins (ListWebOrigins) are one more entry, for the CORS
// preflights that name no tenant (http/cors.ts).
import { ReferenceCache } from '@folio/messaging';
import type { identity } from '@folio/proto';
import { isDomainError } from './breaker.js';
import type { GuardedClient } from './index.js';

type Tenant = identity.Tenant;

const MAX_ENTRIES = 5_000;
const NEGATIVE_TTL_MS = 5_000;
/** How soon a tenant served as it last was (identity failed to answer) is asked for again. */
export const STALE_RETRY_MS = 1_000;

export class TenantDirectory {
  private readonly byId: ReferenceCache<number, Tenant | null>;
  private readonly byDomain: ReferenceCache<string, Tenant | null>;
  private readonly origins: ReferenceCache<'all', readonly string[]>;

  constructor(
    private readonly identity: Pick<GuardedClient<identity.IdentityServiceClient>, 'getTenant' | 'resolveTenantByDomain' | 'listWebOrigins'>,
    ttlMs: number,
  ) {
    const options = {
      maxEntries: MAX_ENTRIES,
      ttlMs,
      ttlOf: (tenant: Tenant | null) => (tenant ? ttlMs : NEGATIVE_TTL_MS),
      // Identity's "no such tenant" is an answer (null, orNull below): every error that reaches the cache is an outage.
      lastKnown: { isOutage: () => true, retryAfterMs: STALE_RETRY_MS },
    };
    this.byId = new ReferenceCache({ name: 'gateway-tenants', ...options });
    this.byDomain = new ReferenceCache({ name: 'gateway-tenant-domains', ...options });
    this.origins = new ReferenceCache({ name: 'gateway-web-origins', maxEntries: 1, ttlMs, lastKnown: options.lastKnown });
  }

  /** The union of every tenant's web origins (patterns as the tenants hold them). */
  allWebOrigins(): Promise<readonly string[]> {
    return this.origins.get('all', async () => {
      const { tenants } = await this.identity.listWebOrigins({});
      return [...new Set(tenants.flatMap((tenant) => tenant.webOrigins))];
    });
  }

  /** The tenant, or null when identity does not know it; an outage throws unless the tenant was loaded before. */
  byTenantId(tenantId: number): Promise<Tenant | null> {
    return this.byId.get(tenantId, () => this.orNull(this.identity.getTenant({ tenantId })));
  }

  /** `domain` is a Host header without its port, lower-cased. */
  byStoreDomain(domain: string): Promise<Tenant | null> {
    return this.byDomain.get(domain, () => this.orNull(this.identity.resolveTenantByDomain({ domain })));
  }

  clear(): void {
    this.byId.clear();
    this.byDomain.clear();
    this.origins.clear();
  }

  private async orNull(call: Promise<{ tenant?: Tenant | undefined }>): Promise<Tenant | null> {
    try {
      return (await call).tenant ?? null;
    } catch (error) {
      if (isDomainError(error) && (error.code === 'NOT_FOUND' || error.code === 'INVALID_ARGUMENT')) return null;
      throw error;
    }
  }
}
