// gRPC entry point of notes: decode the request, call a use case, render the
// reply for the request's API version with its reader-token. No rules here.
import type { ServiceHandlers } from '@folio/grpc';
import type { notes } from '@folio/proto';
import type { Note } from '../domain/note.js';
import type { Notes } from '../domain/notes.js';
import { NoteRenderer } from '../domain/render.js';
import { draftOf, scopeOf, toNote, versionOf } from './mappers.js';

/** Scope, version and a renderer of one call. */
function callOf(request: { scope?: notes.ReaderScope | undefined; apiVersion: notes.ApiVersion }) {
  const { scope, readerToken } = scopeOf(request.scope);
  const version = versionOf(request.apiVersion);
  const renderer = new NoteRenderer(readerToken, version);
  return { scope, version, render: (note: Note) => toNote(renderer.render(note)) };
}

export function notesHandlers(app: { notes: Notes }): ServiceHandlers<typeof notes.NotesServiceService> {
  return {
    async listNotes(request) {
      const { scope, render } = callOf(request);
      return { notes: (await app.notes.list(scope)).map(render) };
    },

    async getNote(request) {
      const { scope, render } = callOf(request);
      return { note: render(await app.notes.get(scope, request.noteId)) };
    },

    async createNote(request) {
      const { scope, version, render } = callOf(request);
      const { note, created } = await app.notes.create(scope, version, draftOf(request.note));
      return { note: render(note), created };
    },

    async updateNote(request) {
      const { scope, render } = callOf(request);
      const note = await app.notes.update(scope, request.noteId, {
        color: request.color,
        annotationText: request.annotationText ? { value: request.annotationText.value ?? null } : undefined,
      });
      return { note: render(note) };
    },

    async deleteNote(request) {
      const { scope, render } = callOf(request);
      return { note: render(await app.notes.delete(scope, request.noteId)) };
    },
  };
}
