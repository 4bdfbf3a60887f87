// The notes database behind one object: models registered, indexes built.
import { ensureIndexes, type Connection } from '@folio/mongo';
import type { NoteRepository } from '../domain/note.js';
import { MongoNoteRepository } from './notes.js';
import { notesModels } from './schemas.js';

export async function openNoteRepository(connection: Connection): Promise<NoteRepository> {
  const models = notesModels(connection);
  await ensureIndexes(connection);
  return new MongoNoteRepository(connection, models.notes);
}
