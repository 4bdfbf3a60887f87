import { DomainError } from '@folio/errors';
import { catalog } from '@folio/proto';
import { describe, expect, it } from 'vitest';
import { langOf } from '../lang.js';
import {
  cursorMetaToWire,
  filterKeysToWire,
  formatDateTime,
  issueToWire,
  myContentToWire,
  pagedSectionToWire,
  pageMetaToWire,
  sectionTitle,
  shelfToWire,
  shelvesToWire,
  statusLabel,
} from './catalog.js';

const { SECTION_KIND_COLLECTION, SECTION_KIND_LATEST_ISSUES, SECTION_KIND_MY_CONTENT, SECTION_KIND_SEARCH, SECTION_KIND_UNSPECIFIED } = catalog.SectionKind;

const ISSUE: catalog.IssueSummary = {
  id: 1002,
  tenantId: 1,
  name: 'Harbor Monthly - March',
  slug: 'harbor-monthly-march',
  coverUrl: 'http://127.0.0.1:8080/media/covers/1002.svg',
  publishedAtMs: Date.parse('2026-03-15T08:00:00Z'),
  type: 'pdf',
  description: 'Monthly magazine of the northern harbours.',
  externalId: 'NW-PDF-1002',
  numberOfPages: undefined,
  lang: 'en',
  author: 'Harbor Monthly Staff',
  publisher: 'Northwind Editions',
  bisac: 'TRAVEL / Maritime',
  commerce: undefined,
  accessibility: undefined,
};

const META: catalog.PageMeta = { currentPage: 1, from: undefined, to: undefined, lastPage: 1, perPage: 8, total: 0 };

const section = (over: Partial<catalog.Section>): catalog.Section => ({
  data: [],
  meta: undefined,
  kind: SECTION_KIND_LATEST_ISSUES,
  filter: { name: 'section', value: 'latest_issues' },
  collectionTitles: {},
  ...over,
});

