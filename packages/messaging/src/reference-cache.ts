// A bounded, expiring in-process cache for reference data another service
// owns (access decisions, tenant settings), meant to be invalidated by that
// service's events through a broadcast subscription. The TTL is only the
// safety net for an invalidation that never arrived.
//
// Loads go through `get(key, load)`: concurrent misses of one key share one
// load, and a load that started before an invalidation is returned to its
// callers but not stored, so a reply computed before a purchase cannot
// outlive the purchase's event in the cache.
import { countCacheLookup, registerCache } from '@folio/telemetry';

export interface ReferenceCacheOptions {
  /** Names the cache in `folio_cache_lookups_total{cache}` (hits and misses; the hit ratio). */
  name?: string;
  /** Entries kept; the least recently used goes first. */
  maxEntries: number;
  /** How long an entry is served at most; 0 disables caching. */
  ttlMs: number;
  /** The clock, for tests. */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export class ReferenceCache<K, V> {
  // A Map iterates in insertion order: re-inserting on a hit keeps the least recently used first.
  private readonly entries = new Map<K, Entry<V>>();
  private readonly loading = new Map<K, { promise: Promise<V>; generation: number }>();
  private readonly now: () => number;
  // Bumped by every invalidation; a load that saw another generation is not stored.
  private generation = 0;

  private readonly name: string;

  constructor(private readonly options: ReferenceCacheOptions) {
    this.now = options.now ?? Date.now;
    this.name = options.name ?? 'reference';
    registerCache(this.name);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached value, if present and fresh. Every call is one lookup in the hit-ratio metric. */
  peek(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return this.miss();
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return this.miss();
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    countCacheLookup(this.name, true);
    return entry.value;
  }

  private miss(): undefined {
    countCacheLookup(this.name, false);
    return undefined;
  }

  /** The cached value, or the result of `load` (stored unless an invalidation happened meanwhile). */
  get(key: K, load: () => Promise<V>): Promise<V> {
    const cached = this.peek(key);
    if (cached !== undefined) return Promise.resolve(cached);
    const pending = this.loading.get(key);
    if (pending && pending.generation === this.generation) return pending.promise;
    const generation = this.generation;
    const promise = load().then((value) => {
      this.setIfCurrent(key, value, generation);
      return value;
    });
    this.loading.set(key, { promise, generation });
    const forget = () => {
      if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
    };
    promise.then(forget, forget);
    return promise;
  }

  /**
   * The cached value, or the result of `load`, which is stored only when it
   * is not null (an absent document is asked again next time: it may be
   * created by another process) and no invalidation came meanwhile.
   */
  async getPresent(key: K, load: () => Promise<V | null>): Promise<V | null> {
    const cached = this.peek(key);
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const value = await load();
    if (value !== null) this.setIfCurrent(key, value, generation);
    return value;
  }

  /** The current generation, for callers that load outside `get` and store with `setIfCurrent`. */
  snapshot(): number {
    return this.generation;
  }

  /** Stores a value loaded while `generation` was current; dropped when an invalidation came since. */
  setIfCurrent(key: K, value: V, generation: number): void {
    if (generation !== this.generation || this.options.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.options.ttlMs });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
    }
  }

  delete(key: K): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  /** Drops every entry whose key matches, e.g. every entry of one user. */
  deleteWhere(matches: (key: K, value: V) => boolean): void {
    this.generation += 1;
    for (const [key, entry] of [...this.entries]) if (matches(key, entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
