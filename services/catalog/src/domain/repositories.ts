// What the catalog's use cases need from catalog's own database, as plain
// types and repository interfaces (ports.ts is the same for other services).
// data/ implements them with mongoose; nothing here knows how.
//
// Issues and collections keep the field names of the stored documents: the
// view is loaded from them (catalog-sync.ts maps each one to its record once),
// and a second shape in between would only cost a copy per document.
import type { IssueTags } from './catalog-view.js';

/** Where an issue is in its life: a draft is seen by the publisher RPCs only, a withdrawn one by those who have it. */
export type IssueState = 'draft' | 'published' | 'withdrawn';
export const ISSUE_STATES: readonly IssueState[] = ['draft', 'published', 'withdrawn'];

/** What a file declares of its accessibility, in EPUB Accessibility 1.1 / schema.org terms. */
export interface StoredAccessibility {
  conforms_to: string[];
  access_modes: string[];
  /** Each entry a comma-separated set of modes that suffice together (`textual`, `textual,visual`). */
  access_modes_sufficient: string[];
  features: string[];
  hazards: string[];
  summary: string | null;
  certified_by: string | null;
}

/** An issue (publication) as stored. `_id` is the issue id of the API, unique across tenants. */
export interface StoredIssue {
  _id: number;
  tenant_id: number;
  name: string;
  slug: string;
  /** epub | pdf | audio | physical */
  type: string;
  lang: string;
  author: string;
  publisher: string;
  bisac: string;
  external_id: string;
  published_at: Date;
  number_of_pages: number | null;
  description: string;
  tags: IssueTags;
  /** Slugs of the tenant's collections the issue belongs to. */
  collections: string[];
  /** Null: the cover URL template applies. */
  cover_url: string | null;
  /** Absent on issues written before the publisher API (the seed's): they read as published. */
  state?: IssueState;
  /** Every creator in order; `author` is the first. Absent on seeded issues (their `author` alone). */
  authors?: string[];
  /** ISBN-13 digits; null or absent when none. */
  isbn?: string | null;
  /** Set on the first publish; never cleared (a withdrawn issue was published once). */
  first_published_at?: Date | null;
  created_at?: Date | null;
  accessibility?: StoredAccessibility | null;
  /** The file whose content.ingested event was applied last (idempotency of the consumer). */
  content_hash?: string | null;
  /** A tombstone: the issue is gone, kept so that other replicas' catch-up sees the removal. */
  deleted_at: Date | null;
  /** Set on every change; replicas catch up with writes they did not make by this field. */
  updated_at: Date;
}

/** A taxonomy shelf of a tenant as stored; `_id` is `<tenant_id>:<slug>`. */
export interface StoredCollection {
  _id: string;
  tenant_id: number;
  slug: string;
  /** Title by language (en, es, pt, it). */
  title: Record<string, string>;
  /** Order of the shelves in the library. */
  position: number;
  deleted_at: Date | null;
  updated_at: Date;
}

/** What a writer provides; `updated_at` and `deleted_at` are the repository's. */
export type IssueInput = Omit<StoredIssue, 'updated_at' | 'deleted_at'>;

/** A missing state is a seeded issue, which is published. */
export const stateOf = (issue: Pick<StoredIssue, 'state'>): IssueState => issue.state ?? 'published';

/** What a writer provides; the id, `updated_at` and `deleted_at` are the repository's. */
export type CollectionInput = Omit<StoredCollection, '_id' | 'updated_at' | 'deleted_at'>;

export interface UpsertResult<D> {
  inserted: number;
  updated: number;
  unchanged: number;
  /** The documents as written (inserted or updated), for the in-memory index. */
  written: D[];
}

/**
 * Issues. Writes are idempotent upserts that only touch (and only bump
 * `updated_at` of) issues whose content changed.
 */
