// The bytes of a catalog snapshot: the whole in-memory view (issues,
// collections, each tenant's inverted index) and the sync's high-water mark,
// so that a replica can start from it instead of reading and tokenizing every
// issue (see snapshot.ts for when snapshots are written and read).
//
// Layout: gzip(v8.serialize(payload)). The payload is columnar: one array per
// issue field, numbers in typed arrays, and the low-cardinality strings (type,
// lang, author, publisher, bisac, tags, collection slugs) as indexes into one
// string table, so that decoding allocates each such string once and every
// record shares it. v8's (de)serializer handles typed arrays and string arrays
// far faster than one object per issue, whose keys it would write every time.
//
// A snapshot is only valid for the code that wrote it: FORMAT names the
// layout (bump it when IssueRecord, CollectionRecord or this payload changes)
// and the fingerprint covers the rules that turn text into terms (they live
// partly in @folio/text), so an index built under other rules is never adopted.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { gunzip, gzip } from 'node:zlib';
import type { CollectionRecord, IssueRecord, TenantSnapshot } from './catalog-view.js';
import { FIELD_WEIGHTS, type IndexSnapshot } from './search-index.js';
import { SharedValues } from './shared-values.js';
import { indexTerms } from './text.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export const SNAPSHOT_FORMAT = 1;

/** Text that exercises every folding rule: a change of any of them changes the fingerprint. */
const FOLDING_PROBE = "Crónicas STRASSE Straße ½ ﬁn Keeper's caffè Dvořák Conceição ǅemal Ⅻ 1.28.0 e-mail Zoë ÅNGSTRÖM İstanbul";

/** Identifies the layout and the indexing rules a snapshot was built with. */
export const SNAPSHOT_FINGERPRINT = createHash('sha256')
  .update(JSON.stringify({ format: SNAPSHOT_FORMAT, terms: indexTerms(FOLDING_PROBE), weights: FIELD_WEIGHTS }))
  .digest('hex')
  .slice(0, 16);

export interface ViewSnapshot {
  /** The sync's high-water mark when the view was captured: the catch-up after a restore starts there. */
  watermark: Date;
  tenants: TenantSnapshot[];
  collections: CollectionRecord[];
}

/** A list of string lists as offsets into one flat list of string-table indexes. */
interface StringLists {
  offsets: Uint32Array;
  values: Uint32Array;
}

interface TenantColumns {
  tenantId: number;
  ids: Float64Array;
  publishedAtMs: Float64Array;
  updatedAtMs: Float64Array;
  /** NaN: no page count (audiobooks). */
  numberOfPages: Float64Array;
  name: string[];
  slug: string[];
  description: string[];
  externalId: string[];
  coverUrl: (string | null)[];
  type: Uint32Array;
  lang: Uint32Array;
  author: Uint32Array;
  publisher: Uint32Array;
  bisac: Uint32Array;
  tagAuthors: StringLists;
  tagKeywords: StringLists;
  tagEditions: StringLists;
  collections: StringLists;
  index: IndexSnapshot;
}

interface Payload {
  format: number;
  fingerprint: string;
  watermarkMs: number;
  strings: string[];
  tenants: TenantColumns[];
  collections: CollectionRecord[];
}

/** Thrown for bytes that are not a snapshot this code can adopt; the caller falls back to a full load. */
export class UnusableSnapshotError extends Error {}

/** Captures the view synchronously (the caller's state at this instant), then compresses off the main thread. */
export function encodeSnapshot(snapshot: ViewSnapshot): Promise<Buffer> {
  const table = new StringTable();
  const payload: Payload = {
    format: SNAPSHOT_FORMAT,
    fingerprint: SNAPSHOT_FINGERPRINT,
    watermarkMs: snapshot.watermark.getTime(),
    strings: table.strings,
    tenants: snapshot.tenants.map((tenant) => toColumns(tenant, table)),
    collections: snapshot.collections.map((collection) => ({ ...collection, title: { ...collection.title } })),
  };
  return gzipAsync(serialize(payload), { level: 1 });
}

