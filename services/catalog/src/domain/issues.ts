// Single issues by id (GetIssue, BatchGetIssues): for other services (reader
// settings need the tags) and the gateway. Tenant-scoped: another tenant's
// issue is as missing as an unknown one.
import { notFound } from '@folio/errors';
import type { CatalogView, IssueRecord } from './catalog-view.js';
import { toIssueRecord } from './catalog-sync.js';
import type { IssueRepository } from './repositories.js';

export const MAX_BATCH = 500;

export class IssueLookup {
  constructor(private readonly deps: { view: CatalogView; issues: Pick<IssueRepository, 'findInTenant'> }) {}

  async get(tenantId: number, issueId: number): Promise<IssueRecord> {
    const cached = this.deps.view.issue(tenantId, issueId);
    if (cached) return cached;
    // Written by another replica since the last catch-up.
    const stored = await this.deps.issues.findInTenant(tenantId, issueId);
    if (stored) return toIssueRecord(stored);
    throw notFound('Issue not found.');
  }

  /** Known issues of the tenant, in request order; unknown ids are left out. */
  batch(tenantId: number, issueIds: readonly number[]): IssueRecord[] {
    return issueIds.flatMap((id) => {
      const issue = this.deps.view.issue(tenantId, id);
      return issue ? [issue] : [];
    });
  }
}
