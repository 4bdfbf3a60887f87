// The per-issue inverted index behind in-issue text search.
//
// An issue's text is cut into sections (a PDF page's paragraphs, an EPUB
// chapter's block elements). The index maps each term to its postings
// (section, token position), built once at ingest and stored as one gzip'd
// JSON object; the service keeps recently used indexes in memory.
//
// Ranking: BM25 (k1 = 1.2, b = 0.75) per query term over sections, the last
// query term also matching as a prefix (`ligh` finds "lighthouse"), times a
// coordination factor (share of query terms present), plus a proximity bonus
// that grows as the matched terms stand closer together (the smallest window
// holding one occurrence of each). Matching is diacritic- and case-insensitive.
import { gunzipSync, gzipSync } from 'node:zlib';
import { queryTokens, tokenize, type Token } from './text.js';

export interface TextSegment {
  /** 1-based: the PDF page or the EPUB spine position. */
  page: number;
  /** 1-based paragraph within the page. */
  section: number;
  text: string;
  /** Where the section starts in the page's text (its sections joined by a blank line). */
  pageOffset: number;
  /**
   * EPUB only: the content document's step in the package (`/6/4[idref]`) and the
   * text nodes of the section: `at` = offset in `text`, `path` = CFI steps from the
   * document's root element to the text node, `base` = offset of the node within its
   * CFI text chunk (non-zero only when a chunk is split, e.g. by a comment).
   */
  cfi?: { doc: string; runs: { at: number; path: number[]; base: number }[] };
}

const K1 = 1.2;
const B = 0.75;
const PROXIMITY_WEIGHT = 0.6;
const PREFIX_WEIGHT = 0.85;
const MAX_PREFIX_EXPANSIONS = 64;
const MAX_QUERY_TERMS = 16;
/** 2: words split by @folio/text (apostrophes, dictionary scripts). An index of an older format is rebuilt from its sections. */
const FORMAT_VERSION = 2;

export interface IndexHit {
  segment: TextSegment;
  score: number;
  /** The best span of matched words in the section, offsets in `segment.text`. */
  matchStart: number;
  matchEnd: number;
  /** Offsets of every matched word around the span, for marking. */
  marks: { start: number; end: number }[];
}

export interface SearchOptions {
  limit?: number;
  /** Only sections on pages (PDF) or chapters (EPUB) up to this one: preview sessions. */
  maxPage?: number;
}

interface Serialized {
  v: number;
  segments: TextSegment[];
  lengths: number[];
  /** term -> [section, position, section, position, ...], sections ascending. */
  postings: Record<string, number[]>;
}

export class TextIndex {
  private readonly vocabulary: string[];
  private readonly avgLength: number;

  private constructor(
    readonly segments: TextSegment[],
    private readonly lengths: Uint32Array,
    private readonly postings: Map<string, Int32Array>,
  ) {
    this.vocabulary = [...postings.keys()].sort();
    let total = 0;
    for (const length of lengths) total += length;
    this.avgLength = segments.length ? Math.max(1, total / segments.length) : 1;
  }

  static build(segments: TextSegment[]): TextIndex {
    const lists = new Map<string, number[]>();
    const lengths = new Uint32Array(segments.length);
    segments.forEach((segment, index) => {
      const tokens = tokenize(segment.text);
      lengths[index] = tokens.length;
      tokens.forEach((token, position) => {
        let list = lists.get(token.term);
        if (!list) lists.set(token.term, (list = []));
        list.push(index, position);
      });
    });
    const postings = new Map<string, Int32Array>();
    for (const [term, list] of lists) postings.set(term, Int32Array.from(list));
    return new TextIndex(segments, lengths, postings);
  }

  serialize(): Buffer {
    const postings: Record<string, number[]> = {};
    for (const [term, list] of this.postings) postings[term] = Array.from(list);
    const body: Serialized = { v: FORMAT_VERSION, segments: this.segments, lengths: Array.from(this.lengths), postings };
    return gzipSync(JSON.stringify(body), { level: 6 });
  }

  static deserialize(data: Buffer): TextIndex {
    const body = JSON.parse(gunzipSync(data).toString('utf8')) as Serialized;
    // Sections are stored whole, so an index cut into terms by older rules is rebuilt under the current ones.
    if (body.v === 1) return TextIndex.build(body.segments);
    if (body.v !== FORMAT_VERSION) throw new Error(`text index format ${body.v} is not supported`);
    const postings = new Map<string, Int32Array>();
    for (const term of Object.keys(body.postings)) postings.set(term, Int32Array.from(body.postings[term]!));
    return new TextIndex(body.segments, Uint32Array.from(body.lengths), postings);
  }

