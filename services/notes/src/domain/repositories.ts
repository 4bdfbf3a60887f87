// What the use cases need from notes' database: one repository per aggregate
// (notes has one). data/ implements it (data/index.ts opens it, app.ts hands
// it to the use cases).
import type { Note, NoteChange, NoteScope } from './note.js';

/** Storage of notes. Every read or write of one scope names the whole scope. */
export interface NoteRepository {
  /** A fresh note id (integers, as the API exposes them). */
  nextId(): Promise<number>;
  /** Inserts unless the scope already has a note with this uuid: then false, nothing written. */
  insert(note: Note): Promise<boolean>;
  findByUuid(scope: NoteScope, uuid: string): Promise<Note | null>;
  /** Any scope: only to tell another user's note (403) from a missing one (404). */
  findById(id: number): Promise<Note | null>;
  /** Oldest first: created_at, then id. */
  list(scope: NoteScope): Promise<Note[]>;
  update(scope: NoteScope, id: number, change: NoteChange): Promise<Note | null>;
  delete(scope: NoteScope, id: number): Promise<Note | null>;
  /** Every note of the user in every tenant and issue: by tenant, issue, created_at, then id. */
  listAllOf(userId: number): Promise<Note[]>;
  /** Account erasure: every note of the user in every tenant; returns how many went. */
  deleteAllOf(userId: number): Promise<number>;
}
