// Stored text indexes and their in-memory cache. An index is written once per
// ingest under a content-addressed key, so a cached copy is never stale: a
// re-ingest names a new key. Concurrent first reads of one index share a load.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ContentStorage } from '../storage/storage.js';
import { TextIndex } from './text-index.js';

export class TextIndexStore {
  private readonly cache: LRUCache<string, TextIndex>;
  private readonly loading = new Map<string, Promise<TextIndex | null>>();

  constructor(
    private readonly storage: ContentStorage,
    cacheMegabytes = 256,
  ) {
    this.cache = new LRUCache<string, TextIndex>({
      maxSize: cacheMegabytes * 1024 * 1024,
      sizeCalculation: (index) => Math.max(1, index.approximateBytes()),
    });
  }

  /** Stores the index of an issue's text; returns its key. */
  async save(tenantId: number, issueId: number, index: TextIndex): Promise<string> {
    const data = index.serialize();
    const key = `_index/${tenantId}/${issueId}/${createHash('sha256').update(data).digest('hex').slice(0, 24)}.json.gz`;
    await this.storage.put(key, data);
    this.cache.set(key, index);
    return key;
  }

  async load(key: string): Promise<TextIndex | null> {
    const cached = this.cache.get(key);
    if (cached) return cached;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = (async () => {
        const data = await this.storage.get(key);
        if (!data) return null;
        const index = TextIndex.deserialize(data);
        this.cache.set(key, index);
        return index;
      })().finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  /** Drops every cached index (benchmarks measure cold loads with it). */
  clearCache(): void {
    this.cache.clear();
  }
}