  /** Rough memory footprint, for the cache's size bound. */
  approximateBytes(): number {
    let bytes = 0;
    for (const segment of this.segments) bytes += segment.text.length * 2 + 64 + (segment.cfi ? segment.cfi.runs.length * 48 : 0);
    for (const [term, list] of this.postings) bytes += term.length * 2 + list.byteLength + 48;
    return bytes;
  }

  get termCount(): number {
    return this.postings.size;
  }

  /** Distinct normalized query terms, in query order (the last one is also a prefix). */
  static queryTerms(search: string): string[] {
    const seen = new Set<string>();
    for (const token of queryTokens(search)) seen.add(token.term);
    return [...seen].slice(0, MAX_QUERY_TERMS);
  }

  search(search: string, options: SearchOptions = {}): IndexHit[] {
    const limit = options.limit ?? 50;
    const maxPage = options.maxPage ?? Number.POSITIVE_INFINITY;
    const terms = TextIndex.queryTerms(search);
    if (terms.length === 0 || this.segments.length === 0) return [];
    const n = this.segments.length;

    // Per query term: its expansions (exact, and prefix matches for the last term) with weights.
    const expansions = terms.map((term, index) => {
      const list: { term: string; weight: number }[] = [];
      if (this.postings.has(term)) list.push({ term, weight: 1 });
      if (index === terms.length - 1) {
        for (const other of this.withPrefix(term)) if (other !== term) list.push({ term: other, weight: PREFIX_WEIGHT });
      }
      return list;
    });

    // Section -> per query term: best BM25 contribution and positions.
    const scores = new Map<number, { perTerm: Float64Array; positions: (number[] | undefined)[] }>();
    const idfOf: number[] = new Array(terms.length).fill(0);
    expansions.forEach((list, termIndex) => {
      for (const { term, weight } of list) {
        const postings = this.postings.get(term)!;
        // Document frequency: distinct sections in the postings.
        let df = 0;
        for (let i = 0, last = -1; i < postings.length; i += 2) {
          if (postings[i] !== last) {
            df += 1;
            last = postings[i]!;
          }
        }
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        idfOf[termIndex] = Math.max(idfOf[termIndex]!, idf * weight);
        for (let i = 0; i < postings.length;) {
          const segment = postings[i]!;
          let tf = 0;
          const start = i;
          while (i < postings.length && postings[i] === segment) {
            tf += 1;
            i += 2;
          }
          if (this.segments[segment]!.page > maxPage) continue;
          let entry = scores.get(segment);
          if (!entry) scores.set(segment, (entry = { perTerm: new Float64Array(terms.length), positions: new Array(terms.length) }));
          const length = this.lengths[segment]!;
          const bm25 = weight * idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / this.avgLength)));
          if (bm25 > entry.perTerm[termIndex]!) entry.perTerm[termIndex] = bm25;
          const positions = (entry.positions[termIndex] ??= []);
          for (let j = start; j < i; j += 2) positions.push(postings[j + 1]!);
        }
      }
    });

    const ranked: { segment: number; score: number; window: [number, number] }[] = [];
    for (const [segment, entry] of scores) {
      let base = 0;
      let matched = 0;
      let matchedIdf = 0;
      for (let t = 0; t < terms.length; t++) {
        if (entry.perTerm[t]! > 0) {
          base += entry.perTerm[t]!;
          matched += 1;
          matchedIdf += idfOf[t]!;
        }
      }
      const window = smallestWindow(entry.positions);
      let score = base * (0.5 + (0.5 * matched) / terms.length);
      if (matched > 1) {
        const span = window[1] - window[0] + 1;
        score += (PROXIMITY_WEIGHT * matchedIdf * (matched - 1)) / (matched - 1 + (span - matched));
      }
      ranked.push({ segment, score, window });
    }
    ranked.sort((a, b) => b.score - a.score || a.segment - b.segment);

    const wanted = new Set<string>();
    for (const list of expansions) for (const { term } of list) wanted.add(term);
    return ranked.slice(0, limit).map(({ segment, score, window }) => {
      const tokens = tokenize(this.segments[segment]!.text);
      const first = tokens[window[0]]!;
      const last = tokens[window[1]]!;
      const marks = tokens.filter((token) => wanted.has(token.term)).map(({ start, end }) => ({ start, end }));
      return { segment: this.segments[segment]!, score, matchStart: first.start, matchEnd: last.end, marks };
    });
  }

  /** Vocabulary terms starting with `prefix`, most frequent first, capped. */
  private withPrefix(prefix: string): string[] {
    let low = 0;
    let high = this.vocabulary.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.vocabulary[mid]! < prefix) low = mid + 1;
      else high = mid;
    }
    const found: string[] = [];
    for (let i = low; i < this.vocabulary.length && this.vocabulary[i]!.startsWith(prefix); i++) found.push(this.vocabulary[i]!);
    if (found.length <= MAX_PREFIX_EXPANSIONS) return found;
    return found.sort((a, b) => this.postings.get(b)!.length - this.postings.get(a)!.length).slice(0, MAX_PREFIX_EXPANSIONS);
  }
}

