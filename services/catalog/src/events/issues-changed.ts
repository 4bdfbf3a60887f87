// catalog's own issues.changed (catalog.events, @folio/messaging): each write
// of an issue is announced, and every other replica catches up with the
// database when it hears one, so a publish or a withdrawal shows in every
// replica's listings within a moment rather than at the next periodic
// catch-up. The gateway hears the same event to drop the tenant's cached
// listings. Best effort, never awaited by the write: a lost announcement is
// bounded by INDEX_REFRESH_INTERVAL_MS (the periodic catch-up).
import type { Logger } from '@folio/logger';
import {
  createEvent,
  ISSUES_CHANGED,
  issuesChangeOf,
  subscribeBroadcast,
  type BroadcastSubscription,
  type Broker,
  type IssuesChangedPayload,
} from '@folio/messaging';

export function announceIssuesChanged(deps: { broker: Broker; exchange: string; logger: Logger }): (tenantId: number, issueIds: number[]) => void {
  return (tenantId, issueIds) => {
    // A seed's thousands of ids say nothing a subscriber uses: the tenant is what it drops.
    const payload: IssuesChangedPayload = { tenant_id: tenantId, issue_ids: issueIds.slice(0, 100) };
    deps.broker.publish(deps.exchange, createEvent(ISSUES_CHANGED, payload, { tenantId })).catch((error: unknown) => {
      deps.logger.debug({ err: error, tenant_id: tenantId }, 'issues.changed not announced; other replicas catch up at their interval');
    });
  };
}

/** Runs `catchUp` on every issues.changed (ours included: a catch-up that finds nothing new is a few lookups). */
export function subscribeIssuesChanged(deps: { broker: Broker; exchange: string; logger: Logger; catchUp: () => void }): Promise<BroadcastSubscription> {
  return subscribeBroadcast(deps.broker, {
    exchange: deps.exchange,
    bindings: [ISSUES_CHANGED],
    logger: deps.logger,
    handler: (event) => {
      if (issuesChangeOf(event)) deps.catchUp();
    },
    // Changes announced while this replica had no queue were missed.
    onSubscribed: () => deps.catchUp(),
  });
}
