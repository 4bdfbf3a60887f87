// The notes database behind one object: models registered, indexes built.
import { ensureIndexes, type Connection } from '@folio/mongo';
import type { NoteRepository } from '../domain/repositories.js';
import { CachedNoteRepository } from './cached-notes.js';
import { MongoNoteRepository } from './notes.js';
import { notesModels } from './schemas.js';

export { CachedNoteRepository, type NotesChange } from './cached-notes.js';

export async function openNoteRepository(connection: Connection): Promise<NoteRepository> {
  const models = notesModels(connection);
  await ensureIndexes(connection);
  return new MongoNoteRepository(connection, models.notes);
}

/** The service's repository: lists of a scope from memory (seeds and tools use openNoteRepository). */
export async function openCachedNoteRepository(connection: Connection, settings: { ttlMs: number; maxEntries: number }): Promise<CachedNoteRepository> {
  return new CachedNoteRepository(await openNoteRepository(connection), settings);
}
