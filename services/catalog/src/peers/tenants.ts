// Tenant settings from identity's GetTenant, cached until identity's
// tenant.updated drops them (`forget`, events/cache-invalidation.ts) or for
// TENANT_CACHE_TTL_MS (30 s by default) when that event was missed.
// Concurrent misses share one call; while identity is unreachable a tenant is
// served as it last was (ReferenceCache's lastKnown) rather than failing the
// listing.
import { DomainError, notFound } from '@folio/errors';
import type { PromiseClient } from '@folio/grpc';
import type { Logger } from '@folio/logger';
import { ReferenceCache } from '@folio/messaging';
import type { identity } from '@folio/proto';
import type { TenantSettings, TenantSettingsPort } from '../domain/ports.js';

const isTransient = (error: unknown) => error instanceof DomainError && (error.code === 'UNAVAILABLE' || error.code === 'DEADLINE_EXCEEDED');

export class IdentityTenants implements TenantSettingsPort {
  private readonly cache: ReferenceCache<number, TenantSettings>;

  constructor(
    private readonly client: PromiseClient<identity.IdentityServiceClient>,
    private readonly options: { ttlMs: number; deadlineMs: number; logger: Logger },
  ) {
    this.cache = new ReferenceCache({
      name: 'catalog-tenants',
      maxEntries: 10_000,
      ttlMs: options.ttlMs,
      lastKnown: {
        isOutage: isTransient,
        onFallback: (error, tenantId) => options.logger.warn({ tenant_id: tenantId, err: error }, 'identity unreachable; serving cached tenant settings'),
      },
    });
  }

  get(tenantId: number): Promise<TenantSettings> {
    return this.cache.get(tenantId, () => this.fetch(tenantId));
  }

  /** The tenant changed (or, without an id, any may have): the next read asks identity; the old copy stays for outages. */
  forget(tenantId?: number): void {
    if (tenantId === undefined) this.cache.clear();
    else this.cache.delete(tenantId);
  }

  private async fetch(tenantId: number): Promise<TenantSettings> {
    try {
      const { tenant } = await this.client.getTenant({ tenantId }, { deadlineMs: this.options.deadlineMs });
      if (!tenant) throw notFound('Tenant not found.');
      return {
        id: tenant.id,
        domain: tenant.domain,
        lang: tenant.lang,
        currency: tenant.currency,
        storefrontSearch: tenant.features?.storefrontSearch ?? false,
      };
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') throw notFound('Tenant not found.');
      throw error;
    }
  }
}
