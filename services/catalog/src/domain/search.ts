// Store search (one tenant, scope honored) and global search (the user's
// tenants, what the user can read, no commerce fields), answered from the
// in-memory index (search-index.ts holds the ranking rules).
//
// Rules:
//   - the tenant's `storefront_search` flag is checked first (global: the app
//     tenant's); off means "disabled" (the gateway answers 204), whatever the query;
//   - `query` is NFC-normalized and trimmed, then must be 2-128 characters
//     (INVALID_ARGUMENT on field `query`);
//   - matching is case- and accent-insensitive over title, author, publisher,
//     keywords and description; the last query term also matches as a prefix
//     (from two characters on);
//   - 8 per page with page meta; no match gives empty data, from/to null,
//     last_page 1, total 0;
//   - storefront (scope=all): commerce is asked once about the best
//     STOREFRONT_CANDIDATE_LIMIT matches (1,000 by default); the total counts
//     the individually acquirable ones among them.
import { invalidArgument } from '@folio/errors';
import type { CatalogView, IssueRecord } from './catalog-view.js';
import { pageParam } from './paging.js';
import { canRead, type AccessibleContent, type AccessPort, type TenantSettingsPort } from './ports.js';
import { pageMeta, pageSlice, type ListedIssue, type SectionView } from './listing.js';
import type { RankedQueries } from './ranked-queries.js';
import { TopHits, type Hit } from './search-index.js';
import type { Scope, Storefront } from './storefront.js';
import { normalizeQuery, queryTerms, writtenWithoutSpaces } from './text.js';

export const SEARCH_PAGE_SIZE = 8;
export const DEFAULT_APP_TENANT = 1;
const MIN_PREFIX = 2;

export type SearchResult = { disabled: true } | { disabled: false; section: SectionView };

export interface StoreSearchRequest {
  tenantId: number;
  userId: number;
  query: string;
  page: number;
  scope: Scope;
  /** Scope all: only what an e-reader can acquire (storefront.ts), counted alike. */
  filesOnly?: boolean;
}

export interface GlobalSearchRequest {
  tenantIds: readonly number[];
  appTenantId: number;
  userId: number;
  query: string;
  page: number;
}

export class Search {
  constructor(
    private readonly deps: {
      view: CatalogView;
      access: AccessPort;
      tenants: TenantSettingsPort;
      storefront: Storefront;
      candidateLimit: number;
      rankings: RankedQueries;
    },
  ) {}

  async store(request: StoreSearchRequest): Promise<SearchResult> {
    const { view, access, tenants, storefront, candidateLimit, rankings } = this.deps;
    if (!(await tenants.get(request.tenantId)).storefrontSearch) return { disabled: true };
    const { text, terms, page } = validate(request.query, request.page);
    const tenant = view.tenant(request.tenantId);

    let items: ListedIssue[];
    let total: number;
    if (!tenant || terms.length === 0) {
      items = [];
      total = 0;
    } else if (request.scope === 'all') {
      const ranked = rankings.ranked(request.tenantId, tenant.index, terms, prefixLast(terms), () => tenant.recencyOrder());
      const candidates = ranked.slice(0, candidateLimit).map((hit) => hit.doc);
      const [acquirable] = await storefront.acquirable(request.tenantId, request.userId, [candidates], { filesOnly: request.filesOnly === true });
      total = acquirable!.length;
      items = pageSlice(acquirable!, page, SEARCH_PAGE_SIZE);
    } else {
      const content = await access.accessible([request.tenantId], request.userId);
      const ranked = rankings.ranked(request.tenantId, tenant.index, terms, prefixLast(terms), () => tenant.recencyOrder());
      const readable = readableRanking(ranked, content, request.tenantId);
      total = readable.length;
      items = pageSlice(readable, page, SEARCH_PAGE_SIZE).map((hit) => ({ issue: hit.doc }));
    }
    return { disabled: false, section: searchSection(text, items, total, page) };
  }

