// An issue in the view is split in two. What listings filter, sort and page
// by (id, tenant, type, date, shelves) stays an object in memory; the rest
// (titles, descriptions, authors, tags...) is only read to present a page or
// an issue, or to index its text, so it is kept encoded in an
// IssueDetailsStore and decoded when a field is read.
//
// Why: at 100,000 issues the details were three quarters of the view's heap
// (a string, an array or an object each, with their headers), and a catalog
// replica stayed above 200 MB RSS. The store (data/issue-details-file.ts)
// keeps them in an unlinked file read by offset, so they live in the page
// cache, which the kernel can reclaim, not in the process. A listing page
// decodes its issues once each: a read of ~300 bytes and a JSON.parse, a few
// microseconds.
import type { IssueRecord, IssueTags } from './catalog-view.js';
import type { StoredAccessibility } from './repositories.js';

/** The fields of an issue that are only read to present it or to index its text. */
export type IssueDetails = Pick<
  IssueRecord,
  'name' | 'slug' | 'description' | 'externalId' | 'numberOfPages' | 'lang' | 'author' | 'publisher' | 'bisac' | 'tags' | 'coverUrl' | 'accessibility'
>;

/** Details in their stored form: UTF-8 positional JSON, concatenated, with the byte length of each. */
export interface EncodedDetails {
  bytes: Buffer;
  lengths: Uint32Array;
}

/** Immutable stored bytes: a record keeps reading its details there even after the store moved on. */
export interface DetailsSegment {
  read(at: number, length: number): IssueDetails;
}

export interface DetailsLocation {
  segment: DetailsSegment;
  at: number;
  length: number;
}

/**
 * Where one tenant's view keeps the details of its issues. Stored bytes never
 * change: a replaced issue's details stay readable for whoever still holds
 * the old record (a request across an await), and compact() copies the live
 * ones elsewhere and relocates their records.
 */
export interface IssueDetailsStore {
  append(details: IssueDetails): DetailsLocation;
  /** Stores encoded details (a snapshot's); their locations, in order. */
  appendEncoded(encoded: EncodedDetails): DetailsLocation[];
  /** The details of `records`, in order, encoded: what a snapshot stores. */
  encode(records: readonly ViewIssue[]): EncodedDetails;
  /** `length` bytes are no longer read by the view (their issue was replaced or removed). */
  released(length: number): void;
  /** True when released bytes outweigh the live ones enough to be worth a compact(). */
  readonly wantsCompaction: boolean;
  /** Copies the details of `live` (every record the view holds) to fresh storage and relocates them. */
  compact(live: Iterable<ViewIssue>): void;
  /** Finishes a batch of appends (they may be buffered until then). */
  flush(): void;
}

/** Positional JSON: the field names would double the size of most issues. */
export function encodeDetails(details: IssueDetails): string {
  return JSON.stringify([
    details.name,
    details.slug,
    details.description,
    details.externalId,
    details.numberOfPages,
    details.lang,
    details.author,
    details.publisher,
    details.bisac,
    details.tags.author,
    details.tags.keyword,
    details.tags.edition,
    details.coverUrl,
    details.accessibility ? encodeAccessibility(details.accessibility) : null,
  ]);
}

type EncodedAccessibility = [string[], string[], string[], string[], string[], string | null, string | null];

function encodeAccessibility(a11y: StoredAccessibility): EncodedAccessibility {
  return [a11y.conforms_to, a11y.access_modes, a11y.access_modes_sufficient, a11y.features, a11y.hazards, a11y.summary, a11y.certified_by];
}

function decodeAccessibility(encoded: EncodedAccessibility | null | undefined): StoredAccessibility | null {
  if (!encoded) return null;
  const [conforms_to, access_modes, access_modes_sufficient, features, hazards, summary, certified_by] = encoded;
  return { conforms_to, access_modes, access_modes_sufficient, features, hazards, summary, certified_by };
}

export function decodeDetails(encoded: string): IssueDetails {
  const [name, slug, description, externalId, numberOfPages, lang, author, publisher, bisac, tagAuthors, keywords, editions, coverUrl, a11y] = JSON.parse(
    encoded,
  ) as [
    string,
    string,
    string,
    string,
    number | null,
    string,
    string,
    string,
    string,
    string[],
    string[],
    string[],
    string | null,
    EncodedAccessibility | null,
  ];
  const tags: IssueTags = { author: tagAuthors, keyword: keywords, edition: editions };
  return { name, slug, description, externalId, numberOfPages, lang, author, publisher, bisac, tags, coverUrl, accessibility: decodeAccessibility(a11y) };
}

/** The in-memory fields of an issue record. */
export type IssueKeyFields = Pick<IssueRecord, 'id' | 'tenantId' | 'type' | 'publishedAtMs' | 'updatedAtMs' | 'collections' | 'listed'>;

/**
 * An issue as the view holds it: the key fields as properties, every other
 * field decoded from its stored details when read. Immutable like every record
 * of the view (relocate() moves where the same details are read from).
 */
export class ViewIssue implements IssueRecord {
  readonly id: number;
  readonly tenantId: number;
  readonly type: string;
  readonly publishedAtMs: number;
  readonly updatedAtMs: number;
  readonly collections: readonly string[];
  readonly listed: boolean;

  private segment: DetailsSegment;
  private at: number;
  /** Bytes of the stored details. */
  readonly detailsLength: number;
  /**
   * The issue's place in its tenant's latest() (0: the newest), set each time
   * that order is made; -1 before. A search sorts its hits by it
   * (TenantCatalog.recencyOrder).
   */
  recencyRank = -1;

  constructor(key: IssueKeyFields, location: DetailsLocation) {
    this.id = key.id;
    this.tenantId = key.tenantId;
    this.type = key.type;
    this.publishedAtMs = key.publishedAtMs;
    this.updatedAtMs = key.updatedAtMs;
    this.collections = key.collections;
    this.listed = key.listed;
    this.segment = location.segment;
    this.at = location.at;
    this.detailsLength = location.length;
  }

  get location(): DetailsLocation {
    return { segment: this.segment, at: this.at, length: this.detailsLength };
  }

  /** Called by the store's compact() only: the same bytes, elsewhere. */
  relocate(segment: DetailsSegment, at: number): void {
    this.segment = segment;
    this.at = at;
  }

  get details(): IssueDetails {
    return this.segment.read(this.at, this.detailsLength);
  }

  get name(): string {
    return this.details.name;
  }

  get slug(): string {
    return this.details.slug;
  }

  get description(): string {
    return this.details.description;
  }

  get externalId(): string {
    return this.details.externalId;
  }

  get numberOfPages(): number | null {
    return this.details.numberOfPages;
  }

  get lang(): string {
    return this.details.lang;
  }

  get author(): string {
    return this.details.author;
  }

  get publisher(): string {
    return this.details.publisher;
  }

  get bisac(): string {
    return this.details.bisac;
  }

  get tags(): IssueTags {
    return this.details.tags;
  }

  get keywords(): readonly string[] {
    return this.details.tags.keyword;
  }

  get coverUrl(): string | null {
    return this.details.coverUrl;
  }

  get accessibility(): StoredAccessibility | null {
    return this.details.accessibility;
  }
}
