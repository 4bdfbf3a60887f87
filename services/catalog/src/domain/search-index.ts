// The in-memory inverted index of one tenant's issues: term -> posting list
// of (document slot, fields the term occurs in), plus a sorted term array for
// prefix lookups by binary search. FerretDB (the local MongoDB) cannot answer
// ranked, accent-insensitive text queries fast, and a regex scan over every
// document is out of the question at 100,000 issues, so catalog keeps this
// index in the service, loads it from MongoDB at start and applies every
// change it sees (see catalog-sync.ts for how it stays in sync).
//
// Ranking of a query's matches, best first:
//   1. how many query terms matched (more is better);
//   2. the sum over matched terms of the term's field weight: title 10,
//      author and publisher 5, keywords 3, description 1 (a term found in
//      several fields adds them up); the last query term also matches as a
//      prefix, worth half of an exact match;
//   3. recency (published_at, newest first), then the issue id, descending.
//
// A query touches only the posting lists of its terms, with typed-array
// scratch space and a bounded heap for the page (no per-match allocation), so
// its cost grows with the number of matches, not with the catalog.
//
// Updates never rewrite posting lists: a changed issue gets a new slot and the
// old one is marked dead (skipped by queries); when dead slots pile up the
// index is packed again without them.
//
// snapshot() exports the live documents and their postings as flat typed
// arrays (dead slots dropped, terms sorted) and restore() adopts them as they
// are, so a replica starting from a stored snapshot skips tokenizing every
// issue (see snapshot.ts). pack() does both in place: when growable lists hold
// many postings (prepare(), after a full load or a large catch-up) and
// when dead slots pile up. Packed postings are one Int32Array per index (4
// bytes a posting, no object per term); a term an update appends to gets a
// growable list of its own.
import { indexTerms } from './text.js';

export interface Searchable {
  id: number;
  publishedAtMs: number;
  name: string;
  author: string;
  publisher: string;
  keywords: readonly string[];
  description: string;
}

const FIELD = { title: 1, author: 2, publisher: 4, keyword: 8, description: 16 } as const;
export const FIELD_WEIGHTS = { title: 10, author: 5, publisher: 5, keyword: 3, description: 1 } as const;
const FIELD_BITS = 5;
const FIELD_MASK = (1 << FIELD_BITS) - 1;
const MAX_TERMS = 16;
/**
 * prepare() packs the index once growable lists hold more postings than this
 * and than a quarter of the packed ones. A growable posting costs 8 bytes and
 * more (a list grows by half again), a packed one 4, and packing is cheap
 * (~10 ms for 420,000 postings), while catch-ups that each add a few thousand
 * issues to a tenant never reach the packed size: at 100,000 issues caught up
 * that way, growable lists were 26 MB of heap against 6 MB packed.
 * Waiting for a quarter of the packed size bounds the work: a pack after at
 * least that many new postings.
 */
const LOOSE_POSTINGS_TO_PACK = 50_000;

/** A term's postings: the number of its range in the packed arrays, or a growable list once an update appended to it. */
type Postings = number | number[];

/** An index as flat arrays: the postings of `terms[i]` are `postings[offsets[i]] .. postings[offsets[i + 1] - 1]`. */
export interface IndexSnapshot {
  /** In Array.prototype.sort order (the order prefix lookups rely on). */
  terms: string[];
  /** terms.length + 1 entries. */
  offsets: Uint32Array;
  /** slot << 5 | field mask; slots index the snapshot's documents. */
  postings: Int32Array;
}

/**
 * Twice the score of a term occurring in the fields of a mask (the sum of
 * their weights): doubled so that a prefix match, worth half, stays an integer.
 */
const MASK_SCORE2 = (() => {
  const scores = new Uint8Array(1 << FIELD_BITS);
  for (let mask = 0; mask < scores.length; mask++) {
    for (const [field, bit] of Object.entries(FIELD) as [keyof typeof FIELD, number][]) {
      if (mask & bit) scores[mask]! += 2 * FIELD_WEIGHTS[field];
    }
  }
  return scores;
})();

export interface Hit<D> {
  doc: D;
  /** Number of query terms found in the document. */
  matched: number;
  score: number;
}

