// Catalog's facts → the spec's v2 JSON: every key in the spec's order,
// section titles and status labels in the client's language, dates in the
// API's format and a section's filter in the keys the client's version reads.
import { DomainError } from '@folio/errors';
import { catalog } from '@folio/proto';
import type { z } from 'zod';
import type { CursorMeta, CursorSection, IssueSummary, LibraryShelves, PagedSection, PageMeta, Price, Shelf } from '../../routes/schemas.js';
import type { FilterKeys } from '../app-version.js';
import type { Lang } from '../lang.js';

type IssueWire = z.output<typeof IssueSummary>;
type PriceWire = z.output<typeof Price>;
type ShelfWire = z.output<typeof Shelf>;
type PageMetaWire = z.output<typeof PageMeta>;
type CursorMetaWire = z.output<typeof CursorMeta>;

/** What a rendering depends on besides catalog's answer: the client's language and the filter keys its version reads. */
export interface CatalogRendering {
  lang: Lang;
  filterKeys: FilterKeys;
}

function catalogBreach(method: string, what: string): DomainError {
  // A success without a required part is a contract breach upstream, not the client's fault.
  return new DomainError('INTERNAL', `catalog ${method} answered without ${what}`);
}

const SECTION_TITLES: Partial<Record<catalog.SectionKind, Record<Lang, string>>> = {
  [catalog.SectionKind.SECTION_KIND_CONTINUE_READING]: { en: 'Continue reading', es: 'Continuar leyendo', pt: 'Continuar lendo', it: 'Continua a leggere' },
  [catalog.SectionKind.SECTION_KIND_LATEST_ISSUES]: { en: 'Latest issues', es: 'Últimas publicaciones', pt: 'Últimas publicações', it: 'Ultime pubblicazioni' },
  [catalog.SectionKind.SECTION_KIND_MY_CONTENT]: { en: 'My content', es: 'Mi contenido', pt: 'Meu conteúdo', it: 'I miei contenuti' },
  [catalog.SectionKind.SECTION_KIND_SEARCH]: {
    en: 'Search results',
    es: 'Resultados de búsqueda',
    pt: 'Resultados da pesquisa',
    it: 'Risultati della ricerca',
  },
};

/** A section's title: a shelf's from the table, a collection's own in the language, else in English, else its slug. */
export function sectionTitle(section: Pick<catalog.Section, 'kind' | 'filter' | 'collectionTitles'>, lang: Lang): string {
  if (section.kind === catalog.SectionKind.SECTION_KIND_COLLECTION) {
    return section.collectionTitles[lang] ?? section.collectionTitles.en ?? section.filter?.value ?? '';
  }
  const titles = SECTION_TITLES[section.kind];
  // A kind this gateway does not know is a contract breach upstream, as a missing part is.
  if (!titles) throw new DomainError('INTERNAL', `catalog answered a section of unknown kind ${section.kind}`);
  return titles[lang];
}

const STATUS_LABELS: Record<'acquire' | 'read' | 'listen', Record<Lang, string>> = {
  acquire: { en: 'Acquire', es: 'Adquirir', pt: 'Adquirir', it: 'Acquista' },
  read: { en: 'Read', es: 'Leer', pt: 'Ler', it: 'Leggi' },
  listen: { en: 'Listen', es: 'Escuchar', pt: 'Ouvir', it: 'Ascolta' },
};

/** A storefront item's `status`: Listen with access to audio, Read with access otherwise, Acquire without access. */
export function statusLabel(accessReason: string | undefined, type: string, lang: Lang): string {
  if (!accessReason) return STATUS_LABELS.acquire[lang];
  return (type === 'audio' ? STATUS_LABELS.listen : STATUS_LABELS.read)[lang];
}

/** `YYYY-MM-DD hh:mm:ss` in UTC. */
export function formatDateTime(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ');
}

/** A section's filter in the keys the client reads: `filter_params` as a query string, or `filter_name` and `filter_value`. */
export function filterKeysToWire(filter: catalog.SectionFilter, keys: FilterKeys): { filter_name: string; filter_value: string } | { filter_params: string } {
  if (keys === 'query-string') return { filter_params: new URLSearchParams({ [filter.name]: filter.value }).toString() };
  return { filter_name: filter.name, filter_value: filter.value };
}

