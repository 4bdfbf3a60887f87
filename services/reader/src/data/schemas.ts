// The reader database: content manifests, reader sessions, user reader
// settings and reading positions, in their collections. Plain document
// shapes; repositories return lean objects.
import { Schema, type Model } from 'mongoose';
import { modelOn, type Connection } from '@folio/mongo';
import type { AudioManifest, ContentManifest, EpubManifest, PdfManifest, PositionRecord, SessionRecord, UserSettingsRecord } from '../domain/repositories.js';

// The records are the domain's (domain/repositories.ts), stored as they are: a
// document is a record with the same field names.
export type ManifestDoc = ContentManifest;
export type SessionDoc = SessionRecord;
export type UserSettingsDoc = UserSettingsRecord;
export type PositionDoc = PositionRecord;

/** The big per-content arrays of a manifest (spine, pages, tracks), stored apart from the summary. */
export interface StructureDoc {
  _id: string;
  epub: EpubManifest | null;
  pdf: PdfManifest | null;
  audio: AudioManifest | null;
}

/**
 * A session as stored: its snapshot inline when small, else in
 * `reader_session_snapshots`; JSON text, or a document when stored by an
 * earlier version (data/sessions.ts, snapshotOf).
 */
export type StoredSessionDoc = Omit<SessionDoc, 'snapshot'> & { snapshot?: string | Record<string, unknown> };

export interface SnapshotDoc {
  _id: number;
  snapshot: string | Record<string, unknown>;
  /** Its session's, so that both are pruned alike; missing on snapshots an earlier version stored. */
  expires_at?: Date;
}

export interface ReaderModels {
  manifests: Model<Omit<ManifestDoc, 'epub' | 'pdf' | 'audio'>>;
  structures: Model<StructureDoc>;
  sessions: Model<StoredSessionDoc>;
  snapshots: Model<SnapshotDoc>;
  settings: Model<UserSettingsDoc>;
  positions: Model<PositionDoc>;
}

const options = { versionKey: false, strict: false, minimize: false } as const;

export function readerModels(connection: Connection): ReaderModels {
  // Manifests are split: the summary (type, keys, text index) is read on every
  // search and session; the structure (a row per page or chapter) only when content
  // is listed. Large documents are slow to read on the local stack's FerretDB.
  const manifest = new Schema<Omit<ManifestDoc, 'epub' | 'pdf' | 'audio'>>(
    { _id: String, tenant_id: Number, issue_id: Number },
    { ...options, collection: 'content_manifests' },
  );
  manifest.index({ tenant_id: 1, issue_id: 1 }, { unique: true });
  manifest.index({ issue_id: 1 });
  manifest.index({ document_hash: 1 });

  const structure = new Schema<StructureDoc>({ _id: String }, { ...options, collection: 'content_structures' });
  const snapshot = new Schema<SnapshotDoc>({ _id: Number }, { ...options, collection: 'reader_session_snapshots' });
  const session = new Schema<StoredSessionDoc>(
    { _id: Number, tenant_id: Number, user_id: Number, issue_id: Number },
    { ...options, collection: 'reader_sessions' },
  );
  session.index({ user_id: 1 });
  // Not unique: sessions stored before public ids have none; 128 random bits do not collide.
  session.index({ public_id: 1 });

  const settings = new Schema<UserSettingsDoc>({ _id: Number }, { ...options, collection: 'user_reader_settings' });

  const position = new Schema<PositionDoc>(
    { _id: String, user_id: Number, tenant_id: Number, issue_id: Number, read_at: Date },
    { ...options, collection: 'reading_positions' },
  );
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
