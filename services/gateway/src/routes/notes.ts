// Highlights and annotations (v2): scoped by the reader session to tenant, user and issue.
// The pipeline verifies the reader-token (http/reader-token.ts) and hands the
// handlers its scope; the notes service answers notes as they are, and the gateway
// renders them once (render/notes.ts `noteRenderer`): v2 JSON, `totalText` encrypted
// with the key derived from the reader-token.
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, NoteV2, noteCreateBodyV2, updateNoteBody } from './schemas.js';
import { noteRenderer } from '../render/notes.js';
import { annotationChangeOf, noteDraftOf } from './requests.js';

const noteParams = z.object({ note_id: id('Note id') });
const notOwned = { 403: 'The note belongs to another user' };

export const noteRoutes = [
  route({
    method: 'get',
    path: '/api/v2/reader/notes',
    tag: 'Notes',
    summary: 'Notes of the user on the issue of the reader session',
    description:
      'Oldest first. `totalText` is encrypted with the reader session key (AES-256-GCM, HKDF-SHA256 of the reader-token, info `svc-reader-text-v1`).',
    auth: 'jwt+reader-token',
    tenant: 'single',
    cachePerUser: true,
    responses: { 200: { description: 'Notes, text encrypted', schema: z.array(NoteV2) } },
    errors: { 403: 'A missing, corrupt, expired or foreign reader-token' },
    handler: async ({ readerScope: scope, services }) => {
      const response = await services.notes.listNotes({ scope });
      return { status: 200, body: response.notes.map(noteRenderer('v2', scope.readerToken)) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v2/reader/notes',
    tag: 'Notes',
    summary: 'Create a note',
    description:
      'A note is PDF (`startPage` ...) or EPUB (`epubLocation*`, `epubChapter`), not both. Idempotent per `uuid`: a repeated uuid answers 201 with the existing note unchanged.',
    auth: 'jwt+reader-token',
    tenant: 'single',
    body: noteCreateBodyV2,
    responses: { 201: { description: 'Created note, text encrypted', schema: NoteV2 } },
    errors: { 403: 'A missing, corrupt, expired or foreign reader-token' },
    handler: async ({ body, readerScope: scope, services }) => {
      const response = await services.notes.createNote({ scope, note: noteDraftOf(body) });
      return { status: 201, body: noteRenderer('v2', scope.readerToken)(response.note) };
    },
  }),
  route({
    method: 'put',
    path: '/api/v2/reader/notes/{note_id}',
    tag: 'Notes',
    summary: "Change a note's color or comment",
    description: 'Text and position are immutable: other keys are ignored. `annotationText: null` clears the comment; an absent key keeps it.',
    auth: 'jwt+reader-token',
    tenant: 'single',
    params: noteParams,
    body: updateNoteBody,
    responses: { 200: { description: 'Updated note', schema: NoteV2 } },
    errors: { ...notOwned, 404: 'Unknown note, or not in the issue of the reader session' },
    handler: async ({ params, body, readerScope: scope, services, req }) => {
      const response = await services.notes.updateNote({
        scope,
        noteId: params.note_id,
        color: body.color,
        annotationText: annotationChangeOf(req.body, body.annotationText),
      });
      return { status: 200, body: noteRenderer('v2', scope.readerToken)(response.note) };
    },
  }),
  route({
    method: 'delete',
    path: '/api/v2/reader/notes/{note_id}',
    tag: 'Notes',
    summary: 'Delete a note',
    auth: 'jwt+reader-token',
    tenant: 'single',
    params: noteParams,
    responses: { 200: { description: 'Deleted note, text encrypted', schema: NoteV2 } },
    errors: { ...notOwned, 404: 'Unknown note, or not in the issue of the reader session' },
    handler: async ({ params, readerScope: scope, services }) => {
      const response = await services.notes.deleteNote({ scope, noteId: params.note_id });
      return { status: 200, body: noteRenderer('v2', scope.readerToken)(response.note) };
    },
  }),
];
