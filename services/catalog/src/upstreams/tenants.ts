// Tenant settings from identity's GetTenant, cached until identity's
// tenant.updated drops them (`forget`, events/cache-invalidation.ts) or for
// TENANT_CACHE_TTL_MS (30 s by default) when that event was missed.
// Concurrent misses share one call; while identity is unreachable a stale
// entry keeps being served rather than failing the listing.
import { DomainError, notFound } from '@folio/errors';
import type { PromiseClient } from '@folio/grpc';
import type { Logger } from '@folio/logger';
import type { identity } from '@folio/proto';
import type { TenantSettings, TenantSettingsPort } from '../domain/ports.js';

interface Entry {
  value: TenantSettings;
  expiresAt: number;
}

export class IdentityTenants implements TenantSettingsPort {
  private readonly cache = new Map<number, Entry>();
  private readonly pending = new Map<number, Promise<TenantSettings>>();
  // Bumped by forget(): settings fetched before an update are kept only as the outage fallback.
  private generation = 0;

  constructor(
    private readonly client: PromiseClient<identity.IdentityServiceClient>,
    private readonly options: { ttlMs: number; deadlineMs: number; logger: Logger },
  ) {}

  async get(tenantId: number): Promise<TenantSettings> {
    const cached = this.cache.get(tenantId);
    if (cached && cached.expiresAt > Date.now()) return cached.value;
    let call = this.pending.get(tenantId);
    if (!call) {
      call = this.fetch(tenantId, cached).finally(() => this.pending.delete(tenantId));
      this.pending.set(tenantId, call);
    }
    return call;
  }

  /** The tenant changed (or, without an id, any may have): the next read asks identity; the old copy stays for outages. */
  forget(tenantId?: number): void {
    this.generation += 1;
    for (const [id, entry] of this.cache) if (tenantId === undefined || id === tenantId) this.cache.set(id, { value: entry.value, expiresAt: 0 });
    if (tenantId === undefined) this.pending.clear();
    else this.pending.delete(tenantId);
  }

  private async fetch(tenantId: number, stale: Entry | undefined): Promise<TenantSettings> {
    const generation = this.generation;
    try {
      const { tenant } = await this.client.getTenant({ tenantId }, { deadlineMs: this.options.deadlineMs });
      if (!tenant) throw notFound('Tenant not found.');
      const value: TenantSettings = {
        id: tenant.id,
        domain: tenant.domain,
        lang: tenant.lang,
        currency: tenant.currency,
        storefrontSearch: tenant.features?.storefrontSearch ?? false,
      };
      this.cache.set(tenantId, { value, expiresAt: generation === this.generation ? Date.now() + this.options.ttlMs : 0 });
      return value;
    } catch (error) {
      const transient = error instanceof DomainError && (error.code === 'UNAVAILABLE' || error.code === 'DEADLINE_EXCEEDED');
      if (transient && stale) {
        this.options.logger.warn({ tenant_id: tenantId, err: error }, 'identity unreachable; serving cached tenant settings');
        return stale.value;
      }
      if (error instanceof DomainError && error.code === 'NOT_FOUND') throw notFound('Tenant not found.');
      throw error;
    }
  }
}
