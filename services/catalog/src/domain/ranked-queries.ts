// The whole ranking of recent queries, per tenant index, kept while that
// index is unchanged. Walking the postings and scoring is the part of a
// search that grows with the store (a common word matches thousands of
// issues at 100,000); with the ranking kept, a repeated query (the next page,
// the same word from another reader) only filters it by access and slices a
// page. Bounded by the number of hits held, not of queries: one query
// matching the whole store must not push memory up by itself.
import type { IssueRecord } from './catalog-view.js';
import { AllHits, type Hit, type RecencyOrder, type SearchIndex } from './search-index.js';

interface Entry {
  index: SearchIndex<IssueRecord>;
  version: number;
  hits: readonly Hit<IssueRecord>[];
}

export interface RankedQuerySettings {
  /** Hits held over all entries; a ranking longer than this is computed and not kept. */
  maxHits: number;
}

export class RankedQueries {
  private readonly entries = new Map<string, Entry>();
  private held = 0;

  constructor(private readonly settings: RankedQuerySettings) {}

  /**
   * Every match of `terms` in the index, best first. `recency` gives the
   * index's documents newest first as they are now (TenantCatalog.recencyOrder),
   * which AllHits sorts by; it is asked only when the ranking is not kept.
   */
  ranked(
    tenantId: number,
    index: SearchIndex<IssueRecord>,
    terms: readonly string[],
    prefixLast: boolean,
    recency: () => RecencyOrder<IssueRecord>,
  ): readonly Hit<IssueRecord>[] {
    const key = `${tenantId}\u0000${prefixLast ? 1 : 0}\u0000${terms.join('\u0000')}`;
    const entry = this.entries.get(key);
    if (entry) {
      this.forget(key, entry);
      // Re-inserted below when still valid: Map order is recency, the first key is evicted first.
      if (entry.index === index && entry.version === index.version) {
        this.keep(key, entry);
        return entry.hits;
      }
    }
    const sink = new AllHits<IssueRecord>(recency());
    index.search(terms, { prefixLast }, sink);
    const hits = sink.sorted();
    if (hits.length <= this.settings.maxHits) this.keep(key, { index, version: index.version, hits });
    return hits;
  }

  private keep(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    this.held += entry.hits.length;
    for (const [oldest, old] of this.entries) {
      if (this.held <= this.settings.maxHits) break;
      this.forget(oldest, old);
    }
  }

  private forget(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.held -= entry.hits.length;
  }
}
