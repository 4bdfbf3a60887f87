// The bytes of a catalog snapshot: the whole in-memory view (issues,
// collections, each tenant's inverted index) and the sync's high-water mark,
// so that a replica can start from it instead of reading and tokenizing every
// issue (see snapshot.ts for when snapshots are written and read).
//
// Layout: gzip(v8.serialize(payload)). The payload is columnar: one array per
// key field of the issues, numbers in typed arrays, types and collection slugs
// as indexes into one string table (so that decoding allocates each once and
// every record shares it), and the issues' details as the bytes their store
// keeps (issue-details.ts), which a restore hands to the new store in one
// write. v8's (de)serializer handles typed arrays and string arrays far
// faster than one object per issue, whose keys it would write every time.
//
// A snapshot is only valid for the code that wrote it: FORMAT names the
// layout (bump it when IssueRecord, CollectionRecord or this payload changes)
// and the fingerprint covers the rules that turn text into terms (they live
// partly in @folio/text), so an index built under other rules is never adopted.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { gunzipSync, gzip } from 'node:zlib';
import type { CollectionRecord, TenantSnapshot } from './catalog-view.js';
import type { IssueKeyFields } from './issue-details.js';
import { FIELD_WEIGHTS, type IndexSnapshot } from './search-index.js';
import { ValuePool } from './value-pool.js';
import { indexTerms } from './text.js';

const gzipAsync = promisify(gzip);

export const SNAPSHOT_FORMAT = 3;

/** Text that exercises every folding and word rule: a change of any of them changes the fingerprint. */
const FOLDING_PROBE =
  "Crónicas STRASSE Straße ½ ﬁn Keeper's 'l'atlas' caffè Dvořák Conceição ǅemal Ⅻ 1.28.0 e-mail Zoë ÅNGSTRÖM İstanbul 日本の首都です 北京是中国的首都 ภาษาไทย";

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
  type: Uint32Array;
  /** 1: listed (published), 0: withdrawn (held for those who have it, listed nowhere). */
  listed: Uint8Array;
  collections: StringLists;
  /** Each issue's details, encoded (issue-details.ts), in issue order. */
  detailBytes: Buffer;
  detailLengths: Uint32Array;
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
  const serialized = serialize(payload);
  // The compressed bytes are smaller than the serialized ones: one output chunk (see ONE_CHUNK_MIN).
  return gzipAsync(serialized, { level: 1, chunkSize: Math.max(ONE_CHUNK_MIN, serialized.length) });
}

/** Decompresses on the calling thread: it runs once, at start, before the service takes calls. */
export async function decodeSnapshot(bytes: Buffer): Promise<ViewSnapshot> {
  let payload: Payload;
  try {
    payload = deserialize(gunzipWhole(bytes)) as Payload;
  } catch (error) {
    throw new UnusableSnapshotError(`snapshot bytes do not decode: ${(error as Error).message}`);
  }
  if (payload?.format !== SNAPSHOT_FORMAT || payload.fingerprint !== SNAPSHOT_FINGERPRINT) {
    throw new UnusableSnapshotError(
      `snapshot format ${String(payload?.format)}/${String(payload?.fingerprint)} is not ${SNAPSHOT_FORMAT}/${SNAPSHOT_FINGERPRINT}`,
    );
  }
  // One pool for every tenant: a list that recurs across tenants is one array too.
  const shared = new ValuePool();
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

/**
 * zlib's output chunk size for a snapshot: one chunk larger than glibc's
 * largest dynamic mmap threshold (32 MiB on 64-bit), so that it is always
 * mmap()ed and goes back to the system when freed. With zlib's default 16 KiB
 * chunks, a large payload left its freed chunks in the malloc heap, pinned
 * there by the typed arrays the decoder allocated after them: RSS that never
 * came back after a restore.
 * Pages of the chunk that are never written cost nothing.
 */
const ONE_CHUNK_MIN = 33 * 1024 * 1024;

/** The gzip trailer's ISIZE: the uncompressed length modulo 2^32 (exact below 4 GiB). */
function gunzipWhole(bytes: Buffer): Buffer {
  const size = bytes.length >= 4 ? bytes.readUInt32LE(bytes.length - 4) : 0;
  return gunzipSync(bytes, { chunkSize: Math.max(ONE_CHUNK_MIN, size + 1) });
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
  return {
    tenantId: tenant.tenantId,
    ids: Float64Array.from(issues, (issue) => issue.id),
    publishedAtMs: Float64Array.from(issues, (issue) => issue.publishedAtMs),
    updatedAtMs: Float64Array.from(issues, (issue) => issue.updatedAtMs),
    type: table.refs(issues.map((issue) => issue.type)),
    listed: Uint8Array.from(issues, (issue) => (issue.listed ? 1 : 0)),
    collections: table.lists(issues.map((issue) => issue.collections)),
    detailBytes: tenant.details.bytes,
    detailLengths: tenant.details.lengths,
    index: tenant.index,
  };
}

/** A number read from a Float64Array as a small integer when it is one: V8 then stores it in the record, unboxed. */
function smallInteger(value: number): number {
  return (value | 0) === value ? value | 0 : value;
}

function fromColumns(columns: TenantColumns, strings: readonly string[], shared: ValuePool): TenantSnapshot {
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
  if (columns.detailLengths.length !== count) throw new Error('details do not match issues');
  if (columns.listed.length !== count) throw new Error('listed flags do not match issues');
  const issues: IssueKeyFields[] = new Array(count);
  for (let i = 0; i < count; i++) {
    issues[i] = {
      id: smallInteger(columns.ids[i]!),
      tenantId: columns.tenantId,
      type: text(columns.type, i),
      publishedAtMs: columns.publishedAtMs[i]!,
      updatedAtMs: columns.updatedAtMs[i]!,
      listed: columns.listed[i] === 1,
      collections: list(columns.collections, i),
    };
  }
  const details = {
    bytes: Buffer.from(columns.detailBytes.buffer, columns.detailBytes.byteOffset, columns.detailBytes.byteLength),
    lengths: columns.detailLengths,
  };
  // v8.deserialize() makes aligned typed arrays views of the whole payload: copies keep only what the index needs.
  const { terms, offsets, postings } = columns.index;
  return { tenantId: columns.tenantId, issues, details, index: { terms, offsets: offsets.slice(), postings: postings.slice() } };
}
