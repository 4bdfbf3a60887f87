// The catalog routes of the gateway (library, filter, favorites, store and
// global search, my-content, continue-reading) against a catalog stand-in:
// what each route sends to catalog (tenant, user, paging, scope, the dynamic
// filter, the user's tenants, the app tenant; never the deprecated lang or
// app_base_version) and how it renders catalog's facts (titles and status
// labels in X-App-Lang, dates formatted, commerce fields spread in, absent
// optionals as null, discount only when set, the filter keys X-AppBase-Version
// reads, 204 without a body, errors mapped). The stand-in leaves the
// deprecated rendered fields empty: the gateway must not read them.
import { DomainError, invalidArgument, notFound, unavailable } from '@folio/errors';
import { startGrpcServer, type GrpcServer, type ServiceHandlers } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { catalog } from '@folio/proto';
import { unimplementedHandlers, uniqueEmail } from '@folio/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectNoLeak, fromIp, loginThroughGateway, startStack, type Stack, type Tokens } from './support.js';

type Handlers = ServiceHandlers<typeof catalog.CatalogServiceService>;
/** The handlers a test sets up; the others answer UNIMPLEMENTED. */
type TestHandlers = { -readonly [K in keyof Handlers]?: Handlers[K] };

const { SECTION_KIND_CONTINUE_READING, SECTION_KIND_LATEST_ISSUES, SECTION_KIND_COLLECTION, SECTION_KIND_SEARCH, SECTION_KIND_MY_CONTENT } =
  catalog.SectionKind;

/** A section as catalog answers it: its facts. */
const facts = (kind: catalog.SectionKind, filter: catalog.SectionFilter, over: Partial<catalog.Section> = {}): catalog.Section => ({
  kind,
  filter,
  collectionTitles: {},
  data: [],
  meta: undefined,
  ...over,
});

const SUMMARY = {
  id: 1002,
  tenantId: 1,
  name: 'Harbor Monthly - March',
  slug: 'harbor-monthly-march',
  coverUrl: 'http://127.0.0.1:8080/media/covers/1002.svg',
  publishedAtMs: Date.parse('2026-03-15T08:00:00Z'),
  type: 'pdf',
  description: 'Monthly magazine of the northern harbours.',
  externalId: 'NW-PDF-1002',
  numberOfPages: 4,
  lang: 'en',
  author: 'Harbor Monthly Staff',
  publisher: 'Northwind Editions',
  bisac: 'TRAVEL / Maritime',
  commerce: undefined,
  accessibility: undefined,
} satisfies catalog.IssueSummary;

const SUMMARY_WIRE = {
  id: 1002,
  tenant_id: 1,
  name: 'Harbor Monthly - March',
  slug: 'harbor-monthly-march',
  cover_url: 'http://127.0.0.1:8080/media/covers/1002.svg',
  published_at: '2026-03-15 08:00:00',
  type: 'pdf',
  description: 'Monthly magazine of the northern harbours.',
  external_id: 'NW-PDF-1002',
  number_of_pages: 4,
  lang: 'en',
  author: 'Harbor Monthly Staff',
  publisher: 'Northwind Editions',
  bisac: 'TRAVEL / Maritime',
};

/** A storefront item: unowned, discounted (no percentage, no end), buyable. */
const STOREFRONT_ITEM: catalog.IssueSummary = {
  ...SUMMARY,
  commerce: {
    canBeRead: false,
    canBeBought: true,
    free: false,
    prices: [{ currency: 'USD', amount: 4.99, discount: { amount: 2.49 } }],
    purchaseLink: 'http://northwind.localhost:8080/app/purchase/1002',
  },
};
/** A free audiobook in the storefront: no pages, no price, no purchase link. */
const FREE_AUDIO: catalog.IssueSummary = {
  ...SUMMARY,
  id: 1003,
  type: 'audio',
  numberOfPages: undefined,
  commerce: { canBeRead: true, canBeBought: false, accessReason: 'free', free: true, prices: [] },
};

const meta = (over: Partial<catalog.PageMeta> = {}): catalog.PageMeta => ({ currentPage: 1, from: 1, to: 1, lastPage: 1, perPage: 8, total: 1, ...over });
const EMPTY_META = { currentPage: 1, lastPage: 1, perPage: 8, total: 0 } as catalog.PageMeta;

