import { describe, expect, it } from 'vitest';
import { SearchIndex, TopHits, type Searchable } from './search-index.js';

const doc = (id: number, fields: Partial<Searchable>): Searchable => ({
  id,
  publishedAtMs: id,
  name: '',
  author: '',
  publisher: '',
  keywords: [],
  description: '',
  ...fields,
});

function search(index: SearchIndex<Searchable>, terms: string[], prefixLast = true, limit = 10) {
  const hits = new TopHits<Searchable>(limit);
  index.search(terms, { prefixLast }, hits);
  return { ids: hits.sorted().map((hit) => hit.doc.id), total: hits.total };
}

describe('search index', () => {
  it('when a term is in different fields, then title ranks above author and publisher, above keywords, above description', () => {
    const index = new SearchIndex<Searchable>();
    index.upsert(doc(1, { description: 'river' }));
    index.upsert(doc(2, { keywords: ['river'] }));
    index.upsert(doc(3, { author: 'Ann River' }));
    index.upsert(doc(4, { name: 'The River' }));
    index.upsert(doc(5, { publisher: 'River Press' }));
    expect(search(index, ['river']).ids).toEqual([4, 5, 3, 2, 1]);
  });

  it('when the last term is a prefix, then an exact word ranks above a longer word', () => {
    const index = new SearchIndex<Searchable>();
    index.upsert(doc(1, { name: 'cat' }));
    index.upsert(doc(2, { name: 'catalog' }));
    expect(search(index, ['cat']).ids).toEqual([1, 2]);
    expect(search(index, ['cat'], false).ids).toEqual([1]);
  });

  it('when documents match more query terms, then they rank first whatever the fields', () => {
    const index = new SearchIndex<Searchable>();
    index.upsert(doc(1, { name: 'red red river', description: 'x' }));
    index.upsert(doc(2, { description: 'red boat' }));
    expect(search(index, ['red', 'boat']).ids).toEqual([2, 1]);
  });

  it('when a document is replaced or removed, then only its new form is found', () => {
    const index = new SearchIndex<Searchable>();
    index.upsert(doc(1, { name: 'old title' }));
    index.upsert(doc(1, { name: 'new title' }));
    expect(search(index, ['old'], false).ids).toEqual([]);
    expect(search(index, ['new']).ids).toEqual([1]);
    index.remove(1);
    expect(search(index, ['title']).total).toBe(0);
    expect(index.size).toBe(0);
  });

  it('when many documents are replaced, then compaction keeps results identical', () => {
    const index = new SearchIndex<Searchable>();
    for (let round = 0; round < 3; round++) {
      for (let id = 1; id <= 2_000; id++) index.upsert(doc(id, { name: `book ${round} ${id % 7 === 0 ? 'seven' : 'other'}` }));
    }
    expect(index.stats().deadSlots).toBeLessThan(2_000);
    expect(search(index, ['seven'], false, 1_000).total).toBe(285);
    expect(search(index, ['book', '2'], false).total).toBe(2_000);
  });

  it('when the index is packed, then it answers as before, and documents changed afterwards are found by their new terms only', () => {
    const index = new SearchIndex<Searchable>();
    for (let id = 1; id <= 300; id++) index.upsert(doc(id, { name: `river ${id % 3 === 0 ? 'delta' : 'bank'}`, description: `boat${id % 10}` }));
    for (let id = 1; id <= 30; id++) index.remove(id);
    const queries: [string[], boolean][] = [
      [['river'], false],
      [['delta'], false],
      [['boat'], true],
      [['river', 'boat3'], false],
    ];
    const before = queries.map(([terms, prefix]) => search(index, terms, prefix, 50));
    index.pack();
    expect(index.stats().deadSlots).toBe(0);
    expect(queries.map(([terms, prefix]) => search(index, terms, prefix, 50))).toEqual(before);

    index.upsert(doc(300, { name: 'lake' }));
    index.upsert(doc(301, { name: 'river delta' }));
    expect(search(index, ['lake'], false).ids).toEqual([300]);
    expect(search(index, ['delta'], false, 200).ids).toContain(301);
    expect(search(index, ['delta'], false, 200).ids).not.toContain(300);
    expect(search(index, ['delta'], false, 200).total).toBe(before[1]!.total);
  });

  it('when growable lists hold most postings, then prepare() packs them and answers stay the same', () => {
    const index = new SearchIndex<Searchable>();
    const words = Array.from({ length: 25 }, (_, w) => `word${w}`);
    for (let id = 1; id <= 8_100; id++) index.upsert(doc(id, { name: words.map((word) => `${word}x${id % 40}`).join(' ') }));
    const before = search(index, ['word3x7'], false, 300);
    expect(index.stats().loosePostings).toBe(8_100 * 25);
    index.prepare();
    expect(index.stats().loosePostings).toBe(0);
    expect(search(index, ['word3x7'], false, 300)).toEqual(before);
  });

  it('when catch-ups add issues a few thousand at a time, then prepare() packs them long before they outnumber the packed postings', () => {
    const index = new SearchIndex<Searchable>();
    const words = Array.from({ length: 25 }, (_, w) => `word${w}`);
    const add = (from: number, to: number) => {
      for (let id = from; id <= to; id++) index.upsert(doc(id, { name: words.map((word) => `${word}x${id % 40}`).join(' ') }));
    };
    add(1, 8_100);
    index.prepare();
    add(8_101, 10_200);
    const before = search(index, ['word3x7'], false, 300);
    expect(index.stats().loosePostings).toBeGreaterThan(50_000);
    index.prepare();
    expect(index.stats().loosePostings).toBe(0);
    expect(search(index, ['word3x7'], false, 300)).toEqual(before);
  });

  it('when only the top hits are kept, then the total still counts every match', () => {
    const index = new SearchIndex<Searchable>();
    for (let id = 1; id <= 50; id++) index.upsert(doc(id, { name: 'same' }));
    const { ids, total } = search(index, ['same'], true, 3);
    expect(ids).toEqual([50, 49, 48]);
    expect(total).toBe(50);
  });
});
