// GET /api/v2/user/continue-reading: the reader's saved positions across the
// user's tenants, most recently read first, as a section of issue
// summaries. Reader owns the positions and the paging; an issue catalog no
// longer has is left out of the page (the meta stays the reader's).
import type { CatalogView } from './catalog-view.js';
import { pageParam, perPageParam } from './paging.js';
import type { ReadingPositionsPort } from './ports.js';
import { pageMeta, type ListedIssue, type SectionView } from './listing.js';

export const CONTINUE_READING_DEFAULT_PER_PAGE = 6;

export class ContinueReading {
  constructor(private readonly deps: { view: CatalogView; reading: ReadingPositionsPort }) {}

  async list(request: { tenantIds: readonly number[]; userId: number; page: number; perPage: number }): Promise<SectionView> {
    const page = pageParam(request.page);
    const perPage = perPageParam(request.perPage, CONTINUE_READING_DEFAULT_PER_PAGE);
    const tenantIds = [...new Set(request.tenantIds.filter((id) => id > 0))];
    const { positions, total } = tenantIds.length ? await this.deps.reading.list(request.userId, tenantIds, page, perPage) : { positions: [], total: 0 };
    const data: ListedIssue[] = positions.flatMap((position) => {
      const issue = tenantIds.includes(position.tenantId) ? this.deps.view.issue(position.tenantId, position.issueId) : undefined;
      return issue ? [{ issue }] : [];
    });
    return {
      kind: 'continue_reading',
      filter: { name: 'section', value: 'continue_reading' },
      data,
      meta: pageMeta(total, page, perPage, data.length),
    };
  }
}
