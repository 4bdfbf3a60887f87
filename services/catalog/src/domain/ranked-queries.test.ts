import { describe, expect, it } from 'vitest';
import { issueRecord } from '../../test/support/issue-record.js';
import { byRecency, type IssueRecord } from './catalog-view.js';
import { RankedQueries } from './ranked-queries.js';
import { SearchIndex, TopHits, type RecencyOrder } from './search-index.js';

const issue = (id: number, name: string) => issueRecord(id, { name });

function indexOf(names: string[]): SearchIndex<IssueRecord> {
  const index = new SearchIndex<IssueRecord>();
  names.forEach((name, i) => index.upsert(issue(i + 1, name)));
  return index;
}

const ids = (hits: readonly { doc: IssueRecord }[]) => hits.map((hit) => hit.doc.id);

/** The index's documents newest first as they are when asked, as TenantCatalog.recencyOrder gives them. */
function recencyOf(index: SearchIndex<IssueRecord>): () => RecencyOrder<IssueRecord> {
  return () => {
    const docs = index.documents().sort(byRecency);
    const ranks = new Map(docs.map((doc, rank) => [doc, rank]));
    return { docs, rankOf: (doc) => ranks.get(doc)! };
  };
}

describe('ranked queries', () => {
  it('when a query is ranked, then it is the whole ranking a direct search gives, in the same order', () => {
    const index = indexOf(['Atlas of rivers', 'River atlas', 'Atlantic', 'Sea', 'The atlas', 'Atlas atlas']);
    const direct = new TopHits<IssueRecord>(100);
    index.search(['atlas'], { prefixLast: true }, direct);
    const ranked = new RankedQueries({ maxHits: 100 }).ranked(1, index, ['atlas'], true, recencyOf(index));
    expect(ids(ranked)).toEqual(ids(direct.sorted()));
    expect(ranked).toHaveLength(direct.total);
  });

  it('when many hits tie on their terms and score, then the ranking is the order compareHits gives, hit for hit', () => {
    // Few publication dates, so that many hits tie on the first three criteria and the id decides.
    const words = ['atlas', 'river', 'atlantic', 'sea', 'map', 'north'];
    const index = new SearchIndex<IssueRecord>();
    for (let id = 1; id <= 400; id++) {
      const pick = (k: number) => words[(id * k) % words.length]!;
      index.upsert(
        issueRecord(id, {
          name: `${pick(7)} ${pick(3)}`,
          author: id % 5 === 0 ? pick(11) : '',
          keywords: id % 3 === 0 ? [pick(13)] : [],
          description: `${pick(17)} ${pick(19)} ${pick(23)}`,
          publishedAtMs: (id % 4) * 86_400_000,
        }),
      );
    }
    index.remove(17);
    index.upsert(issueRecord(18, { name: 'atlas atlas river', publishedAtMs: 0 }));
    for (const [terms, prefixLast] of [
      [['atlas'], true],
      [['river', 'sea'], false],
      [['at'], true],
      [['map', 'north', 'atlas'], true],
    ] as const) {
      const compared = new TopHits<IssueRecord>(1_000); // sorts its hits with compareHits
      index.search(terms, { prefixLast }, compared);
      const ranked = new RankedQueries({ maxHits: 0 }).ranked(1, index, terms, prefixLast, recencyOf(index));
      expect(ranked.length).toBeGreaterThan(50);
      expect(ranked).toEqual(compared.sorted());
    }
  });

  it('when the same query comes again on an unchanged index, then the kept ranking is returned', () => {
    const index = indexOf(['Atlas', 'Atlas two']);
    const rankings = new RankedQueries({ maxHits: 100 });
    const first = rankings.ranked(1, index, ['atlas'], true, recencyOf(index));
    expect(rankings.ranked(1, index, ['atlas'], true, recencyOf(index))).toBe(first);
    expect(rankings.ranked(2, index, ['atlas'], true, recencyOf(index))).not.toBe(first);
    expect(rankings.ranked(1, index, ['atlas'], false, recencyOf(index))).not.toBe(first);
  });

  it('when the index changes, then the query is ranked again and sees the change', () => {
    const index = indexOf(['Atlas', 'Atlas two']);
    const rankings = new RankedQueries({ maxHits: 100 });
    expect(ids(rankings.ranked(1, index, ['atlas'], true, recencyOf(index)))).toEqual([2, 1]);
    index.upsert(issue(3, 'New atlas'));
    expect(ids(rankings.ranked(1, index, ['atlas'], true, recencyOf(index)))).toEqual([3, 2, 1]);
    index.remove(2);
    expect(ids(rankings.ranked(1, index, ['atlas'], true, recencyOf(index)))).toEqual([3, 1]);
  });

  it('when the kept hits would pass the budget, then the least recent rankings go, and a ranking longer than the budget is not kept', () => {
    const index = indexOf(['alpha one', 'alpha two', 'beta one', 'beta two', 'gamma']);
    const rankings = new RankedQueries({ maxHits: 4 });
    const alpha = rankings.ranked(1, index, ['alpha'], false, recencyOf(index));
    const beta = rankings.ranked(1, index, ['beta'], false, recencyOf(index));
    expect(rankings.ranked(1, index, ['alpha'], false, recencyOf(index))).toBe(alpha); // now the most recent
    rankings.ranked(1, index, ['gamma'], false, recencyOf(index)); // 5 hits held: beta, the least recent, goes
    expect(rankings.ranked(1, index, ['alpha'], false, recencyOf(index))).toBe(alpha);
    expect(rankings.ranked(1, index, ['beta'], false, recencyOf(index))).not.toBe(beta);
    const one = rankings.ranked(1, index, ['one', 'two', 'gamma'], false, recencyOf(index));
    expect(one).toHaveLength(5);
    expect(rankings.ranked(1, index, ['one', 'two', 'gamma'], false, recencyOf(index))).not.toBe(one);
  });
});