describe('render v2 catalog', () => {
  it('when a shelf is titled, then the title is in the language of the table', () => {
    expect(sectionTitle(section({}), 'pt')).toBe('Últimas publicações');
    expect(sectionTitle(section({ kind: SECTION_KIND_SEARCH }), 'es')).toBe('Resultados de búsqueda');
    expect(sectionTitle(section({ kind: SECTION_KIND_MY_CONTENT }), 'it')).toBe('I miei contenuti');
  });

  it('when a collection is titled, then its own title in the language is used, else the English one, else its slug', () => {
    const fiction = { kind: SECTION_KIND_COLLECTION, filter: { name: 'section', value: 'fiction' } };
    expect(sectionTitle(section({ ...fiction, collectionTitles: { en: 'Fiction', it: 'Narrativa' } }), 'it')).toBe('Narrativa');
    expect(sectionTitle(section({ ...fiction, collectionTitles: { en: 'Fiction' } }), 'es')).toBe('Fiction');
    expect(sectionTitle(section({ ...fiction, collectionTitles: {} }), 'es')).toBe('fiction');
  });

  it('when a section kind is unknown, then it is a contract breach upstream', () => {
    expect(() => sectionTitle(section({ kind: SECTION_KIND_UNSPECIFIED }), 'en')).toThrow(DomainError);
  });

  it('when status labels are localized, then Listen is for audio with access and Acquire without access', () => {
    expect(statusLabel('free', 'audio', 'pt')).toBe('Ouvir');
    expect(statusLabel('purchased', 'epub', 'it')).toBe('Leggi');
    expect(statusLabel(undefined, 'audio', 'it')).toBe('Acquista');
    expect(statusLabel('subscription', 'pdf', langOf('ES'))).toBe('Leer');
  });

  it('when dates are rendered, then they follow the API format in UTC', () => {
    expect(formatDateTime(Date.parse('2026-03-02T09:00:00Z'))).toBe('2026-03-02 09:00:00');
    expect(formatDateTime(Date.parse('2026-03-02T23:30:05.250-03:00'))).toBe('2026-03-03 02:30:05');
  });

  it('when filter keys are built, then new clients get the query-string form and old ones the pair', () => {
    expect(filterKeysToWire({ name: 'section', value: 'latest_issues' }, 'query-string')).toEqual({ filter_params: 'section=latest_issues' });
    expect(filterKeysToWire({ name: 'search', value: 'café & co' }, 'query-string')).toEqual({ filter_params: 'search=caf%C3%A9+%26+co' });
    expect(filterKeysToWire({ name: 'section', value: 'latest_issues' }, 'pair')).toEqual({ filter_name: 'section', filter_value: 'latest_issues' });
  });

  it('when an issue is rendered, then every key of the spec comes in order, and a storefront item gets the commerce keys with its status label', () => {
    expect(Object.keys(issueToWire(ISSUE, 'en'))).toEqual([
      'id',
      'tenant_id',
      'name',
      'slug',
      'cover_url',
      'published_at',
      'type',
      'description',
      'external_id',
      'number_of_pages',
      'lang',
      'author',
      'publisher',
      'bisac',
    ]);
    expect(issueToWire(ISSUE, 'en')).toMatchObject({ published_at: '2026-03-15 08:00:00', number_of_pages: null });
    const commerce: catalog.CommerceFields = {
      canBeRead: false,
      canBeBought: true,
      free: false,
      prices: [{ currency: 'USD', amount: 4.99, discount: { amount: 2.49 } }],
    };
    expect(issueToWire({ ...ISSUE, commerce }, 'es')).toMatchObject({
      access_reason: null,
      prices: [{ currency: 'USD', amount: 4.99, discount: { amount: 2.49, percentage: null, ends_at: null } }],
      purchase_link: null,
      status: 'Adquirir',
    });
  });

  it('when meta is rendered, then absent bounds and cursors are null', () => {
    expect(pageMetaToWire(META)).toEqual({ current_page: 1, from: null, to: null, last_page: 1, per_page: 8, total: 0 });
    expect(cursorMetaToWire({ perPage: 6, nextCursor: 'abc', prevCursor: undefined })).toEqual({ per_page: 6, next_cursor: 'abc', prev_cursor: null });
  });

  it('when a shelf is rendered, then its filter keys, title and items come in that order', () => {
    const shelf = section({ data: [ISSUE] });
    expect(Object.keys(shelfToWire(shelf, { lang: 'en', filterKeys: 'pair' }, 'ListLibrarySections'))).toEqual([
      'filter_name',
      'filter_value',
      'title',
      'data',
    ]);
    expect(shelfToWire(shelf, { lang: 'es', filterKeys: 'query-string' }, 'ListLibrarySections')).toEqual({
      filter_params: 'section=latest_issues',
      title: 'Últimas publicaciones',
      data: [issueToWire(ISSUE, 'es')],
    });
    expect(() => shelfToWire(section({ filter: undefined }), { lang: 'en', filterKeys: 'pair' }, 'ListLibrarySections')).toThrow(DomainError);
  });

  it('when a paged section, the shelves or my-content are rendered, then their meta follows and a missing part is a contract breach', () => {
    const rendering = { lang: 'en', filterKeys: 'pair' } as const;
    expect(Object.keys(pagedSectionToWire(section({ meta: META }), rendering, 'FilterLibrary'))).toEqual([
      'filter_name',
      'filter_value',
      'title',
      'data',
      'meta',
    ]);
    expect(() => pagedSectionToWire(section({}), rendering, 'FilterLibrary')).toThrow(DomainError);
    expect(shelvesToWire({ sections: [section({})], meta: META }, rendering)).toEqual({
      meta: pageMetaToWire(META),
      data: [{ filter_name: 'section', filter_value: 'latest_issues', title: 'Latest issues', data: [] }],
    });
    const mine = section({ kind: SECTION_KIND_MY_CONTENT, filter: { name: 'section', value: 'my_content' } });
    expect(myContentToWire({ section: mine, meta: { perPage: 6, nextCursor: undefined, prevCursor: undefined } }, 'pt')).toEqual({
      filter_name: 'section',
      filter_value: 'my_content',
      title: 'Meu conteúdo',
      data: [],
      meta: { per_page: 6, next_cursor: null, prev_cursor: null },
    });
  });
});
