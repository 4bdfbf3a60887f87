// catalog's `issues.changed` broadcast, defined once for its publisher
// (catalog, after every write of an issue: a publish, a withdrawal, an edit,
// what reader's ingest recorded, a seed) and its subscribers: the other
// catalog replicas, which catch up with the database at once instead of at
// their next periodic catch-up, and the gateway, whose per-user response
// cache drops the tenant's listings. Best effort: a lost one is bounded by
// the replicas' catch-up interval and the cache's TTL. Version 1 payload.
import type { DomainEvent } from './event.js';

/** catalog.events: issues of a tenant changed (in a listing, or in what is shown of them). */
export const ISSUES_CHANGED = 'issues.changed';

export interface IssuesChangedPayload {
  tenant_id: number;
  /** Informative: subscribers may drop more than these. */
  issue_ids: number[];
}

/** The tenant an issues.changed event names; `{}` (every tenant) when it names none; null for another event. */
export function issuesChangeOf(event: DomainEvent): { tenantId?: number; issueIds: number[] } | null {
  if (event.type !== ISSUES_CHANGED) return null;
  const payload = (event.payload ?? {}) as Record<string, unknown>;
  const tenantId = typeof payload.tenant_id === 'number' && Number.isSafeInteger(payload.tenant_id) && payload.tenant_id > 0 ? payload.tenant_id : undefined;
  const issueIds = Array.isArray(payload.issue_ids) ? payload.issue_ids.filter((id): id is number => typeof id === 'number' && Number.isSafeInteger(id)) : [];
  return { ...(tenantId !== undefined && { tenantId }), issueIds };
}
