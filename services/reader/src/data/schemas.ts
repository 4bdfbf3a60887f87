// The reader database: content manifests, reader sessions, user reader
// settings and reading positions. Plain document shapes; repositories return
// lean objects.
import { Schema, type Model } from 'mongoose';
import { modelOn, type Connection } from '@folio/mongo';

export type ContentType = 'epub' | 'pdf' | 'audio' | 'physical';

export interface EpubManifest {
  file_key: string;
  size: number;
  /** Spine in reading order; `href` relative to the package document. */
  spine: { href: string; idref: string; title: string; words: number }[];
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
  tracks: { title: string; key: string; duration: number; size: number }[];
}

/** What reader knows of an issue's content: its files, structure and text index. */
export interface ManifestDoc {
  /** `<tenant_id>:<issue_id>`. */
  _id: string;
  tenant_id: number;
  issue_id: number;
  type: ContentType;
  title: string;
  lang: string | null;
  cover_key: string;
  thumbnail_key: string;
  /** Hash of what the file was built from (seed), to skip unchanged issues. */
  source_hash: string | null;
  /** Storage key of the gzip'd text index; null for content without text (audio, physical). */
  text_index_key: string | null;
  /**
   * KOReader's partial MD5 of the file e-readers download (EPUB, PDF): how a
   * KOReader progress push names the issue. Absent for audio and physical.
   */
  document_hash?: string | null;
  sections: number;
  epub: EpubManifest | null;
  pdf: PdfManifest | null;
  audio: AudioManifest | null;
  ingested_at: Date;
}

/**
 * A reader session (v1 and v2). `snapshot` is the session response as first
 * returned, without its token; it is stored apart (`reader_session_snapshots`)
 * because it can be large (a URL per page) and every reader-token check reads
 * the session.
 */
export interface SessionDoc {
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
  expires_at: Date;
  snapshot: Record<string, unknown>;
}

export interface UserSettingsDoc {
  /** The user id: settings are user-wide, across tenants and issues. */
  _id: number;
  theme: string | null;
  epub: { zoom: number | null; layout: string | null };
  pdf: { layout: string | null };
  updated_at: Date;
}

export interface PositionDoc {
  /** `<user_id>:<tenant_id>:<issue_id>`: one position per user and issue. */
  _id: string;
  user_id: number;
  tenant_id: number;
  issue_id: number;
  location: Record<string, unknown>;
  read_at: Date;
}

/** The big per-content arrays of a manifest (spine, pages, tracks), stored apart from the summary. */
export interface StructureDoc {
  _id: string;
  epub: EpubManifest | null;
  pdf: PdfManifest | null;
  audio: AudioManifest | null;
}

export interface SnapshotDoc {
  _id: number;
  snapshot: Record<string, unknown>;
}

export interface ReaderModels {
  manifests: Model<Omit<ManifestDoc, 'epub' | 'pdf' | 'audio'>>;
  structures: Model<StructureDoc>;
  sessions: Model<Omit<SessionDoc, 'snapshot'>>;
  snapshots: Model<SnapshotDoc>;
  settings: Model<UserSettingsDoc>;
  positions: Model<PositionDoc>;
}

const options = { versionKey: false, strict: false, minimize: false } as const;

export function readerModels(connection: Connection): ReaderModels {
  // Manifests are split: the summary (type, keys, text index) is read on every
  // search and session; the structure (a row per page or chapter) only when content
  // is listed. Large documents are slow to read on the local stack's FerretDB.
  const manifest = new Schema<Omit<ManifestDoc, 'epub' | 'pdf' | 'audio'>>({ _id: String, tenant_id: Number, issue_id: Number }, { ...options, collection: 'content_manifests' });
  manifest.index({ tenant_id: 1, issue_id: 1 }, { unique: true });
  manifest.index({ issue_id: 1 });
  manifest.index({ document_hash: 1 });

  const structure = new Schema<StructureDoc>({ _id: String }, { ...options, collection: 'content_structures' });
  const snapshot = new Schema<SnapshotDoc>({ _id: Number }, { ...options, collection: 'reader_session_snapshots' });
  const session = new Schema<Omit<SessionDoc, 'snapshot'>>({ _id: Number, tenant_id: Number, user_id: Number, issue_id: Number }, { ...options, collection: 'reader_sessions' });
  session.index({ user_id: 1 });
  // Not unique: sessions stored before public ids have none; 128 random bits do not collide.
  session.index({ public_id: 1 });

  const settings = new Schema<UserSettingsDoc>({ _id: Number }, { ...options, collection: 'user_reader_settings' });

  const position = new Schema<PositionDoc>({ _id: String, user_id: Number, tenant_id: Number, issue_id: Number, read_at: Date }, { ...options, collection: 'reading_positions' });
  position.index({ user_id: 1, read_at: -1 });

  return {
    manifests: modelOn(connection, 'ContentManifest', manifest),
    structures: modelOn(connection, 'ContentStructure', structure),
    sessions: modelOn(connection, 'ReaderSession', session),
    snapshots: modelOn(connection, 'ReaderSessionSnapshot', snapshot),
    settings: modelOn(connection, 'UserReaderSettings', settings),
    positions: modelOn(connection, 'ReadingPosition', position),
  };
}