/** Orders hits: more terms matched, higher score, newer, higher id. Negative when `a` ranks first. */
export function compareHits<D extends Searchable>(a: Hit<D>, b: Hit<D>): number {
  return b.matched - a.matched || b.score - a.score || b.doc.publishedAtMs - a.doc.publishedAtMs || b.doc.id - a.doc.id;
}

/** Where a query's matches go: `score2` is twice the score (see MASK_SCORE2). */
export interface HitSink<D> {
  offer(doc: D, matched: number, score2: number): void;
}

/**
 * An index's documents newest first (published, then id, both descending: the
 * last two criteria of compareHits) and each one's place in that order.
 */
export interface RecencyOrder<D> {
  docs: readonly D[];
  rankOf(doc: D): number;
}

/** matched * PRIMARY_SCALE + doubled score orders the first two criteria (a doubled score stays under 16 x 48). */
const PRIMARY_SCALE = 4096;
/** Above every primary: matched is at most MAX_TERMS. */
const PRIMARY_LIMIT = (MAX_TERMS + 1) * PRIMARY_SCALE;
/** Room for a recency rank below the primary in one key: 17 x 4096 x 2^32 < 2^53, so every key is an exact integer. */
const RANK_SCALE = 2 ** 32;

/**
 * Keeps every hit offered to it: a query's whole ranking, for RankedQueries to
 * reuse. A hit is one number (the primary criteria, inverted, above the
 * document's place in the index's recency order), so the ranking is a typed
 * array's numeric sort, in the order compareHits gives: a common word matches
 * most of a large catalog, and sorting that many hits with compareHits was
 * most of a first search's time (bench/search).
 */
export class AllHits<D extends Searchable> implements HitSink<D> {
  private readonly keys: number[] = [];

  constructor(private readonly recency: RecencyOrder<D>) {}

  offer(doc: D, matched: number, score2: number): void {
    this.keys.push((PRIMARY_LIMIT - (matched * PRIMARY_SCALE + score2)) * RANK_SCALE + this.recency.rankOf(doc));
  }

  /** Every hit, best first. */
  sorted(): Hit<D>[] {
    const keys = Float64Array.from(this.keys).sort();
    const { docs } = this.recency;
    const hits = new Array<Hit<D>>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const rank = key % RANK_SCALE;
      const primary = PRIMARY_LIMIT - (key - rank) / RANK_SCALE;
      const matched = Math.floor(primary / PRIMARY_SCALE);
      const doc = docs[rank];
      if (doc === undefined) throw new Error(`AllHits: recency rank ${rank} is outside the order of ${docs.length} documents`);
      hits[i] = { doc, matched, score: (primary - matched * PRIMARY_SCALE) / 2 };
    }
    return hits;
  }
}

/**
 * Keeps the `limit` best hits offered to it and counts every hit, so one pass
 * over the matches gives a page and the total. A binary heap with the worst
 * kept hit on top, in parallel typed arrays: offering allocates nothing.
 */
export class TopHits<D extends Searchable> implements HitSink<D> {
  total = 0;
  private size = 0;
  private readonly docs: D[] = [];
  /** matched * 4096 + doubled score: one number orders the first two criteria. */
  private readonly primary: Float64Array;
  private readonly published: Float64Array;
  private readonly ids: Float64Array;

  constructor(readonly limit: number) {
    const capacity = Math.max(0, limit);
    this.primary = new Float64Array(capacity);
    this.published = new Float64Array(capacity);
    this.ids = new Float64Array(capacity);
  }

  /** `score2` is twice the score (see MASK_SCORE2). */
  offer(doc: D, matched: number, score2: number): void {
    this.total += 1;
    if (this.limit <= 0) return;
    const primary = matched * PRIMARY_SCALE + score2;
    if (this.size < this.limit) {
      const i = this.size++;
      this.set(i, doc, primary, doc.publishedAtMs, doc.id);
      this.siftUp(i);
      return;
    }
    // Only a hit that ranks before the worst kept one gets in.
    if (!this.ranksBefore(primary, doc.publishedAtMs, doc.id, 0)) return;
    this.set(0, doc, primary, doc.publishedAtMs, doc.id);
    this.siftDown(0);
  }

