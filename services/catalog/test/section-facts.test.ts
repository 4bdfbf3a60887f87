// What the gateway renders from: facts (a section's kind, its whole filter, a
// collection's titles; an item's access reason and publication time), never
// a label, a title or a filter key chosen for a client.
import { catalog } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANA } from './support/dataset.js';
import { startTestCatalog, type TestCatalog } from './support/harness.js';

const { SCOPE_ALL, SCOPE_OWNED } = catalog.Scope;
const { SECTION_KIND_CONTINUE_READING, SECTION_KIND_LATEST_ISSUES, SECTION_KIND_COLLECTION, SECTION_KIND_SEARCH, SECTION_KIND_MY_CONTENT } =
  catalog.SectionKind;
const firstPage = { page: 0, perPage: 0 };

describe('section facts', () => {
  let t: TestCatalog;

  beforeAll(async () => {
    t = await startTestCatalog();
  });
  afterAll(() => t?.stop());

  it('when the library is listed, then each section says its kind, its whole filter and a collection its titles by language', async () => {
    const { sections } = await t.client.listLibrarySections({ ...firstPage, tenantId: 1, userId: ANA, scope: SCOPE_OWNED });
    expect(sections.map((section) => section.kind)).toEqual([
      SECTION_KIND_CONTINUE_READING,
      SECTION_KIND_LATEST_ISSUES,
      SECTION_KIND_COLLECTION,
      SECTION_KIND_COLLECTION,
    ]);
    expect(sections.map((section) => section.filter)).toEqual([
      { name: 'section', value: 'continue_reading' },
      { name: 'section', value: 'latest_issues' },
      { name: 'section', value: 'fiction' },
      { name: 'section', value: 'nonfiction' },
    ]);
    expect(sections[0]!.collectionTitles).toEqual({});
    expect(sections[2]!.collectionTitles).toEqual({ en: 'Fiction', es: 'Ficción', pt: 'Ficção', it: 'Narrativa' });
  });

  it('when a storefront item is listed, then it carries its access reason and its publication time as facts', async () => {
    const { section } = await t.client.filterLibrary({
      ...firstPage,
      tenantId: 1,
      userId: ANA,
      filterName: 'section',
      filterValue: 'latest_issues',
      scope: SCOPE_ALL,
    });
    const item = section!.data.find((candidate) => candidate.id === 1001)!;
    expect(item.publishedAtMs).toBe(Date.parse('2026-03-02T09:00:00Z'));
    expect(item.commerce).toMatchObject({ accessReason: 'purchased' });
  });

  it('when search, my-content and continue reading answer, then their sections say their kind and filter', async () => {
    const search = await t.client.searchStore({ tenantId: 1, userId: ANA, query: 'atlas', page: 1, scope: SCOPE_OWNED });
    expect(search.section).toMatchObject({ kind: SECTION_KIND_SEARCH, filter: { name: 'search', value: 'atlas' } });
    const mine = await t.client.listMyContent({ tenantIds: [1], userId: ANA, perPage: 0, cursor: '' });
    expect(mine.section).toMatchObject({ kind: SECTION_KIND_MY_CONTENT, filter: { name: 'section', value: 'my_content' } });
    const reading = await t.client.listContinueReading({ tenantIds: [1], userId: ANA, page: 1, perPage: 0 });
    expect(reading.section).toMatchObject({ kind: SECTION_KIND_CONTINUE_READING, filter: { name: 'section', value: 'continue_reading' } });
  });
});
