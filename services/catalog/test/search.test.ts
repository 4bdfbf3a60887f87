// GET /api/v2/search/store and /search/global, as the gateway calls them.
import { catalog } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog, type CatalogDataset } from '../src/seed.js';
import { ANA, CARLA } from './support/dataset.js';
import { idsOf, startTestCatalog, type TestCatalog } from './support/harness.js';

const { SCOPE_ALL, SCOPE_OWNED } = catalog.Scope;

describe('store search', () => {
  let t: TestCatalog;
  const store = (query: string, extra: Partial<catalog.SearchStoreRequest> = {}) =>
    t.client.searchStore({ tenantId: 2, userId: ANA, query, page: 0, scope: SCOPE_ALL, ...extra });

  beforeAll(async () => {
    t = await startTestCatalog();
  });
  afterAll(() => t?.stop());

  it('when ana searches "cafe", then "Café con Letras" is found (accent-insensitive)', async () => {
    const { searchDisabled, section } = await store('cafe');
    expect(searchDisabled).toBe(false);
    expect(section).toMatchObject({ kind: catalog.SectionKind.SECTION_KIND_SEARCH, filter: { name: 'search', value: 'cafe' } });
    expect(section!.data.map((item) => item.name)).toEqual(['Café con Letras']);
    expect(section!.meta).toEqual({ currentPage: 1, from: 1, to: 1, lastPage: 1, perPage: 8, total: 1 });
  });

  it('when the query is decomposed (Cro\\u0301nicas), then it is NFC-normalized and finds "Crónicas del Río"', async () => {
    const { section } = await store('Cro\u0301nicas');
    expect(section!.filter?.value).toBe('Crónicas');
    expect(section!.data.map((item) => item.name)).toEqual(['Crónicas del Río']);
  });

  it('when the query is upper case or accented differently, then the match ignores case and accents', async () => {
    expect(idsOf((await store('CAFÉ')).section)).toEqual([2004]);
    expect(idsOf((await store('cronicas DEL rio')).section)[0]).toBe(2001);
    expect(idsOf((await store('lucia')).section)).toEqual([2001, 2003]);
  });

  it('when the last word is a prefix, then issues with words starting with it match', async () => {
    expect(idsOf((await store('crónic')).section)).toEqual([2001]);
    const { section } = await t.client.searchStore({ tenantId: 1, userId: ANA, query: 'lightho', page: 0, scope: SCOPE_ALL });
    expect(idsOf(section)).toEqual([1001, 1005]);
  });

  it('when a word is not the last one, then it must match a whole word', async () => {
    // "lightho" is not a word of any issue; "atlas" is.
    const { section } = await t.client.searchStore({ tenantId: 1, userId: ANA, query: 'lightho atlas', page: 0, scope: SCOPE_ALL });
    expect(section!.data.every((item) => item.name.includes('Atlas'))).toBe(true);
  });

  it('when author, publisher, keywords and description match, then each of them finds the issue', async () => {
    const search = (query: string) => t.client.searchStore({ tenantId: 1, userId: ANA, query, page: 0, scope: SCOPE_ALL });
    expect(idsOf((await search('Theo Brandt')).section)).toEqual([1006]); // author
    expect(idsOf((await search('Northwind Audio')).section)[0]).toBe(1003); // publisher
    expect(idsOf((await search('balcony')).section)).toEqual([1006]); // title + keyword
    expect(idsOf((await search('coastlines')).section)).toEqual([1001]); // description only
  });

  it('when issues match, then they rank by fields (title beats description), then by recency', async () => {
    const search = (query: string) => t.client.searchStore({ tenantId: 1, userId: ANA, query, page: 0, scope: SCOPE_ALL });
    // "atlas": 1001 in title, keywords and description; 1005 (same date, higher id) in the title only.
    expect(idsOf((await search('atlas')).section)).toEqual([1001, 1005]);
    // "sea": a keyword of 1001 and 1003 only: equal scores, newer first.
    expect(idsOf((await search('sea')).section)).toEqual([1001, 1003]);
    // "ferry": title of 1009, description of nothing else.
    expect(idsOf((await search('ferry')).section)).toEqual([1009]);
  });

  it('when a query has several words, then issues matching more of them rank first', async () => {
    const { section } = await t.client.searchStore({ tenantId: 1, userId: ANA, query: 'mara atlas', page: 0, scope: SCOPE_ALL });
    // Both words: 1001 (atlas in title, keywords, description) then 1005 (atlas in title); one word (Mara Ellison): newest first.
    expect(idsOf(section)).toEqual([1001, 1005, 1009, 1003]);
  });

  it('when nothing matches, then data is empty, from and to are null, last_page 1 and total 0', async () => {
    const { section } = await store('zzzz nothing');
    expect(section!.data).toEqual([]);
    expect(section!.meta).toEqual({ currentPage: 1, from: undefined, to: undefined, lastPage: 1, perPage: 8, total: 0 });
  });

  it('when the query is shorter than 2 or longer than 128 characters, then it is INVALID_ARGUMENT on query', async () => {
    for (const query of ['a', ' a ', 'e\u0301', 'x'.repeat(129)]) {
      await expect(store(query)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { fieldErrors: { query: expect.any(Array) } } });
    }
    await expect(store('x'.repeat(128))).resolves.toMatchObject({ searchDisabled: false });
  });

  it('when the scope is all, then only individually acquirable issues come back, with commerce fields', async () => {
    // "Guía de Suscriptores" is subscription-only: not in the storefront even though ana can read it.
    expect(idsOf((await store('guia', { scope: SCOPE_ALL })).section)).toEqual([]);
    expect(idsOf((await store('guia', { scope: SCOPE_OWNED })).section)).toEqual([2005]);
    const { section } = await store('revista', { scope: SCOPE_ALL });
    expect(section!.data[0]).toMatchObject({
      id: 2002,
      commerce: {
        canBeRead: true,
        accessReason: 'subscription',
        prices: [{ currency: 'ARS', amount: 1200, discount: { amount: 900, percentage: 25, endsAt: undefined } }],
      },
    });
  });

  it('when the scope is owned, then only what the user can read comes back, without commerce fields', async () => {
    const search = (query: string) => t.client.searchStore({ tenantId: 1, userId: ANA, query, page: 0, scope: SCOPE_OWNED });
    expect(idsOf((await search('harbor')).section)).toEqual([]);
    const { section } = await search('mara');
    expect(idsOf(section)).toEqual([1009, 1005, 1001, 1003]);
    expect(section!.data.every((item) => item.commerce === undefined)).toBe(true);
  });

  it("when the tenant's storefront_search flag is off (tenant 3), then the search is disabled (204), even for a bad query", async () => {
    const disabled = await t.client.searchStore({ tenantId: 3, userId: CARLA, query: 'livraria', page: 0, scope: SCOPE_OWNED });
    expect(disabled).toEqual({ searchDisabled: true, section: undefined });
    await expect(t.client.searchStore({ tenantId: 3, userId: CARLA, query: 'a', page: 0, scope: SCOPE_OWNED })).resolves.toMatchObject({
      searchDisabled: true,
    });
  });

  it('when results span pages, then 8 come per page with page meta', async () => {
    // Twelve free issues in tenant 5, written as another replica would, then caught up.
    const issues = Array.from({ length: 12 }, (_, i) => ({
      id: 5100 + i,
      tenant_id: 5,
      name: `Dormant Chronicle ${i + 1}`,
      slug: `dormant-chronicle-${i + 1}`,
      type: 'epub',
      lang: 'en',
      author: 'Quiet Author',
      publisher: 'Dormant Press',
      bisac: 'FICTION / General',
      external_id: `DP-${i}`,
      published_at: `2025-01-${String(i + 1).padStart(2, '0')} 09:00:00`,
      number_of_pages: 10,
      description: 'A dormant story.',
    }));
    await seedCatalog(t.db, { collections: [], issues } as CatalogDataset);
    await t.commerce.seed({
      issues: issues.map((issue) => ({ ...issue, free: true, sale: 'individual', licensing: 'standard', prices: [] })),
      access: [],
      subscriptions: [],
    });
    expect(await t.service.catchUpIndex()).toBeGreaterThanOrEqual(12);

    const search = (page: number) => t.client.searchStore({ tenantId: 5, userId: ANA, query: 'dormant chronicle', page, scope: SCOPE_OWNED });
    const [page1, page2, page3] = [await search(1), await search(2), await search(3)];
    expect(idsOf(page1.section)).toEqual([5111, 5110, 5109, 5108, 5107, 5106, 5105, 5104]);
    expect(page1.section!.meta).toEqual({ currentPage: 1, from: 1, to: 8, lastPage: 2, perPage: 8, total: 12 });
    expect(idsOf(page2.section)).toEqual([5103, 5102, 5101, 5100]);
    expect(page2.section!.meta).toEqual({ currentPage: 2, from: 9, to: 12, lastPage: 2, perPage: 8, total: 12 });
    expect(page3.section!.data).toEqual([]);
    expect(page3.section!.meta).toMatchObject({ from: undefined, to: undefined, total: 12 });
  });
});