  /** Counts `count` more hits without offering them: hits known to rank after every one kept. */
  countOnly(count: number): void {
    this.total += count;
  }

  /** The kept hits, best first. */
  sorted(): Hit<D>[] {
    const hits: Hit<D>[] = [];
    for (let i = 0; i < this.size; i++) {
      const primary = this.primary[i]!;
      hits.push({ doc: this.docs[i]!, matched: Math.floor(primary / PRIMARY_SCALE), score: (primary % PRIMARY_SCALE) / 2 });
    }
    return hits.sort(compareHits);
  }

  private ranksBefore(primary: number, published: number, id: number, j: number): boolean {
    const p = this.primary[j]!;
    if (primary !== p) return primary > p;
    const q = this.published[j]!;
    if (published !== q) return published > q;
    return id > this.ids[j]!;
  }

  private set(i: number, doc: D, primary: number, published: number, id: number): void {
    this.docs[i] = doc;
    this.primary[i] = primary;
    this.published[i] = published;
    this.ids[i] = id;
  }

  /** True when the entry at i ranks after the one at j (it belongs nearer the top). */
  private worse(i: number, j: number): boolean {
    return this.ranksBefore(this.primary[j]!, this.published[j]!, this.ids[j]!, i);
  }

  private siftUp(index: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worse(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(index: number): void {
    const n = this.size;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < n && this.worse(left, worst)) worst = left;
      if (right < n && this.worse(right, worst)) worst = right;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }

  private swap(i: number, j: number): void {
    const doc = this.docs[i]!;
    this.docs[i] = this.docs[j]!;
    this.docs[j] = doc;
    for (const array of [this.primary, this.published, this.ids]) {
      const value = array[i]!;
      array[i] = array[j]!;
      array[j] = value;
    }
  }
}

export class SearchIndex<D extends Searchable> {
  /** term -> its postings: slot << 5 | field mask, one per (term, document). */
  private readonly postings = new Map<string, Postings>();
  /** Packed postings: range i is packed[packedOffsets[i]] .. packed[packedOffsets[i + 1] - 1]. */
  private packed: Int32Array = new Int32Array(0);
  private packedOffsets: Uint32Array = new Uint32Array(1);
  /** Postings held in growable lists (8 bytes or more each, against 4 packed). */
  private loose = 0;
  private sortedTerms: string[] = [];
  private termsSorted = true;
  private readonly docs: (D | undefined)[] = [];
  private readonly slotOf = new Map<number, number>();
  private dead = 0;
  // Per-query scratch, indexed by slot: queries run synchronously, so one set per index is enough.
  private termBest = new Uint8Array(0);
  private scores = new Uint16Array(0);
  private matchedBits = new Uint16Array(0);
  private touched = new Int32Array(0);
  private termTouched = new Int32Array(0);

  private changes = 0;

  get size(): number {
    return this.slotOf.size;
  }

  /** Changes with every upsert and removal: what a cached answer of this index was computed at. */
  get version(): number {
    return this.changes;
  }

  /** The live documents. */
  documents(): D[] {
    return this.docs.filter((doc): doc is D => doc !== undefined);
  }

  /** The live document with this id. */
  get(id: number): D | undefined {
    const slot = this.slotOf.get(id);
    return slot === undefined ? undefined : this.docs[slot];
  }

  /** Adds a document, or replaces the one with the same id; its terms are read from `text` (the document by default). */
  upsert(doc: D, text: Searchable = doc): void {
    this.changes += 1;
    this.markDead(doc.id);
    const slot = this.docs.length;
    this.docs.push(doc);
    this.slotOf.set(doc.id, slot);
    for (const [term, mask] of fieldTerms(text)) {
      const postings = this.postings.get(term);
      let list: number[];
      if (postings === undefined) {
        list = [];
        this.postings.set(term, list);
        this.termsSorted = false;
      } else if (typeof postings === 'number') {
        // A packed range is fixed: the term gets a growable copy on its first update.
        list = Array.from(this.packed.subarray(this.packedOffsets[postings]!, this.packedOffsets[postings + 1]!));
        this.postings.set(term, list);
        this.loose += list.length;
      } else {
        list = postings;
      }
      list.push((slot << FIELD_BITS) | mask);
      this.loose += 1;
    }
    this.compactIfWorthIt();
  }

