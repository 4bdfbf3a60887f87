// Tenant modes of the spec: single-tenant routes need a known tenant in
// X-Svc-Tenant-Id, multi-tenant routes must not carry the header (412 in
// both cases), store routes take the tenant from the Host header (404 for a
// host that is no tenant's store).
import type { Request } from 'express';
import { notFound } from '@folio/errors';
import { preconditionFailed } from './errors.js';
import { HEADER, positiveInt } from './headers.js';
import type { Tenant, TenantMode } from './route.js';
import type { TenantDirectory } from '../peers/tenants.js';

/** `Sur.Localhost:8080` → `sur.localhost`; undefined for anything that is not a plain host name. */
export function storeDomainOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const name = host
    .trim()
    .toLowerCase()
    .replace(/:\d{1,5}$/, '')
    .replace(/\.$/, '');
  return /^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*$/.test(name) && name.length <= 253 ? name : undefined;
}

export async function resolveStoreTenant(req: Request, tenants: TenantDirectory): Promise<Tenant> {
  const domain = storeDomainOf(req.get('host'));
  const tenant = domain ? await tenants.byStoreDomain(domain) : null;
  if (!tenant) throw notFound('Not found.');
  return tenant;
}

/** Enforces the route's tenant mode; returns the tenant for single-tenant routes. */
export async function checkTenantMode(req: Request, mode: TenantMode, tenants: TenantDirectory): Promise<Tenant | undefined> {
  const raw = req.get(HEADER.svcTenant);
  if (mode === 'multi') {
    if (raw !== undefined) throw preconditionFailed(`This endpoint spans all tenants: do not send the ${HEADER.svcTenant} header.`);
    return undefined;
  }
  if (mode !== 'single') return undefined;
  if (raw === undefined || raw.trim() === '') throw preconditionFailed(`This endpoint needs the ${HEADER.svcTenant} header.`);
  const tenantId = positiveInt(raw);
  if (tenantId === undefined) throw preconditionFailed(`The ${HEADER.svcTenant} header must be a positive integer.`);
  const tenant = await tenants.byTenantId(tenantId);
  if (!tenant) throw preconditionFailed(`Unknown tenant: no tenant has the id ${tenantId} given in ${HEADER.svcTenant}.`);
  return tenant;
}