describe('catalog routes (catalog stand-in)', () => {
  let stack: Stack;
  let server: GrpcServer;
  let tokens: Tokens;
  let userId: number;
  /** The requests catalog received, by method, newest last. */
  const calls: Record<string, unknown[]> = {};
  let handlers: TestHandlers = {};

  const last = <T>(method: string): T => {
    const list = calls[method] ?? [];
    if (list.length === 0) throw new Error(`catalog ${method} was not called`);
    return list.at(-1) as T;
  };

  beforeAll(async () => {
    const recorded = Object.fromEntries(
      Object.keys(catalog.CatalogServiceService).map((method) => [
        method,
        async (request: unknown, call: unknown) => {
          (calls[method] ??= []).push(request);
          const handler = (handlers as Record<string, (request: unknown, call: unknown) => Promise<unknown>>)[method];
          if (!handler) throw new DomainError('UNIMPLEMENTED', `stand-in: ${method} not set up`);
          return handler(request, call);
        },
      ]),
    ) as unknown as Handlers;
    const all: Handlers = { ...unimplementedHandlers(catalog.CatalogServiceService, 'never'), ...recorded };
    server = await startGrpcServer({
      logger: createLogger({ service: 'catalog-stand-in', level: 'silent' }),
      port: 0,
      host: '127.0.0.1',
      services: [{ name: 'svc.catalog.v1.CatalogService', definition: catalog.CatalogServiceService, handlers: all }],
    });
    stack = await startStack({ gatewayEnv: { CATALOG_ADDR: `127.0.0.1:${server.port}` } });
    const email = uniqueEmail('gw_catalog');
    await loginThroughGateway(stack.http, email, fromIp(61));
    // A second login from Editorial Sur's app makes the user a member there too.
    tokens = await loginThroughGateway(stack.http, email, { ...fromIp(62), 'x-customapp-tenant-id': '2' });
    userId = Number(JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()).sub);
  });
  afterAll(async () => {
    await stack?.stop();
    await server?.shutdown(1_000);
  });
  beforeEach(() => {
    handlers = {};
    for (const key of Object.keys(calls)) delete calls[key];
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    stack.http.get(path, { token: tokens.access_token, headers: { ...fromIp(63), ...headers } });
  const post = (path: string, headers: Record<string, string> = {}) =>
    stack.http.post(path, { token: tokens.access_token, headers: { ...fromIp(63), ...headers } });
  const single = { 'x-svc-tenant-id': '1' };

  describe('GET /api/v2/library', () => {
    it('when asked with every option, then catalog gets them and the shelves render in the language and version with commerce fields spread in', async () => {
      handlers.listLibrarySections = async () => ({
        sections: [
          facts(SECTION_KIND_LATEST_ISSUES, { name: 'section', value: 'latest_issues' }, { data: [STOREFRONT_ITEM, FREE_AUDIO] }),
          facts(SECTION_KIND_COLLECTION, { name: 'section', value: 'audio' }, { collectionTitles: { en: 'Audiobooks', es: 'Audiolibros' } }),
        ],
        meta: meta({ currentPage: 2, from: 5, to: 6, lastPage: 2, perPage: 4, total: 6 }),
      });
      const response = await get('/api/v2/library?page=2&per_page=3&scope=all', { ...single, 'x-app-lang': 'es-AR', 'x-appbase-version': ' 1.28.0 ' });
      expect(response.status).toBe(200);
      expect(last<catalog.ListLibrarySectionsRequest>('listLibrarySections')).toEqual({
        tenantId: 1,
        userId,
        page: 2,
        perPage: 3,
        scope: catalog.Scope.SCOPE_ALL,
      });
      expect(response.body).toEqual({
        meta: { current_page: 2, from: 5, to: 6, last_page: 2, per_page: 4, total: 6 },
        data: [
          {
            filter_params: 'section=latest_issues',
            title: 'Últimas publicaciones',
            data: [
              {
                ...SUMMARY_WIRE,
                can_be_read: false,
                can_be_bought: true,
                access_reason: null,
                free: false,
                prices: [{ currency: 'USD', amount: 4.99, discount: { amount: 2.49, percentage: null, ends_at: null } }],
                purchase_link: 'http://northwind.localhost:8080/app/purchase/1002',
                status: 'Adquirir',
              },
              {
                ...SUMMARY_WIRE,
                id: 1003,
                type: 'audio',
                number_of_pages: null,
                can_be_read: true,
                can_be_bought: false,
                access_reason: 'free',
                free: true,
                prices: [],
                purchase_link: null,
                status: 'Escuchar',
              },
            ],
          },
          { filter_params: 'section=audio', title: 'Audiolibros', data: [] },
        ],
      });
      // Keys in the spec's order: the summary, then the commerce fields.
      expect(Object.keys(response.body.data[0].data[0])).toEqual([
        ...Object.keys(SUMMARY_WIRE),
        'can_be_read',
        'can_be_bought',
        'access_reason',
        'free',
        'prices',
        'purchase_link',
        'status',
      ]);
      expect(Object.keys(response.body.data[0])).toEqual(['filter_params', 'title', 'data']);
      // A pre-release of 1.28.0 is before it: the pair.
      const beta = await get('/api/v2/library?page=2&per_page=3&scope=all', { ...single, 'x-appbase-version': '1.28.0-beta' });
      expect(Object.keys(beta.body.data[0])).toEqual(['filter_name', 'filter_value', 'title', 'data']);
    });

    it('when nothing optional is sent, then the defaults go to catalog and items without commerce carry none of its keys', async () => {
      handlers.listLibrarySections = async () => ({
        sections: [facts(SECTION_KIND_LATEST_ISSUES, { name: 'section', value: 'latest_issues' }, { data: [SUMMARY] })],
        meta: meta({ perPage: 4 }),
      });
      const response = await get('/api/v2/library', single);
      expect(response.status).toBe(200);
      expect(last<catalog.ListLibrarySectionsRequest>('listLibrarySections')).toEqual({
        tenantId: 1,
        userId,
        page: 1,
        perPage: 8,
        scope: catalog.Scope.SCOPE_OWNED,
      });
      expect(response.body.data).toEqual([{ filter_name: 'section', filter_value: 'latest_issues', title: 'Latest issues', data: [SUMMARY_WIRE] }]);
      expect(Object.keys(response.body.data[0].data[0])).toEqual(Object.keys(SUMMARY_WIRE));
    });

    it('when the input is invalid, then 422 and catalog is not asked', async () => {
      const response = await get('/api/v2/library?per_page=0&scope=everything&page=x', single);
      expect(response.status).toBe(422);
      expect(Object.keys(response.body.errors).sort()).toEqual(['page', 'per_page', 'scope']);
      expect(calls.listLibrarySections).toBeUndefined();
    });

    it('when catalog is unavailable, then 503 with Retry-After; when it breaks its contract, then 500 without details', async () => {
      handlers.listLibrarySections = async () => {
        throw unavailable('commerce is down', 7);
      };
      const down = await get('/api/v2/library', single);
      expect(down.status).toBe(503);
      expect(down.headers['retry-after']).toMatch(/^\d+$/);
      handlers.listLibrarySections = async () => ({ sections: [], meta: undefined });
      const broken = await get('/api/v2/library', single);
      expect(broken.status).toBe(500);
      expect(broken.body).toEqual({ message: 'Internal server error.' });
      expectNoLeak(broken);
    });
  });

  describe('GET /api/v2/library/filter', () => {
    const section = (data: catalog.IssueSummary[] = [SUMMARY]): catalog.FilterLibraryResponse => ({
      section: facts(SECTION_KIND_COLLECTION, { name: 'section', value: 'fiction' }, { collectionTitles: { en: 'Fiction' }, data, meta: meta({ perPage: 5 }) }),
    });

    it('when the dynamic filter is sent, then catalog gets its name and value, and the section renders with full meta', async () => {
      handlers.filterLibrary = async () => section();
      const response = await get('/api/v2/library/filter?section=fiction&per_page=5&scope=owned', { ...single, 'x-appbase-version': '1.9.0' });
      expect(response.status).toBe(200);
      expect(last<catalog.FilterLibraryRequest>('filterLibrary')).toEqual({
        tenantId: 1,
        userId,
        filterName: 'section',
        filterValue: 'fiction',
        page: 1,
        perPage: 5,
        scope: catalog.Scope.SCOPE_OWNED,
      });
      expect(response.body).toEqual({
        filter_name: 'section',
        filter_value: 'fiction',
        title: 'Fiction',
        data: [SUMMARY_WIRE],
        meta: { current_page: 1, from: 1, to: 1, last_page: 1, per_page: 5, total: 1 },
      });
      expect(Object.keys(response.body)).toEqual(['filter_name', 'filter_value', 'title', 'data', 'meta']);
    });

    it('when the page is empty, then from and to are null', async () => {
      handlers.filterLibrary = async () => ({
        section: facts(
          SECTION_KIND_COLLECTION,
          { name: 'section', value: 'fiction' },
          { collectionTitles: { en: 'Fiction' }, meta: { ...EMPTY_META, currentPage: 3 } },
        ),
      });
      const response = await get('/api/v2/library/filter?section=fiction&page=3', { ...single, 'x-appbase-version': '1.28.0' });
      expect(response.body).toEqual({
        filter_params: 'section=fiction',
        title: 'Fiction',
        data: [],
        meta: { current_page: 3, from: null, to: null, last_page: 1, per_page: 8, total: 0 },
      });
    });

    it('when the filter has another name, then it still goes to catalog, whose 422 names it', async () => {
      handlers.filterLibrary = async () => {
        throw invalidArgument('Unknown filter author.', { author: ['Filtering by author is not supported; use section.'] });
      };
      const response = await get('/api/v2/library/filter?author=mara', single);
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ message: 'Unknown filter author.', errors: { author: ['Filtering by author is not supported; use section.'] } });
      expect(last<catalog.FilterLibraryRequest>('filterLibrary')).toMatchObject({ filterName: 'author', filterValue: 'mara' });
    });

    it("when the filter is a search section's (search=<query>), then it pages the store search; a bad query is 422, a disabled flag 204", async () => {
      handlers.searchStore = async () => ({
        searchDisabled: false,
        section: facts(SECTION_KIND_SEARCH, { name: 'search', value: 'atlas' }, { data: [SUMMARY], meta: meta({ currentPage: 2 }) }),
      });
      const response = await get('/api/v2/library/filter?search=atlas&page=2&scope=all', single);
      expect(response.status).toBe(200);
      expect(last<catalog.SearchStoreRequest>('searchStore')).toMatchObject({ tenantId: 1, userId, query: 'atlas', page: 2, scope: catalog.Scope.SCOPE_ALL });
      expect(response.body).toMatchObject({ filter_name: 'search', filter_value: 'atlas', data: [SUMMARY_WIRE] });
      const short = await get('/api/v2/library/filter?search=a', single);
      expect(short.status).toBe(422);
      expect(short.body.errors).toHaveProperty('search');
      handlers.searchStore = async () => ({ searchDisabled: true, section: undefined });
      const disabled = await get('/api/v2/library/filter?search=atlas', single);
      expect(disabled.status).toBe(204);
      expect(disabled.text).toBe('');
    });

    it('when no filter is sent, then catalog is asked with an empty one (it names what is missing)', async () => {
      handlers.filterLibrary = async () => {
        throw invalidArgument('A filter is required, e.g. section=latest_issues.', { section: ['The section field is required.'] });
      };
      const response = await get('/api/v2/library/filter', single);
      expect(response.status).toBe(422);
      expect(response.body.errors).toHaveProperty('section');
      expect(last<catalog.FilterLibraryRequest>('filterLibrary')).toMatchObject({ filterName: '', filterValue: '' });
    });

    it('when two filters or a repeated one are sent, then 422 here, without asking catalog', async () => {
      const two = await get('/api/v2/library/filter?section=fiction&collection=audio', single);
      expect(two.status).toBe(422);
      expect(two.body.errors).toEqual({ section: ['Only one filter may be sent.'], collection: ['Only one filter may be sent.'] });
      const repeated = await get('/api/v2/library/filter?section=fiction&section=audio', single);
      expect(repeated.status).toBe(422);
      expect(repeated.body.errors).toHaveProperty('section');
      expect(calls.filterLibrary).toBeUndefined();
    });

    it('when the section is unknown, then 404', async () => {
      handlers.filterLibrary = async () => {
        throw notFound('Section not found.');
      };
      const response = await get('/api/v2/library/filter?section=poetry', single);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'Section not found.' });
    });
  });

  describe('favorites', () => {
    it('when the flag is read and toggled, then catalog gets tenant, user and issue and the flag comes back', async () => {
      handlers.getFavorite = async () => ({ isFavorite: false });
      handlers.toggleFavorite = async () => ({ isFavorite: true });
      const read = await get('/api/v2/library/1002/favorite-issues', { 'x-svc-tenant-id': '2' });
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ is_favorite: false });
      expect(last('getFavorite')).toEqual({ tenantId: 2, userId, issueId: 1002 });
      const toggled = await post('/api/v2/library/1002/favorite-issues', single);
      expect(toggled.status).toBe(200);
      expect(toggled.body).toEqual({ is_favorite: true });
      expect(last('toggleFavorite')).toEqual({ tenantId: 1, userId, issueId: 1002 });
    });

    it('when the issue is not in the tenant, then 404', async () => {
      handlers.toggleFavorite = async () => {
        throw notFound('Issue not found.');
      };
      expect((await post('/api/v2/library/2001/favorite-issues', single)).status).toBe(404);
    });
  });

  describe('GET /api/v2/search/store', () => {
    const found: catalog.SearchStoreResponse = {
      searchDisabled: false,
      section: facts(SECTION_KIND_SEARCH, { name: 'search', value: 'Café' }, { data: [SUMMARY], meta: meta() }),
    };

    it('when searched, then the query goes as sent (catalog normalizes) with page and scope', async () => {
      handlers.searchStore = async () => found;
      const response = await get(`/api/v2/search/store?query=${encodeURIComponent('Cafe\u0301')}&scope=all&page=2`, {
        'x-svc-tenant-id': '2',
        'x-app-lang': 'it',
      });
      expect(response.status).toBe(200);
      expect(last<catalog.SearchStoreRequest>('searchStore')).toEqual({
        tenantId: 2,
        userId,
        query: 'Cafe\u0301',
        page: 2,
        scope: catalog.Scope.SCOPE_ALL,
      });
      expect(response.body).toEqual({
        filter_name: 'search',
        filter_value: 'Café',
        title: 'Risultati della ricerca',
        data: [SUMMARY_WIRE],
        meta: { current_page: 1, from: 1, to: 1, last_page: 1, per_page: 8, total: 1 },
      });
    });

    it('when the tenant has storefront_search off, then 204 with no body', async () => {
      handlers.searchStore = async () => ({ searchDisabled: true, section: undefined });
      const response = await get('/api/v2/search/store?query=mar', { 'x-svc-tenant-id': '3' });
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect(response.headers['content-type']).toBeUndefined();
    });

    it('when the query is 2-128 characters once NFC-composed and trimmed, then it passes; otherwise 422 without asking catalog', async () => {
      handlers.searchStore = async () => found;
      for (const query of ['ab', 'x'.repeat(128), 'e\u0301'.repeat(128), ' ab ', '😀😀']) {
        expect((await get(`/api/v2/search/store?query=${encodeURIComponent(query)}`, single)).status, query).toBe(200);
      }
      const before = calls.searchStore!.length;
      for (const [query, reason] of [
        ['a', 'The query field must be at least 2 characters.'],
        ['  a  ', 'The query field must be at least 2 characters.'],
        ['e\u0301', 'The query field must be at least 2 characters.'],
        ['x'.repeat(129), 'The query field must not be greater than 128 characters.'],
      ] as const) {
        const response = await get(`/api/v2/search/store?query=${encodeURIComponent(query)}`, single);
        expect(response.status, query).toBe(422);
        expect(response.body.errors).toEqual({ query: [reason] });
      }
      const missing = await get('/api/v2/search/store', single);
      expect(missing.body.errors).toEqual({ query: ['The query field is required.'] });
      expect(calls.searchStore!.length).toBe(before);
    });
  });

  describe('GET /api/v2/search/global', () => {
    it("when searched, then catalog gets the user's tenants from identity and the app tenant (default 1)", async () => {
      handlers.searchGlobal = async () => ({
        searchDisabled: false,
        section: facts(
          SECTION_KIND_SEARCH,
          { name: 'search', value: 'mara' },
          { data: [SUMMARY, { ...SUMMARY, id: 2001, tenantId: 2 }], meta: meta({ to: 2, total: 2 }) },
        ),
      });
      const response = await get('/api/v2/search/global?query=mara');
      expect(response.status).toBe(200);
      const request = last<catalog.SearchGlobalRequest>('searchGlobal');
      expect({ ...request, tenantIds: [...request.tenantIds].sort() }).toEqual({
        tenantIds: [1, 2],
        userId,
        query: 'mara',
        page: 1,
        appTenantId: 1,
      });
      expect(response.body.data.map((item: { tenant_id: number; id: number }) => [item.tenant_id, item.id])).toEqual([
        [1, 1002],
        [2, 2001],
      ]);
    });

    it("when the app tenant's flag is off, then 204 with no body", async () => {
      handlers.searchGlobal = async () => ({ searchDisabled: true, section: undefined });
      const response = await get('/api/v2/search/global?query=mara', { 'x-customapp-tenant-id': '3' });
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect(last<catalog.SearchGlobalRequest>('searchGlobal').appTenantId).toBe(3);
    });

    it('when X-CustomApp-Tenant-Id is malformed or X-Svc-Tenant-Id is sent, then 422 or 412', async () => {
      expect((await get('/api/v2/search/global?query=mara', { 'x-customapp-tenant-id': 'abc' })).status).toBe(422);
      expect((await get('/api/v2/search/global?query=mara', single)).status).toBe(412);
      expect(calls.searchGlobal).toBeUndefined();
    });
  });

  describe('GET /api/v2/user/my-content', () => {
    it('when listed, then catalog gets the tenants, per_page and cursor, and the section renders with cursor meta', async () => {
      handlers.listMyContent = async () => ({
        section: facts(SECTION_KIND_MY_CONTENT, { name: 'section', value: 'my_content' }, { data: [SUMMARY] }),
        meta: { perPage: 1, nextCursor: 'next.sig' },
      });
      const response = await get('/api/v2/user/my-content?per_page=1&cursor=abc.def&scope=all');
      expect(response.status).toBe(200);
      const request = last<catalog.ListMyContentRequest>('listMyContent');
      expect({ ...request, tenantIds: [...request.tenantIds].sort() }).toEqual({ tenantIds: [1, 2], userId, perPage: 1, cursor: 'abc.def' });
      expect(response.body).toEqual({
        filter_name: 'section',
        filter_value: 'my_content',
        title: 'My content',
        data: [SUMMARY_WIRE],
        meta: { per_page: 1, next_cursor: 'next.sig', prev_cursor: null },
      });
    });

    it("when nothing is sent, then per_page 6 and no cursor; a bad cursor is catalog's 422", async () => {
      handlers.listMyContent = async () => {
        throw invalidArgument('The cursor is invalid.', { cursor: ['The cursor is invalid.'] });
      };
      const response = await get('/api/v2/user/my-content');
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual({ cursor: ['The cursor is invalid.'] });
      expect(last<catalog.ListMyContentRequest>('listMyContent')).toMatchObject({ perPage: 6, cursor: '' });
    });

    it('when per_page is out of 1-100, then 422 without asking catalog', async () => {
      for (const perPage of ['0', '101']) expect((await get(`/api/v2/user/my-content?per_page=${perPage}`)).status).toBe(422);
      expect(calls.listMyContent).toBeUndefined();
    });
  });

  describe('GET /api/v2/user/continue-reading', () => {
    it('when listed, then catalog gets the tenants and paging (per_page 6 by default) and the section renders with page meta', async () => {
      handlers.listContinueReading = async () => ({
        section: facts(SECTION_KIND_CONTINUE_READING, { name: 'section', value: 'continue_reading' }, { meta: { ...EMPTY_META, perPage: 6 } }),
      });
      const response = await get('/api/v2/user/continue-reading');
      expect(response.status).toBe(200);
      const request = last<catalog.ListContinueReadingRequest>('listContinueReading');
      expect({ ...request, tenantIds: [...request.tenantIds].sort() }).toEqual({ tenantIds: [1, 2], userId, page: 1, perPage: 6 });
      expect(response.body).toEqual({
        filter_name: 'section',
        filter_value: 'continue_reading',
        title: 'Continue reading',
        data: [],
        meta: { current_page: 1, from: null, to: null, last_page: 1, per_page: 6, total: 0 },
      });
      await get('/api/v2/user/continue-reading?per_page=2&page=3');
      expect(last<catalog.ListContinueReadingRequest>('listContinueReading')).toMatchObject({ page: 3, perPage: 2 });
    });
  });
});
