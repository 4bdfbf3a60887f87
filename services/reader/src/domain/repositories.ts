// What reader keeps, in its own terms: content manifests, reader sessions,
// user reader settings and reading positions, and the repositories the use
// cases read and write them through. data/ implements the repositories over
// the document store (a module per aggregate, with the caches); the records
// keep the stored field names, so data/schemas.ts maps nothing.

export type ContentType = 'epub' | 'pdf' | 'audio' | 'physical';

export interface EpubManifest {
  file_key: string;
  size: number;
  /**
   * Spine in reading order; `href` relative to the package document. `bytes`:
   * the document's length in the package (Readium positions); absent on
   * content ingested before it was recorded.
   */
  spine: { href: string; idref: string; title: string; words: number; bytes?: number }[];
  toc: { title: string; href: string }[];
  total_words: number;
}

export interface PdfManifest {
  /** The PDF as ingested (absent on issues ingested before it was kept). */
  file_key?: string;
  size?: number;
  pages: { key: string; width: number; height: number; words: number }[];
  toc: { title: string; page: number }[];
}

export interface AudioManifest {
  /** `duration` in seconds (fractional, as read from the file). */
  /** `chapters` (start in seconds) as the file marks them (ID3 CHAP, MP4 chapters), absent when it marks none. */
  tracks: { title: string; key: string; duration: number; size: number; chapters?: { title: string; start: number }[] }[];
}

/** Accessibility as the file declares it (EPUB Accessibility 1.1, schema.org terms); catalog's `Accessibility`. */
export interface ContentAccessibility {
  /** `dcterms:conformsTo`, e.g. `http://www.idpf.org/epub/a11y/accessibility-20170105.html#wcag-aa`. */
  conforms_to: string[];
  access_modes: string[];
  /** Each entry a comma-separated set of modes that suffice together (`textual`, `textual,visual`). */
  access_modes_sufficient: string[];
  features: string[];
  hazards: string[];
  summary: string | null;
  certified_by: string | null;
}

/** What the file says of itself (the proto's ContentMetadata); empty strings and lists where it says nothing. */
export interface ContentMetadata {
  title: string;
  /** The creators who are authors (a MARC role `aut`, or none), in the file's order. */
  authors: string[];
  /** The other creators and contributors, with their MARC relator role (`trl`, `edt`, `nrt`, ...). */
  contributors: { name: string; role: string }[];
  publisher: string;
  lang: string;
  description: string;
  /** As the file lists them, an ISBN as `urn:isbn:<digits>`. */
  identifiers: string[];
  /** PDF pages; null otherwise. */
  number_of_pages: number | null;
  /** Audio: total seconds; null otherwise. */
  duration_seconds: number | null;
  /** EPUB spine documents but the navigation document, audio chapters (or tracks without any), PDF outline entries (or pages). */
  chapters: number;
  /** null for audio. */
  layout: 'reflowable' | 'fixed' | null;
  reading_progression: 'ltr' | 'rtl' | 'auto';
  /** The file has its own cover image (else the generated one is the cover). */
  has_cover: boolean;
  accessibility: ContentAccessibility | null;
}

/** One finding of a file's validation: EPUBCheck's for EPUBs, reader's own checks otherwise. */
export interface ValidationFinding {
  severity: 'fatal' | 'error' | 'warning' | 'info';
  /** The checker's message id (`RSC-005`), or reader's (`FOLIO-PDF-001`). */
  code: string;
  message: string;
  /** Where in the file (`EPUB/text/ch001.xhtml:12:7`, `page 3`); absent when it is about the whole file. */
  location?: string;
}

/** What reader knows of an issue's content: its files, structure and text index. */
export interface ContentManifest {
  /** `<tenant_id>:<issue_id>`. */
  _id: string;
  tenant_id: number;
  issue_id: number;
  type: ContentType;
  title: string;
  lang: string | null;
  cover_key: string;
  thumbnail_key: string;
  /** Hash of what the file was built from: the seed's, to skip unchanged issues; an upload's SHA-256 (hex). */
  source_hash: string | null;
  /**
   * The folder version of an uploaded file's files (`<tenant>/<issue>/v/<version>`); null or absent
   * for content stored in the issue's folder itself (the seed, the ingest CLI).
   */
  content_version?: string | null;
  /** Storage key of the gzip'd text index; null for content without text (audio, physical). */
  text_index_key: string | null;
  /**
   * KOReader's partial MD5 of the file e-readers download (EPUB, PDF): how a
   * KOReader progress push names the issue. Absent for audio and physical.
   */
  document_hash?: string | null;
  sections: number;
  /** What the file says of itself (absent on content ingested before it was recorded). */
  metadata?: ContentMetadata | null;
  epub: EpubManifest | null;
  pdf: PdfManifest | null;
  audio: AudioManifest | null;
  ingested_at: Date;
}

/**
 * A reader session (v1 and v2). `snapshot` is the session response as first
 * returned, without its token and signed URLs (what the v1 record shows); a
 * large one (a page list) is stored apart from the session, because every
 * uncached reader-token check reads the session (data/sessions.ts).
 */
export interface SessionRecord {
  /** Internal, sequential: carried inside the reader-token, never in a URL. */
  _id: number;
  /**
   * The id of GET/DELETE {store}/api/v1/sessions/{id}: 128 random bits,
   * base64url. Those routes need no authentication, so this id is the
   * capability. Missing on sessions stored before it existed.
   */
  public_id?: string;
  tenant_id: number;
  user_id: number;
  issue_id: number;
  preview: boolean;
  /** `v1` (settings token exchange) or `v2` (POST /api/v2/reader/{issue_id}/sessions). */
  api: 'v1' | 'v2';
  reader: string | null;
  engine_host: string | null;
  created_at: Date;
  /** When its newest reader-token expires (a resume with a new token moves it on); pruned some days later. */
  expires_at: Date;
  snapshot: Record<string, unknown>;
}

