// Tenants as other services and clients see them, and the memberships that
// give a user an account in a tenant.
import { invalidArgument, notFound } from '@folio/errors';
import type { IdentityRepositories, TenantRecord } from './repositories.js';

/** The generic (non-branded) app's tenant: the default `X-CustomApp-Tenant-Id`. */
export const DEFAULT_TENANT_ID = 1;

export function appTenantIdOf(value: number | undefined | null): number {
  return value && value > 0 ? value : DEFAULT_TENANT_ID;
}

export class TenantDirectory {
  constructor(private readonly store: Pick<IdentityRepositories, 'tenants' | 'users' | 'memberships'>) {}

  async get(tenantId: number): Promise<TenantRecord> {
    const tenant = tenantId > 0 ? await this.store.tenants.findById(tenantId) : null;
    if (!tenant) throw notFound('Tenant not found.');
    return tenant;
  }

  /** The tenant of a custom-branded app; unknown ids are a client error on the `tenant` field. */
  async appTenant(appTenantId: number | undefined): Promise<TenantRecord> {
    const id = appTenantIdOf(appTenantId);
    const tenant = await this.store.tenants.findById(id);
    if (!tenant) throw invalidArgument('The given data was invalid.', { tenant: ['The selected tenant is invalid.'] });
    return tenant;
  }

  /** A store's Host header to its tenant: case-insensitive, port and trailing dot ignored. */
  async resolveDomain(host: string): Promise<TenantRecord> {
    const domain = normalizeHost(host);
    const tenant = domain ? await this.store.tenants.findByDomain(domain) : null;
    if (!tenant) throw notFound('Store not found.');
    return tenant;
  }

  /** Every tenant's web origins (the gateway's CORS preflights); read from the store, the gateway caches them. */
  webOrigins(): Promise<{ id: number; webOrigins: string[] }[]> {
    return this.store.tenants.withWebOrigins();
  }

  async ensureMembership(userId: number, tenantId: number): Promise<boolean> {
    const [user, tenant] = await Promise.all([this.store.users.findById(userId), this.store.tenants.findById(tenantId)]);
    if (!user) throw notFound('User not found.');
    if (!tenant) throw notFound('Tenant not found.');
    return this.store.memberships.ensure(userId, tenantId);
  }
}

export function normalizeHost(host: string): string {
  let value = host.trim().toLowerCase();
  if (value.startsWith('[')) {
    // IPv6 literal: [::1]:8080
    const end = value.indexOf(']');
    value = end > 0 ? value.slice(1, end) : value;
  } else {
    value = value.replace(/:\d*$/, '');
  }
  return value.replace(/\.$/, '');
}
