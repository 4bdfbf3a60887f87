// gRPC entry point of notes: decode the request, call a use case, encode the
// note as it is. No rules and no rendering here: the gateway renders per API
// version (see the proto's boundary rule).
import type { ServiceHandlers } from '@folio/grpc';
import type { notes } from '@folio/proto';
import type { Notes } from '../domain/notes.js';
import { draftOf, scopeOf, toNote } from './mappers.js';

export function notesHandlers(app: { notes: Notes }): ServiceHandlers<typeof notes.NotesServiceService> {
  return {
    async listNotes(request) {
      return { notes: (await app.notes.list(scopeOf(request.scope))).map(toNote) };
    },

    async getNote(request) {
      return { note: toNote(await app.notes.get(scopeOf(request.scope), request.noteId)) };
    },

    async createNote(request) {
      const { note, created } = await app.notes.create(scopeOf(request.scope), draftOf(request.note));
      return { note: toNote(note), created };
    },

    async updateNote(request) {
      const note = await app.notes.update(scopeOf(request.scope), request.noteId, {
        color: request.color,
        annotationText: request.annotationText ? { value: request.annotationText.value ?? null } : undefined,
      });
      return { note: toNote(note) };
    },

    async deleteNote(request) {
      return { note: toNote(await app.notes.delete(scopeOf(request.scope), request.noteId)) };
    },

    async listUserNotes(request) {
      const notes = await app.notes.listAllOf(request.userId);
      return { notes: notes.map((note) => ({ tenantId: note.scope.tenantId, issueId: note.scope.issueId, note: toNote(note) })) };
    },
  };
}
