// catalog as the checkout page sees it: the issue's current name. Catalog may
// be slow or down; the page then shows the name commerce stored with the offer.
import type { PromiseClient } from '@folio/grpc';
import type { Logger } from '@folio/logger';
import type { catalog } from '@folio/proto';
import type { IssueNames } from '../domain/ports.js';

export class CatalogIssueNames implements IssueNames {
  constructor(
    private readonly client: PromiseClient<catalog.CatalogServiceClient>,
    private readonly deadlineMs: number,
    private readonly logger: Logger,
  ) {}

  async nameOf(tenantId: number, issueId: number): Promise<string | null> {
    try {
      const { issue } = await this.client.getIssue({ tenantId, issueId }, { deadlineMs: this.deadlineMs });
      return issue?.name || null;
    } catch (error) {
      this.logger.debug({ err: error, issue_id: issueId }, 'catalog name unavailable; using the offer name');
      return null;
    }
  }
}