describe('store search in languages written without spaces', () => {
  let t: TestCatalog;
  beforeAll(async () => {
    t = await startTestCatalog();
  });
  afterAll(() => t?.stop());

  it('when an issue is described in Japanese, then a word inside its sentence, a two-character query and a one-character query are answered', async () => {
    const issue = {
      id: 5200,
      tenant_id: 5,
      name: '東京案内',
      slug: 'tokyo-annai',
      type: 'epub',
      lang: 'ja',
      author: '山田太郎',
      publisher: 'Dormant Press',
      bisac: 'TRAVEL / Asia / Japan',
      external_id: 'DP-JA',
      published_at: '2025-02-01 09:00:00',
      number_of_pages: 10,
      description: '日本の首都です',
    };
    await seedCatalog(t.db, { collections: [], issues: [issue] } as CatalogDataset);
    await t.commerce.seed({ issues: [{ ...issue, free: true, sale: 'individual', licensing: 'standard', prices: [] }], access: [], subscriptions: [] });
    expect(await t.service.catchUpIndex()).toBeGreaterThanOrEqual(1);

    for (const query of ['東京案内', '東京', '首都です', '首都', '山田']) {
      const found = await t.client.searchStore({ tenantId: 5, userId: ANA, query, page: 1, scope: SCOPE_OWNED });
      expect({ query, ids: idsOf(found.section) }).toEqual({ query, ids: [5200] });
    }
    const oneCharacter = await t.client.searchStore({ tenantId: 5, userId: ANA, query: '都', page: 1, scope: SCOPE_OWNED });
    expect(oneCharacter.section).toBeDefined();
  });
});

