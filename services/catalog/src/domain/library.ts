// The library of one tenant (GET /api/v2/library and /library/filter).
//
// Shelves, in this order: continue reading (reader's positions in this
// tenant), latest issues (every published issue, newest first), then one per
// collection of the tenant in the dataset's order (newest first inside).
// Empty shelves keep their place. `/library` pages over shelves
// (LIBRARY_SHELVES_PER_PAGE per page) with `per_page` items in each;
// `/library/filter` pages over the items of one shelf.
//
// Scope owned (default): only what the user can read (commerce's
// ListAccessibleIssues, one call). Scope all: owned and unowned, only
// individually acquirable issues, with commerce fields (BatchGetAccess, one
// call for every candidate of the request).
import { invalidArgument, notFound } from '@folio/errors';
import type { CatalogView, IssueRecord } from './catalog-view.js';
import { pageParam, perPageParam } from './paging.js';
import { canRead, type AccessPort, type ReadingPositionsPort } from './ports.js';
import { readableShelf } from './readable-issues.js';
import { pageMeta, pageSlice, type ListedIssue, type PageMetaView, type SectionKind, type SectionView } from './listing.js';
import type { Scope, Storefront } from './storefront.js';

export const SECTION_FILTER = 'section';
export const DEFAULT_SHELF_SIZE = 8;

export interface LibraryRequest {
  tenantId: number;
  userId: number;
  page: number;
  perPage: number;
  scope: Scope;
  /** Scope all: only what an e-reader can acquire (storefront.ts), counted alike. */
  filesOnly?: boolean;
}

export interface FilterRequest extends LibraryRequest {
  filterName: string;
  filterValue: string;
}

export interface LibrarySettings {
  shelvesPerPage: number;
  /** Storefront candidates per shelf, newest first. */
  candidateLimit: number;
  /** Reading positions considered for the continue-reading shelf. */
  continueReadingWindow: number;
}

interface Shelf {
  value: string;
  kind: SectionKind;
  /** A collection's title by language. */
  collectionTitles?: Readonly<Record<string, string>>;
  /** The shelf's issues in order, before access filtering. */
  issues(): Promise<readonly IssueRecord[]>;
  /** Where its order comes from: the view's (whose readable part readable-issues.ts keeps), or the user's positions. */
  order: { latest: true } | { collection: string } | { positions: true };
}

/** A shelf's items the user may see, of which a request shows one slice. */
interface VisibleShelf {
  total: number;
  slice(start: number, end: number): ListedIssue[];
}

const listedOf = (issues: readonly IssueRecord[]): VisibleShelf => ({
  total: issues.length,
  slice: (start, end) => issues.slice(start, end).map((issue) => ({ issue })),
});

const listedAs = (items: readonly ListedIssue[]): VisibleShelf => ({ total: items.length, slice: (start, end) => items.slice(start, end) });

export class Library {
  constructor(
    private readonly deps: {
      view: CatalogView;
      access: AccessPort;
      reading: ReadingPositionsPort;
      storefront: Storefront;
      settings: LibrarySettings;
    },
  ) {}

  async sections(request: LibraryRequest): Promise<{ sections: SectionView[]; meta: PageMetaView }> {
    const page = pageParam(request.page);
    const perPage = perPageParam(request.perPage, DEFAULT_SHELF_SIZE);
    const shelves = this.shelves(request.tenantId, request.userId);
    const { shelvesPerPage } = this.deps.settings;
    const onPage = pageSlice(shelves, page, shelvesPerPage);
    const lists = await Promise.all(onPage.map((shelf) => shelf.issues()));
    const visible = await this.visible(request, onPage, lists);
    return {
      sections: onPage.map((shelf, i) => ({ ...sectionOf(shelf), data: visible[i]!.slice(0, perPage) })),
      meta: pageMeta(shelves.length, page, shelvesPerPage, onPage.length),
    };
  }

  async filter(request: FilterRequest): Promise<SectionView> {
    const page = pageParam(request.page);
    const perPage = perPageParam(request.perPage, DEFAULT_SHELF_SIZE);
    const name = request.filterName.trim();
    if (!name) throw invalidArgument('A filter is required, e.g. section=latest_issues.', { section: ['The section field is required.'] });
    if (name !== SECTION_FILTER) throw invalidArgument(`Unknown filter ${name}.`, { [name]: [`Filtering by ${name} is not supported; use section.`] });
    const shelf = this.shelves(request.tenantId, request.userId).find((candidate) => candidate.value === request.filterValue);
    if (!shelf) throw notFound('Section not found.');
    const [items] = await this.visible(request, [shelf], [await shelf.issues()]);
    const start = (page - 1) * perPage;
    const data = items!.slice(start, start + perPage);
    return {
      ...sectionOf(shelf),
      data,
      meta: pageMeta(items!.total, page, perPage, data.length),
    };
  }

  private shelves(tenantId: number, userId: number): Shelf[] {
    const { view, reading, settings } = this.deps;
    const catalog = view.tenant(tenantId);
    const shelves: Shelf[] = [
      {
        value: 'continue_reading',
        kind: 'continue_reading',
        order: { positions: true },
        issues: async () => {
          // A visitor (user 0, scope all) has read nothing.
          if (userId === 0) return [];
          const { positions } = await reading.list(userId, [tenantId], 1, settings.continueReadingWindow);
          return positions.flatMap((position) => {
            // A withdrawn issue is on /user/continue-reading still, but the library lists only what is published.
            const issue = position.tenantId === tenantId ? catalog?.issue(position.issueId) : undefined;
            return issue?.listed ? [issue] : [];
          });
        },
      },
      { value: 'latest_issues', kind: 'latest_issues', order: { latest: true }, issues: async () => catalog?.latest() ?? [] },
    ];
    for (const collection of catalog?.collectionList() ?? []) {
      shelves.push({
        value: collection.slug,
        kind: 'collection',
        collectionTitles: collection.title,
        order: { collection: collection.slug },
        issues: async () => catalog!.inCollection(collection.slug),
      });
    }
    return shelves;
  }

  /**
   * The issues of each shelf the scope lets the user see, in order. Scope
   * owned reads the user's readable part of a view-ordered shelf from
   * readable-issues.ts (built once per access answer), so a page costs its own
   * size; the continue-reading shelf is short and filtered here.
   */
  private async visible(request: LibraryRequest, shelves: readonly Shelf[], lists: readonly (readonly IssueRecord[])[]): Promise<VisibleShelf[]> {
    if (lists.every((list) => list.length === 0)) return lists.map(() => listedOf([]));
    const { access, storefront, settings, view } = this.deps;
    if (request.scope === 'all') {
      const candidates = lists.map((list) => list.slice(0, settings.candidateLimit));
      return (await storefront.acquirable(request.tenantId, request.userId, candidates, { filesOnly: request.filesOnly === true })).map(listedAs);
    }
    const content = await access.accessible([request.tenantId], request.userId);
    const catalog = view.tenant(request.tenantId);
    return lists.map((list, i) => {
      const order = shelves[i]!.order;
      if (!catalog || 'positions' in order) return listedOf(list.filter((issue) => canRead(content, issue)));
      return listedOf(readableShelf(content, catalog, list, 'collection' in order ? order.collection : undefined));
    });
  }
}

function sectionOf(shelf: Shelf): Omit<SectionView, 'data'> {
  return {
    kind: shelf.kind,
    filter: { name: SECTION_FILTER, value: shelf.value },
    ...(shelf.collectionTitles && { collectionTitles: shelf.collectionTitles }),
  };
}
