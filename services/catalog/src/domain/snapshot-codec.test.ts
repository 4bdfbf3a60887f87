import { describe, expect, it } from 'vitest';
import { plainIssue, temporaryDetails } from '../../test/support/issue-record.js';
import { toIssueRecord } from './catalog-sync.js';
import { CatalogView, type IssueRecord } from './catalog-view.js';
import { decodeSnapshot, encodeSnapshot, UnusableSnapshotError } from './snapshot-codec.js';
import { TopHits } from './search-index.js';
import { queryTerms } from './text.js';
import type { StoredIssue } from './repositories.js';

const WORDS = ['Crónicas', 'río', 'café', 'Straße', 'atlas', 'Keeper’s', 'lighthouse', 'caffè', 'Dvořák', 'de', 'la', 'the', 'winter', 'Conceição'];

function issueDoc(id: number, tenantId: number, overrides: Partial<StoredIssue> = {}): StoredIssue {
  const word = (k: number) => WORDS[(id * 7 + k * 3) % WORDS.length]!;
  return {
    _id: id,
    tenant_id: tenantId,
    name: `${word(1)} ${word(2)}`,
    slug: `issue-${id}`,
    type: ['epub', 'pdf', 'audio', 'physical'][id % 4]!,
    lang: ['en', 'es'][id % 2]!,
    author: `${word(3)} Author`,
    publisher: id % 3 === 0 ? 'Editorial Sur' : 'Northwind',
    bisac: 'FICTION / Literary',
    external_id: `EXT-${id}`,
    published_at: new Date(Date.UTC(2020, 0, 1 + (id % 300))),
    number_of_pages: id % 4 === 2 ? null : 100 + id,
    description: `${word(4)} ${word(5)} ${word(6)} ${word(7)}`,
    tags: { author: [`${word(3)} Author`], keyword: [word(8), word(9)], edition: id % 5 === 0 ? ['first'] : [] },
    collections: id % 2 ? ['fiction'] : ['fiction', 'magazines'],
    cover_url: id % 6 === 0 ? `https://covers.example/${id}.jpg` : null,
    deleted_at: null,
    updated_at: new Date(Date.UTC(2025, 0, 1, 0, 0, id)),
    ...overrides,
  };
}

function search(view: CatalogView, tenantId: number, query: string) {
  const hits = new TopHits<IssueRecord>(20);
  view.tenant(tenantId)?.index.search(queryTerms(query), { prefixLast: true }, hits);
  return { total: hits.total, hits: hits.sorted().map((hit) => [hit.doc.id, hit.matched, hit.score]) };
}

/** A view with two tenants, replaced and removed issues (dead index slots) and collections. */
function sampleView(): CatalogView {
  const view = new CatalogView(temporaryDetails);
  for (let id = 1; id <= 120; id++) view.upsertIssue(toIssueRecord(issueDoc(id, id % 3 === 0 ? 2 : 1)));
  for (let id = 1; id <= 30; id++)
    view.upsertIssue(toIssueRecord(issueDoc(id, 1, { name: `Revised ${id} atlas`, updated_at: new Date(Date.UTC(2025, 1, 1)) })));
  for (let id = 100; id <= 110; id++) view.removeIssue(id);
  // Withdrawn (held, listed nowhere, unsearchable) and with the accessibility a file declared.
  const accessibility = {
    conforms_to: ['https://www.w3.org/TR/epub-a11y-11#wcag-2.1-aa'],
    access_modes: ['textual'],
    access_modes_sufficient: ['textual'],
    features: [],
    hazards: ['none'],
    summary: 'Text.',
    certified_by: null,
  };
  for (let id = 40; id <= 44; id++)
    view.upsertIssue(toIssueRecord(issueDoc(id, 1, { state: 'withdrawn', accessibility, updated_at: new Date(Date.UTC(2025, 2, 1)) })));
  view.upsertCollection({ tenantId: 1, slug: 'fiction', title: { en: 'Fiction', es: 'Ficción' }, position: 1 });
  view.upsertCollection({ tenantId: 2, slug: 'magazines', title: { en: 'Magazines' }, position: 2 });
  view.prepare();
  return view;
}

