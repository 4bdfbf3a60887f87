// Builds the OPDS catalog of a store (model.ts) from catalog's existing RPCs:
// the storefront listing (scope=all: commerce fields, only individually
// acquirable issues) for new issues, collections and search, my-content for
// the shelf. Acquisition links follow the storefront: readable and free ->
// open-access, readable -> acquisition (the gateway's download route),
// buyable -> buy (the purchase redirect, with the price the user pays now).
// Issues that are neither (pay-per-use, physical) are left out: an e-reader
// can do nothing with them. Catalog leaves them out before paging
// (`files_only`), so `numberOfItems` and `opensearch:totalResults` count
// exactly what the pages list.
import { catalog } from '@folio/proto';
import type { Lang } from '../render/lang.js';
import type { Services, Tenant } from '../http/route.js';
import { sectionTitle } from '../render/v2/catalog.js';
import { accessibilityEntryOf } from './accessibility.js';
import { fileTypeOf, MEDIA_TYPE, type Acquisition, type Destination, type Feed, type NavigationEntry, type PublicationEntry } from './model.js';

export const PER_PAGE = 20;

export interface CatalogScope {
  services: Services;
  tenant: Tenant;
  userId: number;
  lang: Lang;
  /** `http://northwind.localhost:8080`: the store as the client reached it. */
  storeUrl: string;
  /**
   * Nobody signed in (a store whose catalog is public, `opds_public_catalog`): userId 0, which catalog
   * and commerce read as a visitor with no purchases, plan or positions, so free issues are open-access
   * and the rest are for sale.
   */
  visitor?: boolean;
}

const downloadUrl = (scope: CatalogScope, issueId: number) => `${scope.storeUrl}/opds/download/${issueId}`;

