// identity as commerce sees it: tenant settings (currency, free access, app
// schemes), users' e-mails and store memberships, over gRPC.
import { DomainError } from '@folio/errors';
import type { PromiseClient } from '@folio/grpc';
import type { Logger } from '@folio/logger';
import { ReferenceCache } from '@folio/messaging';
import type { identity } from '@folio/proto';
import type { TenantInfo, Tenants, Users } from '../domain/ports.js';

type IdentityClient = PromiseClient<identity.IdentityServiceClient>;

const isNotFound = (error: unknown) => error instanceof DomainError && error.code === 'NOT_FOUND';

export function toTenantInfo(tenant: identity.Tenant): TenantInfo {
  return {
    id: tenant.id,
    name: tenant.name,
    currency: tenant.currency.toUpperCase(),
    freeAccess: tenant.freeAccess,
    aggregatorId: tenant.aggregatorId ?? null,
    mobileAppScheme: tenant.mobileAppScheme || null,
    lang: tenant.lang,
    countryCode: tenant.countryCode ?? null,
  };
}

/**
 * Tenant settings change rarely and are read on every access decision: each
 * is reused for `ttlMs` or until identity's tenant.updated says it changed
 * (`forget`), and served as it last was while identity does not answer
 * (ReferenceCache's lastKnown: an outage must not turn purchased issues into
 * unreadable ones). An unknown tenant is cached too, as null.
 */
export class IdentityTenants implements Tenants {
  private readonly cache: ReferenceCache<number, TenantInfo | null>;

  constructor(
    private readonly client: IdentityClient,
    ttlMs: number,
    logger: Logger,
  ) {
    this.cache = new ReferenceCache({
      name: 'commerce-tenants',
      maxEntries: 10_000,
      ttlMs,
      // NOT_FOUND is an answer (null, below): every error that reaches the cache is identity not answering.
      lastKnown: {
        isOutage: () => true,
        onFallback: (error, tenantId) => logger.warn({ err: error, tenant_id: tenantId }, 'identity did not answer; using the cached tenant'),
      },
    });
  }

  find(tenantId: number): Promise<TenantInfo | null> {
    return this.cache.get(tenantId, () => this.fetch(tenantId));
  }

  /** The tenant changed (or, without an id, any may have): the next read asks identity, the old copy stays for outages. */
  forget(tenantId?: number): void {
    if (tenantId === undefined) this.cache.clear();
    else this.cache.delete(tenantId);
  }

  private async fetch(tenantId: number): Promise<TenantInfo | null> {
    try {
      const { tenant } = await this.client.getTenant({ tenantId });
      return tenant ? toTenantInfo(tenant) : null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }
}

/**
 * A membership is only ever removed with its account (identity's erasure,
 * after it has ended every session of the account, so no purchase redirect of
 * that user gets this far any more): a pair ensured once is not asked again
 * while this replica remembers it. Every purchase redirect ensures one.
 */
const ENSURED_MEMBERSHIPS = { name: 'commerce-ensured-memberships', maxEntries: 100_000, ttlMs: 10 * 60_000 };

export class IdentityUsers implements Users {
  private readonly ensured = new ReferenceCache<string, true>(ENSURED_MEMBERSHIPS);

  constructor(private readonly client: IdentityClient) {}

  async emailOf(userId: number): Promise<string | null> {
    try {
      const { user } = await this.client.getUser({ userId });
      return user?.email ? user.email.trim().toLowerCase() : null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async ensureMembership(userId: number, tenantId: number): Promise<void> {
    const key = `${userId}:${tenantId}`;
    if (this.ensured.peek(key)) return;
    const generation = this.ensured.snapshot();
    await this.client.ensureMembership({ userId, tenantId });
    this.ensured.setIfCurrent(key, true, generation);
  }

  /** account.deleted: the user's pairs are asked again (a re-created account starts without memberships). */
  forgetUser(userId: number): void {
    this.ensured.deleteWhere((key) => key.startsWith(`${userId}:`));
  }
}