describe('global search', () => {
  let t: TestCatalog;
  const global = (userId: number, tenantIds: number[], query: string, appTenantId = 0) =>
    t.client.searchGlobal({ tenantIds, userId, query, page: 0, appTenantId });

  beforeAll(async () => {
    t = await startTestCatalog();
  });
  afterAll(() => t?.stop());

  it('when ana searches across her tenants, then items carry tenant_id and never commerce fields', async () => {
    const { section } = await global(ANA, [1, 2], 'cafe');
    expect(section!.data.map((item) => [item.id, item.tenantId])).toEqual([[2004, 2]]);
    const mara = await global(ANA, [1, 2], 'lucia mara');
    expect(new Set(mara.section!.data.map((item) => item.tenantId))).toEqual(new Set([1, 2]));
    expect(mara.section!.data.every((item) => item.commerce === undefined)).toBe(true);
  });

  it('when a word matches issues of tenants the user is not in, then they are not found', async () => {
    // "atlas" is also in tenant 3 (Livraria Atlântica), where ana has no account.
    const { section } = await global(ANA, [1, 2], 'atlas');
    expect(idsOf(section)).toEqual([1001, 1005]);
  });

  it('when carla searches "ATLANTICA", then the accent-insensitive match finds her tenant 3 issues', async () => {
    const { section } = await global(CARLA, [3], 'ATLANTICA');
    expect(section!.data.map((item) => [item.id, item.tenantId])).toEqual([
      [3002, 3],
      [3001, 3],
    ]);
  });

  it("when the app tenant's storefront_search flag is off, then the global search is disabled (204)", async () => {
    expect(await global(CARLA, [3], 'atlas', 3)).toEqual({ searchDisabled: true, section: undefined });
    // Default app tenant 1 has it on.
    expect((await global(CARLA, [3], 'atlas', 0)).searchDisabled).toBe(false);
  });

  it('when the query is too short, then it is INVALID_ARGUMENT on query', async () => {
    await expect(global(ANA, [1, 2], 'x')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { fieldErrors: { query: expect.any(Array) } } });
  });
});