  async global(request: GlobalSearchRequest): Promise<SearchResult> {
    const { view, access, tenants, rankings } = this.deps;
    const appTenant = request.appTenantId > 0 ? request.appTenantId : DEFAULT_APP_TENANT;
    if (!(await tenants.get(appTenant)).storefrontSearch) return { disabled: true };
    const { text, terms, page } = validate(request.query, request.page);
    const tenantIds = [...new Set(request.tenantIds.filter((id) => id > 0))];
    const hits = new TopHits<IssueRecord>(page * SEARCH_PAGE_SIZE);
    if (terms.length > 0 && tenantIds.some((id) => view.tenant(id))) {
      const content = await access.accessible(tenantIds, request.userId);
      // One ranking across tenants: scores of every tenant's index are comparable.
      for (const tenantId of tenantIds) {
        const tenant = view.tenant(tenantId);
        if (tenant) {
          const ranked = rankings.ranked(tenantId, tenant.index, terms, prefixLast(terms), () => tenant.recencyOrder());
          offerBest(readableRanking(ranked, content, tenantId), hits.limit, hits);
        }
      }
    }
    const items = pageSlice(hits.sorted(), page, SEARCH_PAGE_SIZE).map((hit) => ({ issue: hit.doc }));
    return { disabled: false, section: searchSection(text, items, hits.total, page) };
  }
}

function validate(query: string, page: number): { text: string; terms: string[]; page: number } {
  const { text, length } = normalizeQuery(query);
  // One character can be a word where words are written without spaces (山, 本).
  if (length < (writtenWithoutSpaces(text) ? 1 : 2) || length > 128) {
    throw invalidArgument('The query must be between 2 and 128 characters.', { query: ['The query must be between 2 and 128 characters.'] });
  }
  return { text, terms: queryTerms(text), page: pageParam(page) };
}

const readableRankings = new WeakMap<readonly Hit<IssueRecord>[], WeakMap<AccessibleContent, readonly Hit<IssueRecord>[]>>();

/**
 * The hits of a kept ranking the user can read in the tenant, best first:
 * filtered once per ranking and access answer (both kept objects), so the
 * next page or the same query again costs a slice.
 */
function readableRanking(ranked: readonly Hit<IssueRecord>[], content: AccessibleContent, tenantId: number): readonly Hit<IssueRecord>[] {
  const accept = readableIn(content, tenantId);
  if (!accept) return ranked;
  let byContent = readableRankings.get(ranked);
  if (!byContent) {
    byContent = new WeakMap();
    readableRankings.set(ranked, byContent);
  }
  let readable = byContent.get(content);
  if (!readable) {
    readable = ranked.filter((hit) => accept(hit.doc));
    byContent.set(content, readable);
  }
  return readable;
}

/** Offers the first `keep` hits of a ranking (best first) to `sink` and counts them all. */
function offerBest(ranked: readonly Hit<IssueRecord>[], keep: number, sink: TopHits<IssueRecord>): TopHits<IssueRecord> {
  for (const hit of ranked.slice(0, keep)) sink.offer(hit.doc, hit.matched, hit.score * 2);
  // The rest rank after the first `keep` of their own list, so none of them could be on the page.
  sink.countOnly(Math.max(0, ranked.length - keep));
  return sink;
}

/** The access filter of one tenant's index: none at all when the whole tenant is readable. */
function readableIn(content: AccessibleContent, tenantId: number): ((issue: IssueRecord) => boolean) | undefined {
  if (content.wholeTenants.has(tenantId)) return undefined;
  return (issue) => canRead(content, issue);
}

function prefixLast(terms: readonly string[]): boolean {
  return (terms.at(-1)?.length ?? 0) >= MIN_PREFIX;
}

function searchSection(query: string, items: ListedIssue[], total: number, page: number): SectionView {
  return {
    kind: 'search',
    filter: { name: 'search', value: query },
    data: items,
    meta: pageMeta(total, page, SEARCH_PAGE_SIZE, items.length),
  };
}
