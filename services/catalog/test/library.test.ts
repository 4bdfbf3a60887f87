// GET /api/v2/library and /library/filter, as the gateway calls them.
import { catalog } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANA, BRUNO, FABIO } from './support/dataset.js';
import { idsOf, startTestCatalog, type TestCatalog } from './support/harness.js';

const { SCOPE_ALL, SCOPE_OWNED } = catalog.Scope;
const base = { page: 0, perPage: 0 };

describe('library shelves', () => {
  let t: TestCatalog;

  beforeAll(async () => {
    t = await startTestCatalog({ reader: true });
    // Reader's positions for ana: most recent first, one of them in another tenant.
    t.reader!.positions.set(ANA, [
      { tenantId: 1, issueId: 1003, readAt: '2026-05-02T10:00:00Z' },
      { tenantId: 2, issueId: 2001, readAt: '2026-05-01T10:00:00Z' },
      { tenantId: 1, issueId: 1001, readAt: '2026-04-30T10:00:00Z' },
    ]);
  });
  afterAll(() => t?.stop());

  it('when ana lists the library of tenant 1, then the shelves come in order: continue reading, latest, then the collections', async () => {
    const page1 = await t.client.listLibrarySections({ ...base, tenantId: 1, userId: ANA, scope: SCOPE_OWNED });
    const page2 = await t.client.listLibrarySections({ ...base, tenantId: 1, userId: ANA, scope: SCOPE_OWNED, page: 2 });

    expect([...page1.sections, ...page2.sections].map((section) => section.filter?.value)).toEqual([
      'continue_reading',
      'latest_issues',
      'fiction',
      'nonfiction',
      'magazines',
      'audio',
    ]);
    expect(page1.meta).toEqual({ currentPage: 1, from: 1, to: 4, lastPage: 2, perPage: 4, total: 6 });
    expect(page2.meta).toEqual({ currentPage: 2, from: 5, to: 6, lastPage: 2, perPage: 4, total: 6 });
    expect(page1.sections.every((section) => section.filter?.name === 'section')).toBe(true);
  });

  it('when ana asks for shelves past the last page, then the page is empty with from and to null', async () => {
    const page = await t.client.listLibrarySections({ ...base, tenantId: 1, userId: ANA, scope: SCOPE_OWNED, page: 3 });
    expect(page.sections).toEqual([]);
    expect(page.meta).toEqual({ currentPage: 3, from: undefined, to: undefined, lastPage: 2, perPage: 4, total: 6 });
  });

  // SCOPE_UNSPECIFIED is what the wire carries when the client sent no scope: owned.
  it('when the scope is owned (the default), then shelves hold only what ana can read and empty shelves keep their place', async () => {
    const { sections } = await t.client.listLibrarySections({ ...base, tenantId: 1, userId: ANA, scope: catalog.Scope.SCOPE_UNSPECIFIED });
    const byValue = Object.fromEntries(sections.map((section) => [section.filter?.value, idsOf(section)]));
    // Readable: 1001 purchased, 1005 purchased (physical), 1009 gift, 1003 free; 1006 is revoked.
    expect(byValue.latest_issues).toEqual([1009, 1005, 1001, 1003]);
    expect(byValue.fiction).toEqual([1009, 1001]);
    expect(byValue.nonfiction).toEqual([]);
    expect(sections.every((section) => section.data.every((item) => item.commerce === undefined))).toBe(true);
  });

  it("when reader has positions, then the continue-reading shelf shows this tenant's issues in reading order", async () => {
    const { sections } = await t.client.listLibrarySections({ ...base, tenantId: 1, userId: ANA, scope: SCOPE_OWNED });
    expect(idsOf(sections[0])).toEqual([1003, 1001]);
  });

  it('when per_page is given, then every shelf holds at most that many items', async () => {
    const { sections } = await t.client.listLibrarySections({ ...base, tenantId: 1, userId: ANA, scope: SCOPE_OWNED, perPage: 2 });
    expect(idsOf(sections[1])).toEqual([1009, 1005]);
    expect(sections.every((section) => section.data.length <= 2)).toBe(true);
  });

  it('when the scope is all, then shelves show owned and unowned individually acquirable issues with commerce fields', async () => {
    const { sections } = await t.client.listLibrarySections({ ...base, tenantId: 1, userId: ANA, scope: SCOPE_ALL });
    const latest = sections[1]!;
    // 1004 is subscription-only and 1007 has no price: excluded.
    expect(idsOf(latest)).toEqual([1009, 1002, 1005, 1001, 1003, 1006, 1008]);
    expect(latest.data.every((item) => item.commerce !== undefined)).toBe(true);
    expect(t.commerce.calls.batchGetAccess).toBeGreaterThan(0);
  });

  it("when the storefront shows ana's issues, then each carries the commerce fields of its case", async () => {
    const { section } = await t.client.filterLibrary({
      ...base,
      tenantId: 1,
      userId: ANA,
      scope: SCOPE_ALL,
      filterName: 'section',
      filterValue: 'latest_issues',
      perPage: 20,
    });
    const item = (id: number) => section!.data.find((candidate) => candidate.id === id)!.commerce;

    // purchased
    expect(item(1001)).toEqual({
      canBeRead: true,
      canBeBought: false,
      accessReason: 'purchased',
      free: false,
      prices: [{ currency: 'USD', amount: 9.99, discount: undefined }],
      purchaseLink: undefined,
    });
    // discounted, not owned
    expect(item(1002)).toEqual({
      canBeRead: false,
      canBeBought: true,
      accessReason: undefined,
      free: false,
      prices: [{ currency: 'USD', amount: 4.99, discount: { amount: 2.49, percentage: 50, endsAt: '2031-01-01T00:00:00Z' } }],
      purchaseLink: 'http://northwind.localhost:8080/app/purchase/1002',
    });
    // free audio
    expect(item(1003)).toEqual({
      canBeRead: true,
      canBeBought: false,
      accessReason: 'free',
      free: true,
      prices: [],
      purchaseLink: undefined,
    });
    // revoked purchase: buyable again
    expect(item(1006)).toMatchObject({
      canBeRead: false,
      canBeBought: true,
      accessReason: undefined,
      purchaseLink: 'http://northwind.localhost:8080/app/purchase/1006',
    });
    // pay-per-use: listed, but the purchase redirect refuses it
    expect(item(1008)).toMatchObject({ canBeRead: false, canBeBought: false, purchaseLink: undefined });
    // gift with an expiry in the future
    expect(item(1009)).toMatchObject({ canBeRead: true, accessReason: 'purchased' });
  });

  it('when one library page is listed, then commerce is called once, not once per item', async () => {
    const before = { ...t.commerce.calls };
    await t.client.listLibrarySections({ ...base, tenantId: 1, userId: ANA, scope: SCOPE_ALL });
    await t.client.listLibrarySections({ ...base, tenantId: 1, userId: ANA, scope: SCOPE_OWNED });
    expect(t.commerce.calls.batchGetAccess - before.batchGetAccess).toBe(1);
    expect(t.commerce.calls.listAccessibleIssues - before.listAccessibleIssues).toBe(1);
  });

  it('when a tenant has one collection, then its library has three shelves', async () => {
    const { sections, meta } = await t.client.listLibrarySections({ ...base, tenantId: 4, userId: FABIO, scope: SCOPE_OWNED });
    expect(sections.map((section) => section.filter?.value)).toEqual(['continue_reading', 'latest_issues', 'narrativa']);
    expect(sections[2]!.collectionTitles.it).toBe('Narrativa');
    // Tenant 4 has free access: fabio reads everything there.
    expect(idsOf(sections[1])).toEqual([4001]);
    expect(meta).toMatchObject({ total: 3, lastPage: 1 });
  });

  it('when bruno has a plan covering one issue, then the owned library holds that issue', async () => {
    const { section } = await t.client.filterLibrary({
      ...base,
      tenantId: 1,
      userId: BRUNO,
      scope: SCOPE_OWNED,
      filterName: 'section',
      filterValue: 'fiction',
    });
    expect(idsOf(section)).toEqual([1001, 1004]);
  });
});