function priceToWire(price: catalog.Price): PriceWire {
  return {
    currency: price.currency,
    amount: price.amount,
    // The key exists only while a promotion runs.
    ...(price.discount && {
      discount: { amount: price.discount.amount, percentage: price.discount.percentage ?? null, ends_at: price.discount.endsAt ?? null },
    }),
  };
}

/**
 * An issue summary with every field of the spec, in its order; absent
 * optionals are null. Storefront items (scope=all) get the commerce fields
 * spread in; other items get none of those keys.
 */
export function issueToWire(issue: catalog.IssueSummary, lang: Lang): IssueWire {
  const summary: IssueWire = {
    id: issue.id,
    tenant_id: issue.tenantId,
    name: issue.name,
    slug: issue.slug,
    cover_url: issue.coverUrl,
    published_at: formatDateTime(issue.publishedAtMs),
    type: issue.type,
    description: issue.description,
    external_id: issue.externalId,
    number_of_pages: issue.numberOfPages ?? null,
    lang: issue.lang,
    author: issue.author,
    publisher: issue.publisher,
    bisac: issue.bisac,
  };
  const commerce = issue.commerce;
  if (!commerce) return summary;
  return {
    ...summary,
    can_be_read: commerce.canBeRead,
    can_be_bought: commerce.canBeBought,
    access_reason: (commerce.accessReason ?? null) as IssueWire['access_reason'],
    free: commerce.free,
    prices: commerce.prices.map(priceToWire),
    purchase_link: commerce.purchaseLink ?? null,
    status: statusLabel(commerce.accessReason, issue.type, lang),
  };
}

export function pageMetaToWire(meta: catalog.PageMeta): PageMetaWire {
  return {
    current_page: meta.currentPage,
    from: meta.from ?? null,
    to: meta.to ?? null,
    last_page: meta.lastPage,
    per_page: meta.perPage,
    total: meta.total,
  };
}

export function cursorMetaToWire(meta: catalog.CursorMeta): CursorMetaWire {
  return { per_page: meta.perPage, next_cursor: meta.nextCursor ?? null, prev_cursor: meta.prevCursor ?? null };
}

/** A section without meta: its filter keys, its title and its items. */
export function shelfToWire(section: catalog.Section, rendering: CatalogRendering, method: string): ShelfWire {
  if (!section.filter) throw catalogBreach(method, 'a section filter');
  return {
    ...filterKeysToWire(section.filter, rendering.filterKeys),
    title: sectionTitle(section, rendering.lang),
    data: section.data.map((issue) => issueToWire(issue, rendering.lang)),
  };
}

/** A single-section response (library filter, search, continue reading): the section with its page meta. */
export function pagedSectionToWire(section: catalog.Section | undefined, rendering: CatalogRendering, method: string): z.output<typeof PagedSection> {
  if (!section) throw catalogBreach(method, 'a section');
  if (!section.meta) throw catalogBreach(method, 'page meta');
  return { ...shelfToWire(section, rendering, method), meta: pageMetaToWire(section.meta) };
}

/** GET /api/v2/library: `{meta, data}` with page meta over shelves. */
export function shelvesToWire(response: catalog.ListLibrarySectionsResponse, rendering: CatalogRendering): z.output<typeof LibraryShelves> {
  if (!response.meta) throw catalogBreach('ListLibrarySections', 'page meta');
  return { meta: pageMetaToWire(response.meta), data: response.sections.map((section) => shelfToWire(section, rendering, 'ListLibrarySections')) };
}

/** GET /api/v2/user/my-content: the section with cursor meta. */
export function myContentToWire(response: catalog.ListMyContentResponse, lang: Lang): z.output<typeof CursorSection> {
  if (!response.section) throw catalogBreach('ListMyContent', 'a section');
  if (!response.meta) throw catalogBreach('ListMyContent', 'cursor meta');
  return { ...shelfToWire(response.section, { lang, filterKeys: 'pair' }, 'ListMyContent'), meta: cursorMetaToWire(response.meta) };
}
