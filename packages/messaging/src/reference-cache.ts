// A bounded, expiring in-process cache for reference data another service
// owns (access decisions, tenant settings), meant to be invalidated by that
// service's events through a broadcast subscription. The TTL is only the
// safety net for an invalidation that never arrived.
//
// Loads go through `get(key, load)`: concurrent misses of one key share one
// load, and a load that started before an invalidation is returned to its
// callers but not stored, so a reply computed before a purchase cannot
// outlive the purchase's event in the cache.
//
// With `lastKnown` (tenant settings: data whose staleness is harmless, never
// an access decision) the cache also answers for an owner that does not: the
// last value loaded for a key outlives its TTL and every invalidation, and a
// load that fails with an outage is answered with it. An owner's outage then
// does not fail every request that needs the data whenever an entry expires.
import { countCacheLookup, registerCache } from '@folio/telemetry';

export interface ReferenceCacheOptions<V = unknown, K = unknown> {
  /** Names the cache in `folio_cache_lookups_total{cache}` (hits and misses; the hit ratio). */
  name?: string;
  /** Entries kept; the least recently used goes first. */
  maxEntries: number;
  /** How long an entry is served at most; 0 disables caching. */
  ttlMs: number;
  /** A shorter TTL for some values (an unknown tenant, remembered briefly); at most `ttlMs`. */
  ttlOf?: (value: V) => number;
  /** The outage fallback (see the top of this file); only `get` uses it. */
  lastKnown?: LastKnownOptions<K>;
  /** The clock, for tests. */
  now?: () => number;
}

export interface LastKnownOptions<K = unknown> {
  /** Whether a load's error means the owner did not answer; any other error (NOT_FOUND) also forgets the last value. */
  isOutage(error: unknown): boolean;
  /** How long a last value served for an outage is kept as the answer before the owner is asked again; default 1000 ms. */
  retryAfterMs?: number;
  /** Told each time a last value is served for an outage (a warning in the log). */
  onFallback?(error: unknown, key: K): void;
}

const DEFAULT_RETRY_AFTER_MS = 1_000;

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export class ReferenceCache<K, V> {
  // A Map iterates in insertion order: re-inserting on a hit keeps the least recently used first.
  private readonly entries = new Map<K, Entry<V>>();
  private readonly loading = new Map<K, { promise: Promise<V>; generation: number }>();
  // With lastKnown: each key's last loaded value and the generation its load started in.
  private readonly lastValues = new Map<K, { value: V; generation: number }>();
  private readonly now: () => number;
  // Bumped by every invalidation; a load that saw another generation is not stored.
  private generation = 0;

  private readonly name: string;

  constructor(private readonly options: ReferenceCacheOptions<V, K>) {
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

  /**
   * The cached value, or the result of `load` (stored unless an invalidation
   * happened meanwhile); with `lastKnown`, the last value loaded when `load`
   * fails for an outage.
   */
  get(key: K, load: () => Promise<V>): Promise<V> {
    const cached = this.peek(key);
    if (cached !== undefined) return Promise.resolve(cached);
    const pending = this.loading.get(key);
    if (pending && pending.generation === this.generation) return pending.promise;
    const generation = this.generation;
    const promise = load().then(
      (value) => {
        this.setIfCurrent(key, value, generation);
        this.remember(key, value, generation);
        return value;
      },
      (error: unknown) => this.lastKnownFor(key, error, generation),
    );
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
    const { ttlMs, ttlOf } = this.options;
    this.store(key, value, ttlOf ? Math.min(ttlMs, ttlOf(value)) : ttlMs, generation);
  }

  private store(key: K, value: V, ttlMs: number, generation: number): void {
    if (generation !== this.generation || this.options.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    dropOldest(this.entries, this.options.maxEntries);
  }

  private remember(key: K, value: V, generation: number): void {
    if (!this.options.lastKnown) return;
    // A load that started before a later one's (and ended after it) is older: it does not replace it.
    const known = this.lastValues.get(key);
    if (known && known.generation > generation) return;
    this.lastValues.delete(key);
    this.lastValues.set(key, { value, generation });
    dropOldest(this.lastValues, this.options.maxEntries);
  }

  private lastKnownFor(key: K, error: unknown, generation: number): V {
    const fallback = this.options.lastKnown;
    if (!fallback) throw error;
    if (!fallback.isOutage(error)) {
      // The owner answered (the key is gone, say): what was known is no longer.
      this.lastValues.delete(key);
      throw error;
    }
    const known = this.lastValues.get(key);
    if (!known) throw error;
    fallback.onFallback?.(error, key);
    // Answered from here for a moment: a dead owner is asked about the key at most once per retryAfterMs.
    this.store(key, known.value, fallback.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS, generation);
    return known.value;
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

/** Maps iterate in insertion order, and a key is re-inserted on each use: the first is the least recently used. */
function dropOldest<K>(map: Map<K, unknown>, maxEntries: number): void {
  while (map.size > maxEntries) map.delete(map.keys().next().value as K);
}
