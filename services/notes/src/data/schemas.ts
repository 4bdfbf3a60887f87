// The notes database: one collection, `notes`, and the indexes its query
// paths need. Text is stored in plaintext (see README: the reader's text index
// holds the whole publication in plaintext anyway; notes add nothing an
// at-rest key in this service would protect, and disk/database encryption
// covers both). Field names are snake_case; the domain never sees them.
import { Schema, type Connection, type Model } from 'mongoose';
import { modelOn } from '@folio/mongo';

export interface NoteDoc {
  /** The note id the API exposes, from nextSequence('notes'). */
  _id: number;
  tenant_id: number;
  user_id: number;
  issue_id: number;
  uuid: string;
  color: string;
  total_length: number;
  total_text: string;
  annotation_text: string | null;
  start_page: number | null;
  start_page_start_offset: number | null;
  start_page_length: number | null;
  end_page: number | null;
  end_page_length: number | null;
  epub_location_start_cfi: string | null;
  epub_location_end_cfi: string | null;
  epub_chapter: string | null;
  epub_location_start_char: string | null;
  /** The general EPUB location as the client sent it: a v2 array here ... */
  epub_location_list: string[] | null;
  /** ... or a v1 string here; at most one of the two is set. */
  epub_location_text: string | null;
  created_at: Date;
  updated_at: Date;
}

const noteSchema = new Schema<NoteDoc>(
  {
    _id: Number,
    tenant_id: { type: Number, required: true },
    user_id: { type: Number, required: true },
    issue_id: { type: Number, required: true },
    uuid: { type: String, required: true },
    color: { type: String, required: true },
    total_length: { type: Number, required: true },
    total_text: { type: String, required: true },
    annotation_text: { type: String, default: null },
    start_page: { type: Number, default: null },
    start_page_start_offset: { type: Number, default: null },
    start_page_length: { type: Number, default: null },
    end_page: { type: Number, default: null },
    end_page_length: { type: Number, default: null },
    epub_location_start_cfi: { type: String, default: null },
    epub_location_end_cfi: { type: String, default: null },
    epub_chapter: { type: String, default: null },
    epub_location_start_char: { type: String, default: null },
    epub_location_list: { type: [String], default: null },
    epub_location_text: { type: String, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: 'notes', versionKey: false },
);
// One note per client uuid in a scope: the insert that loses is how a
// repeated create finds the existing note (unique inserts are atomic on
// FerretDB and MongoDB alike; conditional updates are not on FerretDB).
noteSchema.index({ tenant_id: 1, user_id: 1, issue_id: 1, uuid: 1 }, { unique: true, name: 'scope_uuid' });
// The list of a scope, oldest first.
noteSchema.index({ tenant_id: 1, user_id: 1, issue_id: 1, created_at: 1, _id: 1 }, { name: 'scope_created' });
// Account erasure across tenants.
noteSchema.index({ user_id: 1 }, { name: 'user' });

export function notesModels(connection: Connection): { notes: Model<NoteDoc> } {
  return { notes: modelOn(connection, 'Note', noteSchema) };
}