/** A publication date as ISO 8601 to the second (as the v2 API shows it); undefined when there is none. */
function isoOf(epochMs: number): string | undefined {
  if (!Number.isFinite(epochMs) || epochMs <= 0) return undefined;
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const BCP47 = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

function acquisitionsOf(scope: CatalogScope, issue: catalog.IssueSummary, readable: boolean | undefined): Acquisition[] {
  const fileType = fileTypeOf(issue.type);
  if (!fileType) return [];
  const commerce = issue.commerce;
  // my-content items carry no commerce fields: everything listed there can be read.
  if (!commerce) return readable ? [{ kind: 'acquisition', href: downloadUrl(scope, issue.id), type: fileType }] : [];
  if (commerce.canBeRead) {
    return [{ kind: commerce.free ? 'open-access' : 'acquisition', href: downloadUrl(scope, issue.id), type: fileType }];
  }
  if (commerce.canBeBought && commerce.purchaseLink) {
    const price = commerce.prices.find((p) => p.currency === scope.tenant.currency) ?? commerce.prices[0];
    return [
      {
        kind: 'buy',
        href: commerce.purchaseLink,
        type: MEDIA_TYPE.html,
        indirectType: fileType,
        ...(price && { price: { currency: price.currency, value: price.discount?.amount ?? price.amount } }),
      },
    ];
  }
  return [];
}

export function publicationOf(scope: CatalogScope, issue: catalog.IssueSummary, { readable }: { readable?: boolean } = {}): PublicationEntry | undefined {
  const acquisitions = acquisitionsOf(scope, issue, readable);
  if (acquisitions.length === 0) return undefined;
  const published = isoOf(issue.publishedAtMs);
  const accessibility = accessibilityEntryOf(issue.accessibility);
  return {
    issueId: issue.id,
    identifier: `urn:folio:${issue.tenantId || scope.tenant.id}:${issue.id}`,
    title: issue.name,
    ...(BCP47.test(issue.lang) && { language: issue.lang }),
    ...(published && { published }),
    description: issue.description,
    author: issue.author,
    publisher: issue.publisher,
    contentType: issue.type,
    coverUrl: issue.coverUrl,
    ...(issue.numberOfPages && issue.numberOfPages > 0 && { numberOfPages: issue.numberOfPages }),
    ...(accessibility && { accessibility }),
    acquisitions,
  };
}

/**
 * The publications of a feed page, with the duration of its audiobooks: one
 * call to reader for the page (catalog does not know how long tracks play).
 * Without reader the feed is still served, without durations.
 */
async function publicationsOf(scope: CatalogScope, issues: catalog.IssueSummary[], options: { readable?: boolean } = {}): Promise<PublicationEntry[]> {
  const entries = issues.map((issue) => publicationOf(scope, issue, options)).filter((entry) => entry !== undefined);
  const audio = entries.filter((entry) => entry.contentType === 'audio').map((entry) => entry.issueId);
  if (audio.length === 0) return entries;
  const found = await scope.services.readerSync.listAudioDurations({ tenantId: scope.tenant.id, issueIds: audio }).catch(() => ({ durations: [] }));
  const seconds = new Map(found.durations.map((duration) => [duration.issueId, duration.seconds]));
  return entries.map((entry) => {
    const duration = seconds.get(entry.issueId);
    return duration && duration > 0 ? { ...entry, duration: Math.round(duration * 10) / 10 } : entry;
  });
}

function baseFeed(scope: CatalogScope, self: Destination, title: string): Feed {
  return {
    self,
    title,
    storeName: scope.tenant.name,
    updated: new Date(),
    navigation: [],
    publications: [],
    searchable: scope.tenant.features?.storefrontSearch ?? false,
    ...(scope.visitor && { anonymous: true }),
  };
}

function pagingOf(meta: catalog.PageMeta | undefined, at: (page: number) => Destination): Feed['paging'] {
  if (!meta) return undefined;
  const current = Math.max(1, meta.currentPage);
  const last = Math.max(1, meta.lastPage);
  return {
    currentPage: current,
    itemsPerPage: meta.perPage || PER_PAGE,
    numberOfItems: meta.total,
    first: at(1),
    last: at(last),
    ...(current < last && { next: at(current + 1) }),
    ...(current > 1 && { previous: at(current - 1) }),
  };
}

/** The store's collections (slug and title), from the library's shelves. */
async function collectionsOf(scope: CatalogScope): Promise<{ slug: string; title: string }[]> {
  const found: { slug: string; title: string }[] = [];
  for (let page = 1; page <= 50; page++) {
    const response = await scope.services.catalog.listLibrarySections({
      tenantId: scope.tenant.id,
      userId: scope.userId,
      page,
      perPage: 1,
      scope: catalog.Scope.SCOPE_ALL,
    });
    for (const section of response.sections) {
      const slug = section.filter?.value;
      if (section.kind === catalog.SectionKind.SECTION_KIND_COLLECTION && slug) found.push({ slug, title: sectionTitle(section, scope.lang) });
    }
    if (!response.meta || page >= response.meta.lastPage) break;
  }
  return found;
}

/** The start feed: new issues, the user's shelf, search, then one entry per collection. */
export async function navigationFeed(scope: CatalogScope): Promise<Feed> {
  const feed = baseFeed(scope, { to: 'catalog' }, scope.tenant.name);
  const entries: NavigationEntry[] = [
    { title: 'New issues', destination: { to: 'publications' }, leadsTo: 'publications', summary: 'Everything in the store, newest first' },
    { title: 'My shelf', destination: { to: 'shelf' }, leadsTo: 'publications', summary: 'The issues you can read' },
  ];
  for (const collection of await collectionsOf(scope)) {
    entries.push({ title: collection.title, destination: { to: 'publications', collection: collection.slug }, leadsTo: 'publications' });
  }
  feed.navigation = entries;
  return feed;
}

/** A page of the storefront: the latest issues, or one collection. NOT_FOUND for an unknown collection (catalog). */
export async function publicationsFeed(scope: CatalogScope, request: { page: number; collection?: string }): Promise<Feed> {
  const response = await scope.services.catalog.filterLibrary({
    tenantId: scope.tenant.id,
    userId: scope.userId,
    filterName: 'section',
    filterValue: request.collection ?? 'latest_issues',
    page: request.page,
    perPage: PER_PAGE,
    scope: catalog.Scope.SCOPE_ALL,
    // Catalog filters what the feed can list before paging: the count is what the pages hold.
    filesOnly: true,
  });
  const section = response.section;
  const self: Destination = { to: 'publications', page: request.page, ...(request.collection && { collection: request.collection }) };
  const feed = baseFeed(scope, self, request.collection ? (section ? sectionTitle(section, scope.lang) : request.collection) : 'New issues');
  feed.publications = await publicationsOf(scope, section?.data ?? []);
  feed.paging = pagingOf(section?.meta, (page) => ({ ...self, page }));
  return feed;
}

/** Store search (storefront); `undefined` when the store has search turned off. */
export async function searchFeed(scope: CatalogScope, request: { query: string; page: number }): Promise<Feed | undefined> {
  const response = await scope.services.catalog.searchStore({
    tenantId: scope.tenant.id,
    userId: scope.userId,
    query: request.query,
    page: request.page,
    scope: catalog.Scope.SCOPE_ALL,
    filesOnly: true,
  });
  if (response.searchDisabled) return undefined;
  const self: Destination = { to: 'search', query: request.query, page: request.page };
  const feed = baseFeed(scope, self, `Search: ${request.query}`);
  feed.publications = await publicationsOf(scope, response.section?.data ?? []);
  feed.paging = pagingOf(response.section?.meta, (page) => ({ ...self, page }));
  return feed;
}

/** What the user can read in this store (my-content, newest first), by cursor. */
export async function shelfFeed(scope: CatalogScope, request: { cursor?: string }): Promise<Feed> {
  const response = await scope.services.catalog.listMyContent({
    tenantIds: [scope.tenant.id],
    userId: scope.userId,
    perPage: PER_PAGE,
    cursor: request.cursor ?? '',
  });
  const feed = baseFeed(scope, { to: 'shelf', ...(request.cursor && { cursor: request.cursor }) }, 'My shelf');
  feed.publications = await publicationsOf(scope, response.section?.data ?? [], { readable: true });
  // The shelf's issues are read: each has its reading position as an OPDS Progression.
  for (const publication of feed.publications) publication.progressionHref = `${scope.storeUrl}/opds/v2/publications/${publication.issueId}/progression`;
  feed.paging = {
    itemsPerPage: PER_PAGE,
    first: { to: 'shelf' },
    ...(response.meta?.nextCursor && { next: { to: 'shelf', cursor: response.meta.nextCursor } }),
    ...(response.meta?.prevCursor && { previous: { to: 'shelf', cursor: response.meta.prevCursor } }),
  };
  return feed;
}