export interface UserSettingsRecord {
  /** The user id: settings are user-wide, across tenants and issues. */
  _id: number;
  theme: string | null;
  epub: { zoom: number | null; layout: string | null };
  pdf: { layout: string | null };
  updated_at: Date;
}

export interface PositionRecord {
  /** `<user_id>:<tenant_id>:<issue_id>` (positionIdOf): one position per user and issue. */
  _id: string;
  user_id: number;
  tenant_id: number;
  issue_id: number;
  location: Record<string, unknown>;
  read_at: Date;
}

/**
 * An issue of a tenant: how tenant content (a manifest, its files and text
 * index) is named. A manifest stores both, and is read by both.
 */
export interface IssueKey {
  tenantId: number;
  issueId: number;
}

/** A user's position in an issue of a tenant: positions store all three. */
export interface PositionKey extends IssueKey {
  userId: number;
}

/** A user's positions within some tenants: a store's continue-reading shelf, with the stores it shows. */
export interface UserInTenants {
  userId: number;
  tenantIds: number[];
}

/** A session by the public id of the v1 session routes, as a store asks for it: sessions store their tenant. */
export interface PublicSessionKey {
  tenantId: number;
  publicId: string;
}

/** The id of a user's position in an issue: one position per user and issue. */
export function positionIdOf(key: PositionKey): string {
  return `${key.userId}:${key.tenantId}:${key.issueId}`;
}

/** Manifests of tenant content: every read names the tenant (IssueKey), but the cover's. */
export interface ManifestRepository {
  /** The whole manifest, structure included. */
  find(issue: IssueKey): Promise<ContentManifest | null>;
  /** The manifest without its structure (`epub`, `pdf`, `audio` null): type, keys, text index. */
  findSummary(issue: IssueKey): Promise<ContentManifest | null>;
  /**
   * The one read by issue id alone: the catalog's cover URL template has no
   * tenant, and issue ids are unique across tenants (the catalog allocates
   * them), so the id names one manifest; a cover is public.
   */
  coverKeyOf(issueId: number): Promise<string | null>;
  /** Ingest: replaces the issue's manifest. */
  save(manifest: ContentManifest): Promise<void>;
}

/**
 * Sessions by their internal id, which is unique across tenants (one
 * sequence) and reaches a caller only inside a reader-token or through a
 * tenant's public id: the caller compares the stored tenant, user and issue
 * with the token's. The public id, which a URL carries, is asked within the
 * store's tenant.
 */
export interface SessionRepository {
  /** A fresh internal session id (sequential). */
  nextId(): Promise<number>;
  create(session: SessionRecord): Promise<void>;
  /** The session without its snapshot: what a reader-token check needs. */
  find(id: number): Promise<Omit<SessionRecord, 'snapshot'> | null>;
  /** By the public id of the v1 session routes; a session of another tenant is not found. */
  findByPublicId(key: PublicSessionKey): Promise<Omit<SessionRecord, 'snapshot'> | null>;
  findWithSnapshot(id: number): Promise<SessionRecord | null>;
  /** Deletes and returns the session; null when it was already gone. */
  delete(id: number): Promise<SessionRecord | null>;
  /** The ids of every session of the user in every tenant (account erasure announces their end first). */
  idsOf(userId: number): Promise<number[]>;
  /** Account erasure: every session of the user in every tenant; returns how many went. */
  deleteAllOf(userId: number): Promise<number>;
  /** A resumed session's new token lives until `expiresAt`: its `expires_at` becomes that, if later. */
  extend(id: number, expiresAt: Date): Promise<void>;
  /** Deletes the sessions whose last token expired at or before `before`; returns how many went. */
  pruneExpired(before: Date): Promise<number>;
}

/** Settings are the user's, across tenants: stored by user id, with no tenant to name. */
export interface UserSettingsRepository {
  find(userId: number): Promise<UserSettingsRecord | null>;
  save(settings: UserSettingsRecord): Promise<void>;
  /** Account erasure; returns how many went (0 or 1). */
  delete(userId: number): Promise<number>;
}

/** Positions of tenant content: every read names the tenant (PositionKey, UserInTenants), but erasure's. */
export interface PositionRepository {
  find(key: PositionKey): Promise<PositionRecord | null>;
  /** Last write wins: one record per (user, tenant, issue). */
  save(position: PositionRecord): Promise<void>;
  /**
   * Writes the position unless one with a later `read_at` is stored (the
   * domain's isNewerPosition, applied atomically), and with `onlyOver` only
   * while the stored one still has that `read_at`. False when the write was
   * refused.
   */
  saveIfNewer(position: PositionRecord, onlyOver?: Date): Promise<boolean>;
  /** Positions in the tenants, most recently read first. */
  recent(reader: UserInTenants, skip: number, limit: number): Promise<{ positions: PositionRecord[]; total: number }>;
  /** Account erasure: every position of the user in every tenant; returns how many went. */
  deleteAllOf(userId: number): Promise<number>;
}

/** The reader database's repositories, as the use cases see them. */
export interface ReaderRepositories {
  manifests: ManifestRepository;
  sessions: SessionRepository;
  settings: UserSettingsRepository;
  positions: PositionRepository;
}
