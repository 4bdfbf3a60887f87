// Tenants by id (X-Svc-Tenant-Id) and by store domain (Host), cached in
// process for a short while: nearly every request needs one, and tenants
// change rarely. Unknown ids and hosts are remembered briefly too, so a
// client that repeats a bad header does not reach identity every time.
// While identity cannot answer, an expired entry is served as it last was
// (and asked for again after STALE_RETRY_MS): an identity outage must not take
// every tenant's routes down with it whenever an entry happens to expire.
// `tenant.updated` clears the cache (app.ts), so what is served stale was
// never replaced.
import type { identity } from '@folio/proto';
import { isDomainError } from './breaker.js';
import type { GuardedClient } from './index.js';

type Tenant = identity.Tenant;

const MAX_ENTRIES = 5_000;
const NEGATIVE_TTL_MS = 5_000;
/** How soon an entry served stale (its owner failed to answer) is asked for again. */
export const STALE_RETRY_MS = 1_000;

interface Entry<V> {
  value: Promise<V>;
  expires: number;
  /** The last value loaded: what an outage falls back to. */
  last?: { value: V };
}

class TtlCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();

  constructor(private readonly ttlMs: (value: V) => number) {}

  get(key: K, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    const last = hit?.last;
    let servedStale = false;
    const value = last
      ? load().catch(() => {
          servedStale = true;
          return last.value;
        })
      : load();
    // In flight: shared by concurrent callers until it settles.
    this.entries.set(key, { value, expires: Number.POSITIVE_INFINITY, last });
    value.then(
      (settled) => {
        // A clear() meanwhile dropped this entry: it is not put back.
        if (this.entries.get(key)?.value !== value) return;
        const expires = Date.now() + (servedStale ? STALE_RETRY_MS : this.ttlMs(settled));
        this.entries.set(key, { value, expires, last: { value: settled } });
      },
      () => {
        if (this.entries.get(key)?.value === value) this.entries.delete(key);
      },
    );
    if (this.entries.size > MAX_ENTRIES) {
      // Maps iterate in insertion order: drop the oldest.
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}

export class TenantDirectory {
  private readonly byId: TtlCache<number, Tenant | null>;
  private readonly byDomain: TtlCache<string, Tenant | null>;

  constructor(
    private readonly identity: Pick<GuardedClient<identity.IdentityServiceClient>, 'getTenant' | 'resolveTenantByDomain'>,
    ttlMs: number,
  ) {
    const ttl = (tenant: Tenant | null) => (tenant ? ttlMs : Math.min(ttlMs, NEGATIVE_TTL_MS));
    this.byId = new TtlCache(ttl);
    this.byDomain = new TtlCache(ttl);
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