/**
 * The smallest token window holding one position of every term that matched
 * (classic minimum window over the merged, sorted positions).
 */
function smallestWindow(positions: (number[] | undefined)[]): [number, number] {
  const events: [number, number][] = [];
  let distinct = 0;
  positions.forEach((list, term) => {
    if (!list || list.length === 0) return;
    distinct += 1;
    for (const position of list) events.push([position, term]);
  });
  events.sort((a, b) => a[0] - b[0]);
  if (distinct <= 1) return [events[0]![0], events[0]![0]];
  const counts = new Map<number, number>();
  let covered = 0;
  let best: [number, number] = [events[0]![0], events[events.length - 1]![0]];
  for (let right = 0, left = 0; right < events.length; right++) {
    const term = events[right]![1];
    counts.set(term, (counts.get(term) ?? 0) + 1);
    if (counts.get(term) === 1) covered += 1;
    while (covered === distinct) {
      if (events[right]![0] - events[left]![0] < best[1] - best[0]) best = [events[left]![0], events[right]![0]];
      const leftTerm = events[left]![1];
      counts.set(leftTerm, counts.get(leftTerm)! - 1);
      if (counts.get(leftTerm) === 0) covered -= 1;
      left += 1;
    }
  }
  return best;
}

/** Plain text of a section around a hit, with its matched words; offsets in `text`. */
export interface TextExcerpt {
  text: string;
  matches: { start: number; length: number }[];
  /** The section goes on before or after `text`. */
  startsMidSection: boolean;
  endsMidSection: boolean;
}

/**
 * The text around the hit's span: about `context` characters each side, cut
 * at word boundaries, with every matched word inside it (as the section holds
 * it: how whitespace and markup are shown is the client's rendering).
 */
export function excerptOf(hit: IndexHit, context = 80): TextExcerpt {
  const text = hit.segment.text;
  let from = Math.max(0, hit.matchStart - context);
  let to = Math.min(text.length, hit.matchEnd + context);
  if (from > 0) {
    const space = text.indexOf(' ', from);
    if (space !== -1 && space < hit.matchStart) from = space + 1;
  }
  if (to < text.length) {
    const space = text.lastIndexOf(' ', to);
    if (space > hit.matchEnd) to = space;
  }
  const matches = hit.marks.filter((mark) => mark.start >= from && mark.end <= to).map((mark) => ({ start: mark.start - from, length: mark.end - mark.start }));
  return { text: text.slice(from, to), matches, startsMidSection: from > 0, endsMidSection: to < text.length };
}

/**
 * The EPUB CFI of a character range of a section: a range CFI whose parent is
 * the common path, e.g. `epubcfi(/6/4[chap-1]!/4/2/6,/1:120,/1:128)`.
 */
export function cfiOfRange(segment: TextSegment, start: number, end: number): string | null {
  const cfi = segment.cfi;
  if (!cfi || cfi.runs.length === 0) return null;
  // The text node holding the range's first character, and the one holding its last.
  const runFor = (offset: number, exclusive: boolean) => {
    let found = cfi.runs[0]!;
    for (const run of cfi.runs) {
      if (exclusive ? run.at < offset : run.at <= offset) found = run;
      else break;
    }
    return found;
  };
  const first = runFor(start, false);
  const last = runFor(end, true);
  const startOffset = first.base + start - first.at;
  const endOffset = last.base + end - last.at;
  let common = 0;
  while (common < first.path.length - 1 && common < last.path.length - 1 && first.path[common] === last.path[common]) common += 1;
  const steps = (path: number[]) => path.map((step) => `/${step}`).join('');
  return `epubcfi(${cfi.doc}!${steps(first.path.slice(0, common))},${steps(first.path.slice(common))}:${startOffset},${steps(last.path.slice(common))}:${endOffset})`;
}

export function queryWords(search: string): string[] {
  // The query's words as typed (deduplicated by their normalized form).
  const seen = new Set<string>();
  const words: string[] = [];
  for (const { term, start, end } of queryTokens(search)) {
    if (!seen.has(term)) {
      seen.add(term);
      words.push(search.slice(start, end));
    }
  }
  return words.slice(0, MAX_QUERY_TERMS);
}

export type { Token };
