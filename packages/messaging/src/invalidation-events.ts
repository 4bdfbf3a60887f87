// The two events that invalidate reference data cached by other services,
// defined once for their publishers (commerce, identity) and every reader
// (catalog, reader, commerce, gateway). Version 1 payloads; a change is a new
// version, not an edit.
import type { DomainEvent } from './event.js';

/** commerce.events: what a user (or, without user_id, anyone) may read in a tenant changed. */
export const ACCESS_CHANGED = 'access.changed';
/** identity.events: a tenant's settings changed. */
export const TENANT_UPDATED = 'tenant.updated';

export interface AccessChangedPayload {
  /** Absent: every tenant (an account erased everywhere). */
  tenant_id?: number;
  /** Absent: every user of the tenant (offers, prices or seeded grants changed). */
  user_id?: number;
  /** The issues concerned, when known; informative, readers may drop more. */
  issue_ids?: number[];
}

export interface TenantUpdatedPayload {
  tenant_id: number;
}

const positiveInt = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);

/**
 * What an access.changed event invalidates, or null for another event.
 * A payload that names neither a tenant nor a user invalidates everything,
 * which is always safe.
 */
export function accessChangeOf(event: DomainEvent): { tenantId?: number; userId?: number } | null {
  if (event.type !== ACCESS_CHANGED) return null;
  const payload = (event.payload ?? {}) as Record<string, unknown>;
  const tenantId = positiveInt(payload.tenant_id);
  const userId = positiveInt(payload.user_id);
  return { ...(tenantId !== undefined && { tenantId }), ...(userId !== undefined && { userId }) };
}

/** The tenant a tenant.updated event names; undefined means "any tenant" (drop them all). */
export function tenantUpdateOf(event: DomainEvent): { tenantId?: number } | null {
  if (event.type !== TENANT_UPDATED) return null;
  const tenantId = positiveInt((event.payload as Record<string, unknown> | null)?.tenant_id);
  return tenantId !== undefined ? { tenantId } : {};
}