const QUERIES = [
  'cafe',
  'cronicas rio',
  'strasse',
  'keepers',
  'keeper',
  'the',
  'de la',
  'atl',
  'revised atlas',
  'dvorak concei',
  'nothing-here',
  'northwind',
  'edit',
];

describe('catalog snapshot codec', () => {
  it('when a view is encoded and decoded, then the restored view answers every search and listing identically', async () => {
    const original = sampleView();
    const watermark = new Date(Date.UTC(2025, 1, 1));
    const restored = new CatalogView(temporaryDetails);
    const decoded = await decodeSnapshot(await encodeSnapshot({ ...original.snapshot(), watermark }));
    restored.restore(decoded);
    restored.prepare();

    expect(decoded.watermark).toEqual(watermark);
    expect(restored.issueCount).toBe(original.issueCount);
    // The withdrawn ones are held with their accessibility, and listed nowhere.
    expect(restored.issue(1, 41)).toMatchObject({ listed: false, accessibility: { access_modes: ['textual'], summary: 'Text.' } });
    expect(
      restored
        .tenant(1)!
        .latest()
        .some((issue) => issue.id === 41),
    ).toBe(false);
    for (const tenantId of [1, 2]) {
      for (const query of QUERIES) expect(search(restored, tenantId, query), `${tenantId} ${query}`).toEqual(search(original, tenantId, query));
      expect(restored.tenant(tenantId)!.latest().map(plainIssue)).toEqual(original.tenant(tenantId)!.latest().map(plainIssue));
      expect(restored.tenant(tenantId)!.heldNewestFirst().map(plainIssue)).toEqual(original.tenant(tenantId)!.heldNewestFirst().map(plainIssue));
      expect(
        restored
          .tenant(tenantId)!
          .inCollection('magazines')
          .map((issue) => issue.id),
      ).toEqual(
        original
          .tenant(tenantId)!
          .inCollection('magazines')
          .map((issue) => issue.id),
      );
      expect(restored.tenant(tenantId)!.collectionList()).toEqual(original.tenant(tenantId)!.collectionList());
    }
  });

  it('when a restored view is changed, then it indexes the change like a loaded one', async () => {
    const original = sampleView();
    const restored = new CatalogView(temporaryDetails);
    restored.restore(await decodeSnapshot(await encodeSnapshot({ ...original.snapshot(), watermark: new Date() })));
    for (const view of [original, restored]) {
      view.upsertIssue(toIssueRecord(issueDoc(500, 1, { name: 'Zanzibar atlas' })));
      view.upsertIssue(toIssueRecord(issueDoc(2, 1, { name: 'Café moved', tenant_id: 2 })));
      view.removeIssue(4);
      view.prepare();
    }
    for (const tenantId of [1, 2]) {
      for (const query of [...QUERIES, 'zanzibar', 'moved'])
        expect(search(restored, tenantId, query), `${tenantId} ${query}`).toEqual(search(original, tenantId, query));
    }
  });

  it('when a snapshot is decoded, then equal shelf lists of every tenant are one frozen array', async () => {
    const decoded = await decodeSnapshot(await encodeSnapshot({ ...sampleView().snapshot(), watermark: new Date() }));
    const issues = decoded.tenants.flatMap((tenant) => tenant.issues);
    const fiction = issues.filter((issue) => issue.collections.join() === 'fiction');
    expect(fiction.length).toBeGreaterThan(1);
    expect(new Set(fiction.map((issue) => issue.collections)).size).toBe(1);
    expect(Object.isFrozen(fiction[0]!.collections)).toBe(true);
  });

  it('when the bytes are not a snapshot, then decoding refuses them as unusable', async () => {
    const bytes = await encodeSnapshot({ ...sampleView().snapshot(), watermark: new Date() });
    await expect(decodeSnapshot(Buffer.from('not a snapshot'))).rejects.toBeInstanceOf(UnusableSnapshotError);
    await expect(decodeSnapshot(bytes.subarray(0, bytes.length >> 1))).rejects.toBeInstanceOf(UnusableSnapshotError);
  });
});