  remove(id: number): void {
    this.changes += 1;
    this.markDead(id);
    this.compactIfWorthIt();
  }

  /**
   * Does the work the first query after a change would do (sorting new terms),
   * e.g. right after a load or a catch-up; packs the index when growable lists
   * hold many postings (a full load, or many issues added since: see
   * LOOSE_POSTINGS_TO_PACK).
   */
  prepare(): void {
    if (this.loose > LOOSE_POSTINGS_TO_PACK && this.loose * 4 > this.packed.length) this.pack();
    this.sorted();
    this.ensureScratch();
  }

  /**
   * Offers every live document matching at least one term to `sink`, with
   * the number of terms it matched and twice its score; documents `accept`
   * refuses are skipped. The last term also matches as a prefix when `prefixLast`.
   */
  search(terms: readonly string[], options: { prefixLast: boolean; accept?: (doc: D) => boolean }, sink: HitSink<D>): void {
    if (terms.length === 0 || this.slotOf.size === 0) return;
    this.ensureScratch();
    const { termBest, scores, matchedBits, touched, termTouched, docs } = this;
    let touchedCount = 0;
    const count = Math.min(terms.length, MAX_TERMS);

    for (let t = 0; t < count; t++) {
      const term = terms[t]!;
      let termCount = 0;
      // Exact matches score full weight (shift 0), prefix matches half (shift 1).
      const lists: [Postings, number][] = [];
      const exact = this.postings.get(term);
      if (exact !== undefined) lists.push([exact, 0]);
      if (t === count - 1 && options.prefixLast) {
        const sorted = this.sorted();
        for (let i = lowerBound(sorted, term); i < sorted.length; i++) {
          const candidate = sorted[i]!;
          if (!candidate.startsWith(term)) break;
          if (candidate !== term) lists.push([this.postings.get(candidate)!, 1]);
        }
      }
      for (const [postings, shift] of lists) {
        const [list, start, end] = this.range(postings);
        for (let k = start; k < end; k++) {
          const packed = list[k]!;
          const slot = packed >>> FIELD_BITS;
          const weight = MASK_SCORE2[packed & FIELD_MASK]! >>> shift;
          const best = termBest[slot]!;
          if (best === 0) termTouched[termCount++] = slot;
          if (weight > best) termBest[slot] = weight;
        }
      }
      const bit = 1 << t;
      for (let k = 0; k < termCount; k++) {
        const slot = termTouched[k]!;
        if (matchedBits[slot] === 0) touched[touchedCount++] = slot;
        matchedBits[slot]! |= bit;
        scores[slot]! += termBest[slot]!;
        termBest[slot] = 0;
      }
    }

    const accept = options.accept;
    for (let k = 0; k < touchedCount; k++) {
      const slot = touched[k]!;
      const doc = docs[slot];
      const bits = matchedBits[slot]!;
      const score2 = scores[slot]!;
      matchedBits[slot] = 0;
      scores[slot] = 0;
      if (doc !== undefined && (accept === undefined || accept(doc))) sink.offer(doc, popCount(bits), score2);
    }
  }

  /**
   * The live documents in slot order and their postings as flat arrays, dead
   * slots dropped (slots renumbered): what restore() needs to answer every
   * query exactly as this index does.
   */
  snapshot(): { docs: D[]; index: IndexSnapshot } {
    const newSlot = new Int32Array(this.docs.length).fill(-1);
    const docs: D[] = [];
    this.docs.forEach((doc, slot) => {
      if (doc !== undefined) newSlot[slot] = docs.push(doc) - 1;
    });
    const sourceTerms = this.sorted();
    let capacity = 0;
    for (const term of sourceTerms) {
      const [, start, end] = this.range(this.postings.get(term)!);
      capacity += end - start;
    }
    const postings = new Int32Array(capacity);
    const terms: string[] = [];
    const offsets: number[] = [0];
    let written = 0;
    for (const term of sourceTerms) {
      const [list, from, to] = this.range(this.postings.get(term)!);
      const start = written;
      for (let k = from; k < to; k++) {
        const packed = list[k]!;
        const slot = newSlot[packed >>> FIELD_BITS]!;
        if (slot >= 0) postings[written++] = (slot << FIELD_BITS) | (packed & FIELD_MASK);
      }
      // A term whose documents are all gone matches nothing: leave it out.
      if (written > start) {
        terms.push(term);
        offsets.push(written);
      }
    }
    return { docs, index: { terms, offsets: Uint32Array.from(offsets), postings: written === capacity ? postings : postings.slice(0, written) } };
  }