describe('library filter', () => {
  let t: TestCatalog;

  beforeAll(async () => {
    t = await startTestCatalog();
  });
  afterAll(() => t?.stop());

  it('when latest_issues is filtered, then it is ordered by published_at descending with full page meta', async () => {
    const request = { ...base, tenantId: 1, userId: ANA, scope: SCOPE_ALL, filterName: 'section', filterValue: 'latest_issues', perPage: 3 };
    const page1 = await t.client.filterLibrary(request);
    const page2 = await t.client.filterLibrary({ ...request, page: 2 });
    const page3 = await t.client.filterLibrary({ ...request, page: 3 });

    expect(idsOf(page1.section)).toEqual([1009, 1002, 1005]);
    expect(idsOf(page2.section)).toEqual([1001, 1003, 1006]);
    expect(idsOf(page3.section)).toEqual([1008]);
    expect(page2.section!.meta).toEqual({ currentPage: 2, from: 4, to: 6, lastPage: 3, perPage: 3, total: 7 });
    expect(page3.section!.meta).toEqual({ currentPage: 3, from: 7, to: 7, lastPage: 3, perPage: 3, total: 7 });
    const dates = [...page1.section!.data, ...page2.section!.data, ...page3.section!.data].map((item) => item.publishedAtMs);
    expect([...dates].sort((x, y) => y - x)).toEqual(dates);
  });

  it('when a collection slug is filtered, then the section is that collection with its titles by language', async () => {
    const { section } = await t.client.filterLibrary({
      ...base,
      tenantId: 2,
      userId: ANA,
      scope: SCOPE_OWNED,
      filterName: 'section',
      filterValue: 'novelas',
    });
    expect(section).toMatchObject({ kind: catalog.SectionKind.SECTION_KIND_COLLECTION, filter: { name: 'section', value: 'novelas' } });
    expect(section!.collectionTitles.pt).toBe('Romances');
    // Ana's plan covers all of tenant 2.
    expect(idsOf(section)).toEqual([2001, 2003, 2004]);
    expect(section!.meta).toEqual({ currentPage: 1, from: 1, to: 3, lastPage: 1, perPage: 8, total: 3 });
  });

  it('when continue_reading is filtered while reader is not deployed, then the section is empty and the call succeeds', async () => {
    const { section } = await t.client.filterLibrary({
      ...base,
      tenantId: 1,
      userId: ANA,
      scope: SCOPE_OWNED,
      filterName: 'section',
      filterValue: 'continue_reading',
    });
    expect(section).toMatchObject({ filter: { name: 'section', value: 'continue_reading' }, data: [] });
    expect(section!.meta).toEqual({ currentPage: 1, from: undefined, to: undefined, lastPage: 1, perPage: 8, total: 0 });
  });

  it('when reader is not deployed, then the library still answers with an empty continue-reading shelf', async () => {
    const { sections } = await t.client.listLibrarySections({ ...base, tenantId: 1, userId: ANA, scope: SCOPE_OWNED });
    expect(sections[0]).toMatchObject({ filter: { name: 'section', value: 'continue_reading' }, data: [] });
    expect(idsOf(sections[1])).toEqual([1009, 1005, 1001, 1003]);
  });

  it('when the section is unknown, then it is NOT_FOUND', async () => {
    await expect(
      t.client.filterLibrary({ ...base, tenantId: 1, userId: ANA, scope: SCOPE_OWNED, filterName: 'section', filterValue: 'novelas' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('when the filter is missing or not a section, then it is INVALID_ARGUMENT naming the field', async () => {
    await expect(t.client.filterLibrary({ ...base, tenantId: 1, userId: ANA, scope: SCOPE_OWNED, filterName: '', filterValue: '' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { fieldErrors: { section: expect.any(Array) } },
    });
    await expect(
      t.client.filterLibrary({ ...base, tenantId: 1, userId: ANA, scope: SCOPE_OWNED, filterName: 'author', filterValue: 'x' }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { fieldErrors: { author: expect.any(Array) } },
    });
  });

  it('when per_page is out of range, then it is INVALID_ARGUMENT on per_page', async () => {
    await expect(
      t.client.filterLibrary({ ...base, tenantId: 1, userId: ANA, scope: SCOPE_OWNED, filterName: 'section', filterValue: 'fiction', perPage: 101 }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { fieldErrors: { per_page: expect.any(Array) } } });
  });
});

// What OPDS feeds ask for: only what an e-reader can acquire (files_only), counted as listed, and a
// visitor (user 0) for a store whose catalog is public.
describe('storefront listings for e-readers', () => {
  let t: TestCatalog;

  beforeAll(async () => {
    t = await startTestCatalog();
  });
  afterAll(() => t?.stop());

  const latest = { ...base, tenantId: 1, scope: SCOPE_ALL, filterName: 'section', filterValue: 'latest_issues' };

  it('when files_only is asked, then physical and pay-per-use issues are left out before paging, and the total counts the rest', async () => {
    const request = { ...latest, userId: ANA, perPage: 3, filesOnly: true };
    const pages = [await t.client.filterLibrary(request), await t.client.filterLibrary({ ...request, page: 2 })];
    // 1005 is physical and 1008 pay-per-use (neither readable nor buyable): 7 acquirable, 5 for an e-reader.
    expect(pages.flatMap((page) => idsOf(page.section))).toEqual([1009, 1002, 1001, 1003, 1006]);
    expect(pages.map((page) => page.section!.meta)).toEqual([
      { currentPage: 1, from: 1, to: 3, lastPage: 2, perPage: 3, total: 5 },
      { currentPage: 2, from: 4, to: 5, lastPage: 2, perPage: 3, total: 5 },
    ]);
  });

  it('when a store search asks for files only, then the total is what its pages list', async () => {
    const search = { tenantId: 1, userId: ANA, query: 'lighthouse', page: 1, scope: SCOPE_ALL, lang: '' };
    const all = await t.client.searchStore(search);
    const files = await t.client.searchStore({ ...search, filesOnly: true });
    expect(idsOf(all.section)).toEqual(expect.arrayContaining([1001, 1005]));
    expect(idsOf(files.section)).toEqual([1001]);
    expect(files.section!.meta).toMatchObject({ total: 1, lastPage: 1 });
  });

  it('when user 0 lists the storefront, then it is a visitor: free issues readable, the rest for sale, nothing owned', async () => {
    const { section } = await t.client.filterLibrary({ ...latest, userId: 0, perPage: 20, filesOnly: true });
    const item = (id: number) => section!.data.find((candidate) => candidate.id === id)?.commerce;
    expect(item(1003)).toMatchObject({ canBeRead: true, accessReason: 'free' });
    expect(item(1001)).toMatchObject({ canBeRead: false, canBeBought: true, purchaseLink: 'http://northwind.localhost:8080/app/purchase/1001' });
    expect(section!.data.every((candidate) => candidate.commerce!.accessReason !== 'purchased')).toBe(true);
    const { sections } = await t.client.listLibrarySections({ ...base, tenantId: 1, userId: 0, scope: SCOPE_ALL });
    expect(sections[0]).toMatchObject({ filter: { name: 'section', value: 'continue_reading' }, data: [] });
  });

  it('when user 0 asks for what it owns, then it is INVALID_ARGUMENT on user_id', async () => {
    await expect(t.client.filterLibrary({ ...latest, userId: 0, scope: SCOPE_OWNED })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
