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
 * (`forget`), and a stale copy is used while identity does not answer (an
 * outage must not turn purchased issues into unreadable ones).
 */
export class IdentityTenants implements Tenants {
  private readonly cache = new Map<number, { value: TenantInfo | null; at: number }>();
  private readonly pending = new Map<number, Promise<TenantInfo | null>>();
  // Bumped by forget(): an answer fetched before the update is kept only as the outage fallback.
  private generation = 0;

  constructor(
    private readonly client: IdentityClient,
    private readonly ttlMs: number,
    private readonly logger: Logger,
  ) {}

  async find(tenantId: number): Promise<TenantInfo | null> {
    const hit = this.cache.get(tenantId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    let lookup = this.pending.get(tenantId);
    if (!lookup) {
      lookup = this.fetch(tenantId, hit?.value).finally(() => this.pending.delete(tenantId));
      this.pending.set(tenantId, lookup);
    }
    return lookup;
  }

  /** The tenant changed (or, without an id, any may have): the next read asks identity, the old copy stays for outages. */
  forget(tenantId?: number): void {
    this.generation += 1;
    for (const [id, entry] of this.cache) {
      if (tenantId === undefined || id === tenantId) this.cache.set(id, { value: entry.value, at: Number.NEGATIVE_INFINITY });
    }
    if (tenantId === undefined) this.pending.clear();
    else this.pending.delete(tenantId);
  }

  private async fetch(tenantId: number, stale: TenantInfo | null | undefined): Promise<TenantInfo | null> {
    const generation = this.generation;
    let value: TenantInfo | null;
    try {
      const { tenant } = await this.client.getTenant({ tenantId });
      value = tenant ? toTenantInfo(tenant) : null;
    } catch (error) {
      if (!isNotFound(error)) {
        if (stale !== undefined) {
          this.logger.warn({ err: error, tenant_id: tenantId }, 'identity did not answer; using the cached tenant');
          return stale;
        }
        throw error;
      }
      value = null;
    }
    this.cache.set(tenantId, { value, at: generation === this.generation ? Date.now() : Number.NEGATIVE_INFINITY });
    return value;
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
