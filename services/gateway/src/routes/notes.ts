// Highlights and annotations (v2): scoped by the reader session to tenant, user and issue.
import { z } from 'zod';
import { later, route } from '../http/route.js';
import { createNoteBody, id, NoteV2, updateNoteBody } from './schemas.js';

const NOTES = 'the notes release';
const noteParams = z.object({ note_id: id('Note id') });
const notOwned = { 403: 'The note belongs to another user' };

export const noteRoutes = [
  route({
    method: 'get',
    path: '/api/v2/reader/notes',
    tag: 'Notes',
    summary: 'Notes of the user on the issue of the reader session',
    auth: 'jwt+reader-token',
    tenant: 'single',
    responses: { 200: { description: 'Notes, text encrypted', schema: z.array(NoteV2) } },
    handler: later('notes', NOTES),
  }),
  route({
    method: 'post',
    path: '/api/v2/reader/notes',
    tag: 'Notes',
    summary: 'Create a note',
    auth: 'jwt+reader-token',
    tenant: 'single',
    body: createNoteBody(z.array(z.unknown())),
    responses: { 201: { description: 'Created note, text encrypted', schema: NoteV2 } },
    handler: later('notes', NOTES),
  }),
  route({
    method: 'put',
    path: '/api/v2/reader/notes/{note_id}',
    tag: 'Notes',
    summary: "Change a note's color or comment",
    auth: 'jwt+reader-token',
    tenant: 'single',
    params: noteParams,
    body: updateNoteBody,
    responses: { 200: { description: 'Updated note', schema: NoteV2 } },
    errors: notOwned,
    handler: later('notes', NOTES),
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
    errors: notOwned,
    handler: later('notes', NOTES),
  }),
];