export async function decodeSnapshot(bytes: Buffer): Promise<ViewSnapshot> {
  let payload: Payload;
  try {
    payload = deserialize(await gunzipAsync(bytes)) as Payload;
  } catch (error) {
    throw new UnusableSnapshotError(`snapshot bytes do not decode: ${(error as Error).message}`);
  }
  if (payload?.format !== SNAPSHOT_FORMAT || payload.fingerprint !== SNAPSHOT_FINGERPRINT) {
    throw new UnusableSnapshotError(
      `snapshot format ${String(payload?.format)}/${String(payload?.fingerprint)} is not ${SNAPSHOT_FORMAT}/${SNAPSHOT_FINGERPRINT}`,
    );
  }
  // One pool for every tenant: a list that recurs across tenants is one array too.
  const shared = new SharedValues();
  try {
    return {
      watermark: new Date(payload.watermarkMs),
      tenants: payload.tenants.map((columns) => fromColumns(columns, payload.strings, shared)),
      collections: payload.collections,
    };
  } catch (error) {
    throw new UnusableSnapshotError(`snapshot content is malformed: ${(error as Error).message}`);
  }
}

class StringTable {
  readonly strings: string[] = [];
  private readonly indexes = new Map<string, number>();

  ref(value: string): number {
    let index = this.indexes.get(value);
    if (index === undefined) {
      index = this.strings.push(value) - 1;
      this.indexes.set(value, index);
    }
    return index;
  }

  refs(values: readonly string[]): Uint32Array {
    return Uint32Array.from(values, (value) => this.ref(value));
  }

  lists(lists: readonly (readonly string[])[]): StringLists {
    const offsets = new Uint32Array(lists.length + 1);
    const values: number[] = [];
    lists.forEach((list, i) => {
      for (const value of list) values.push(this.ref(value));
      offsets[i + 1] = values.length;
    });
    return { offsets, values: Uint32Array.from(values) };
  }
}

function toColumns(tenant: TenantSnapshot, table: StringTable): TenantColumns {
  const issues = tenant.issues;
  const column = <T>(pick: (issue: IssueRecord) => T) => issues.map(pick);
  return {
    tenantId: tenant.tenantId,
    ids: Float64Array.from(issues, (issue) => issue.id),
    publishedAtMs: Float64Array.from(issues, (issue) => issue.publishedAtMs),
    updatedAtMs: Float64Array.from(issues, (issue) => issue.updatedAtMs),
    numberOfPages: Float64Array.from(issues, (issue) => issue.numberOfPages ?? Number.NaN),
    name: column((issue) => issue.name),
    slug: column((issue) => issue.slug),
    description: column((issue) => issue.description),
    externalId: column((issue) => issue.externalId),
    coverUrl: column((issue) => issue.coverUrl),
    type: table.refs(column((issue) => issue.type)),
    lang: table.refs(column((issue) => issue.lang)),
    author: table.refs(column((issue) => issue.author)),
    publisher: table.refs(column((issue) => issue.publisher)),
    bisac: table.refs(column((issue) => issue.bisac)),
    tagAuthors: table.lists(column((issue) => issue.tags.author)),
    tagKeywords: table.lists(column((issue) => issue.tags.keyword)),
    tagEditions: table.lists(column((issue) => issue.tags.edition)),
    collections: table.lists(column((issue) => issue.collections)),
    index: tenant.index,
  };
}

function fromColumns(columns: TenantColumns, strings: readonly string[], shared: SharedValues): TenantSnapshot {
  const count = columns.ids.length;
  const text = (refs: Uint32Array, i: number) => {
    const value = strings[refs[i]!];
    if (value === undefined) throw new Error('string reference out of range');
    return value;
  };
  const scratch: string[] = [];
  const list = (lists: StringLists, i: number) => {
    scratch.length = 0;
    for (let k = lists.offsets[i]!, end = lists.offsets[i + 1]!; k < end; k++) scratch.push(text(lists.values, k));
    return shared.list(scratch);
  };
  const issues: IssueRecord[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const pages = columns.numberOfPages[i]!;
    const tags = { author: list(columns.tagAuthors, i), keyword: list(columns.tagKeywords, i), edition: list(columns.tagEditions, i) };
    // Same fields in the same order as toIssueRecord (catalog-sync.ts): one object shape for every record.
    issues[i] = {
      id: columns.ids[i]!,
      tenantId: columns.tenantId,
      name: columns.name[i]!,
      slug: columns.slug[i]!,
      type: text(columns.type, i),
      description: columns.description[i]!,
      externalId: columns.externalId[i]!,
      numberOfPages: Number.isNaN(pages) ? null : pages,
      lang: text(columns.lang, i),
      author: text(columns.author, i),
      publisher: text(columns.publisher, i),
      bisac: text(columns.bisac, i),
      publishedAtMs: columns.publishedAtMs[i]!,
      tags,
      keywords: tags.keyword,
      collections: list(columns.collections, i),
      coverUrl: columns.coverUrl[i] ?? null,
      updatedAtMs: columns.updatedAtMs[i]!,
    };
  }
  return { tenantId: columns.tenantId, issues, index: columns.index };
}