export interface IssueRepository {
  /** The live issue if it is in the tenant (another tenant's issue is as missing as an unknown one). */
  findInTenant(tenantId: number, issueId: number): Promise<StoredIssue | null>;
  /** Every issue, tombstones included, in batches: the start-up load of the index. */
  all(batchSize?: number): AsyncGenerator<StoredIssue[]>;
  /**
   * Issues written at or after `since` (or, with `after`, strictly after that
   * change), in (updated_at, _id) order; a page may hold more than `limit`.
   */
  changedSince(since: Date, limit: number, after?: { updated_at: Date; _id: number }): Promise<StoredIssue[]>;
  upsertMany(inputs: IssueInput[], now?: Date): Promise<UpsertResult<StoredIssue>>;
}

/**
 * What the publisher API reads and writes besides: issues in every state, and
 * conditional writes (a replace or tombstone applies only to the document as
 * it was read, so two concurrent edits never lose one).
 */
export interface PublisherIssueRepository {
  /** The tenant's issue in any state (a tombstone is gone). */
  findAnyInTenant(tenantId: number, issueId: number): Promise<StoredIssue | null>;
  /** The tenant's issues newest first (by id), of one state or all. */
  listInTenant(tenantId: number, options: { state?: IssueState; skip: number; limit: number }): Promise<{ issues: StoredIssue[]; total: number }>;
  /** A live issue of the tenant other than `exceptId` whose field has this value. */
  findByField(tenantId: number, field: 'slug' | 'external_id', value: string, exceptId?: number): Promise<StoredIssue | null>;
  /** A new issue id, unique across tenants and above every stored one. */
  nextId(): Promise<number>;
  /** Null when the id is taken. */
  insert(input: IssueInput, now?: Date): Promise<StoredIssue | null>;
  /** Null when the issue changed since `expected` (its updated_at when read). */
  replace(input: IssueInput, expected: Date, now?: Date): Promise<StoredIssue | null>;
  /** Null when the issue changed since it was read. */
  tombstone(issue: StoredIssue, now?: Date): Promise<StoredIssue | null>;
}

/** Collections of each tenant; written like issues. */
export interface CollectionRepository {
  all(): Promise<StoredCollection[]>;
  /** Collections written at or after `since`, in (updated_at, _id) order. */
  changedSince(since: Date): Promise<StoredCollection[]>;
  upsertMany(inputs: CollectionInput[], now?: Date): Promise<UpsertResult<StoredCollection>>;
}

/** One favorite: a user's flag on an issue in a tenant. */
export interface FavoriteKey {
  tenant_id: number;
  user_id: number;
  issue_id: number;
}

/** Favorites; each call is one atomic write or read, on FerretDB as on MongoDB. */
export interface FavoriteRepository {
  exists(key: FavoriteKey): Promise<boolean>;
  /** True when this call created the favorite; false when it already existed. */
  add(key: FavoriteKey): Promise<boolean>;
  /** True when this call removed the favorite; false when it was already gone. */
  remove(key: FavoriteKey): Promise<boolean>;
  /** Account erasure: every favorite of the user, in every tenant; returns how many went. */
  deleteAllOf(userId: number): Promise<number>;
}

/** The current snapshot of the view, as the head of the stored snapshots names it. */
export interface SnapshotHead {
  snapshot_id: string;
  format: number;
  fingerprint: string;
  chunks: number;
  bytes: number;
  /** SHA-256 of the whole payload (the chunks concatenated), hex. */
  sha256: string;
  /** The high-water mark of the view it holds: the catch-up after a restore starts there. */
  watermark: Date;
  issues: number;
  created_at: Date;
}

/** Snapshots of the view, shared by every replica (snapshot.ts). */
export interface SnapshotRepository {
  head(): Promise<SnapshotHead | null>;
  /** Null when a chunk is missing. */
  read(head: SnapshotHead): Promise<Buffer | null>;
  /** True for the one caller (across replicas) that may write this snapshot id. */
  claim(snapshotId: string): Promise<boolean>;
  /** Stores the payload and makes it the head; how it is cut in chunks is the store's. */
  write(head: Omit<SnapshotHead, 'chunks' | 'bytes'>, payload: Buffer): Promise<SnapshotHead>;
}
