// What every publisher route shares: the owner check, the audit entry of a
// change, and the statuses all of them document.
import { permissionDenied } from '@folio/errors';
import type { RouteContext } from '../../http/route.js';

type AnyContext = RouteContext<unknown, unknown, unknown>;

export const PUBLISHER_TAG = 'Publisher';

/** Routes that manage the tenant's staff, keys and log: owners only, never an API key. */
export function requireOwner(ctx: Pick<AnyContext, 'staff'>): void {
  if (ctx.staff.role !== 'owner' || ctx.staff.apiKeyId !== undefined) throw permissionDenied('Only an owner of this store can do this.');
}

/** Records who changed what (after the change succeeded). */
export async function audit(
  ctx: Pick<AnyContext, 'staff' | 'tenant' | 'services' | 'requestId'>,
  action: string,
  target: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await ctx.services.audit.record({ tenantId: ctx.tenant.id, actor: ctx.staff.actor, action, target, details, requestId: ctx.requestId });
}