  /** Drops dead slots and packs every posting list (what snapshot() and restore() give, in place). */
  pack(): void {
    this.changes += 1;
    const { docs, index } = this.snapshot();
    this.adopt(docs, index);
  }

  /** An index answering exactly as the one snapshot() was taken from; `docs` are its documents in slot order. */
  static restore<D extends Searchable>(docs: D[], snapshot: IndexSnapshot): SearchIndex<D> {
    const index = new SearchIndex<D>();
    index.adopt(docs, snapshot);
    return index;
  }

  stats(): { documents: number; deadSlots: number; terms: number; postings: number; loosePostings: number } {
    let postings = 0;
    for (const list of this.postings.values()) {
      const [, start, end] = this.range(list);
      postings += end - start;
    }
    return { documents: this.slotOf.size, deadSlots: this.dead, terms: this.postings.size, postings, loosePostings: this.loose };
  }

  private adopt(docs: D[], snapshot: IndexSnapshot): void {
    const { terms, offsets, postings } = snapshot;
    if (offsets.length !== terms.length + 1 || offsets[terms.length] !== postings.length)
      throw new Error('index snapshot: offsets do not match terms and postings');
    this.postings.clear();
    for (let i = 0; i < terms.length; i++) this.postings.set(terms[i]!, i);
    this.packed = postings;
    this.packedOffsets = offsets;
    this.loose = 0;
    this.docs.length = 0;
    this.slotOf.clear();
    for (const [slot, doc] of docs.entries()) {
      this.docs.push(doc);
      this.slotOf.set(doc.id, slot);
    }
    this.dead = 0;
    this.sortedTerms = terms;
    this.termsSorted = true;
  }

  /** A term's postings as (list, start, end): its range of the packed arrays, or its own list. */
  private range(postings: Postings): [ArrayLike<number>, number, number] {
    if (typeof postings === 'number') return [this.packed, this.packedOffsets[postings]!, this.packedOffsets[postings + 1]!];
    return [postings, 0, postings.length];
  }

  private markDead(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.docs[slot] = undefined;
    this.slotOf.delete(id);
    this.dead += 1;
  }

  /** Packs without the dead slots once a quarter of the slots are dead (and there are enough to matter). */
  private compactIfWorthIt(): void {
    if (this.dead < 1_000 || this.dead < this.docs.length / 4) return;
    this.pack();
  }

  private sorted(): string[] {
    if (!this.termsSorted) {
      this.sortedTerms = [...this.postings.keys()].sort();
      this.termsSorted = true;
    }
    return this.sortedTerms;
  }

  private ensureScratch(): void {
    const n = this.docs.length;
    if (this.scores.length >= n) return;
    const size = Math.max(n + (n >> 2), 64);
    this.termBest = new Uint8Array(size);
    this.scores = new Uint16Array(size);
    this.matchedBits = new Uint16Array(size);
    this.touched = new Int32Array(size);
    this.termTouched = new Int32Array(size);
  }
}

/** Every distinct term of a document with the fields it occurs in. */
function fieldTerms(doc: Searchable): Map<string, number> {
  const terms = new Map<string, number>();
  const add = (text: string, bit: number) => {
    for (const term of indexTerms(text)) terms.set(term, (terms.get(term) ?? 0) | bit);
  };
  add(doc.name, FIELD.title);
  add(doc.author, FIELD.author);
  add(doc.publisher, FIELD.publisher);
  for (const keyword of doc.keywords) add(keyword, FIELD.keyword);
  add(doc.description, FIELD.description);
  return terms;
}

/** First index whose term is >= `term` (same order as Array.prototype.sort on strings). */
function lowerBound(sorted: readonly string[], term: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < term) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function popCount(bits: number): number {
  let n = bits - ((bits >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
