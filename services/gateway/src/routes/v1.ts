// API v1: the reader engine's API under {store}/api/v1. The store (tenant) is
// the Host the gateway was reached with; authentication is the reader-token,
// verified by the reader service for the store's tenant.
import { z } from 'zod';
import { route } from '../http/route.js';
import { issueTextContentToWire, textHitToWire } from '../render/v1/reader.js';
import {
  id,
  inIssueSearch,
  IssueTextContent,
  noteCreateBodyV1,
  NoteV1,
  ReaderSessionV1,
  StoredReaderSession,
  TextSearchHit,
  updateNoteBody,
} from './schemas.js';
import { exchangedSessionToWire, readerSessionOf, storedSessionToWire } from '../render/reader.js';
import { noteRenderer } from '../render/notes.js';
import { annotationChangeOf, noteDraftOf } from './requests.js';

const store = { tenant: 'store' } as const;
const v1 = { ...store, tag: 'Reader API v1' } as const;
const readerAuth = { ...v1, auth: 'reader-token' } as const;

// Any string up to 64: an unknown or malformed id is a 404 from the reader, like a deleted one.
const sessionParams = z.object({
  id: z.string().min(1).max(64).meta({ description: 'Reader session id: the `id` of the exchange answer (22 random base64url characters)' }),
});
const noteParams = z.object({ id: id('Note id') });
const notOwned = { 403: 'The note belongs to another user' };
const tokenRefused = { 403: 'A missing, corrupt, expired or foreign reader-token (another store)' };

export const v1Routes = [
  route({
    ...v1,
    auth: 'none',
    method: 'post',
    path: '/api/v1/sessions',
    summary: 'Exchange the encrypted token of the reader settings for a reader session',
    description:
      '`token` is the `token` of `GET /api/v2/reader/settings/{issue_id}` (valid 10 minutes, for this store only). ' +
      '`preview: true` forces a preview session. The answer adds `id`, the stored session.',
    body: z.object({
      token: z.string().min(1).max(8192),
      reader: z.string().max(64).optional(),
      engine_host: z.string().max(255).optional(),
      preview: z.boolean().optional(),
    }),
    responses: { 200: { description: 'Reader session by content type; its `token` is the reader-token', schema: ReaderSessionV1 } },
    errors: { 403: 'Invalid, corrupted, expired or foreign token, or no access to the issue' },
    handler: async ({ body, tenant, services }) => {
      const response = await services.reader.exchangeSessionToken({
        storeTenantId: tenant.id,
        token: body.token,
        reader: body.reader,
        engineHost: body.engine_host,
        preview: body.preview,
      });
      return { status: 200, body: exchangedSessionToWire(response) };
    },
  }),
  route({
    ...v1,
    auth: 'none',
    method: 'get',
    path: '/api/v1/sessions/{id}',
    summary: 'A stored reader session',
    params: sessionParams,
    responses: { 200: { description: 'Reader session record (`token` is always null)', schema: StoredReaderSession } },
    errors: { 404: 'Unknown session, or a session of another store' },
    handler: async ({ params, tenant, services }) => {
      const response = await services.reader.getReaderSession({ storeTenantId: tenant.id, publicId: params.id });
      return { status: 200, body: storedSessionToWire(response.session, 'GetReaderSession') };
    },
  }),
  route({
    ...v1,
    auth: 'none',
    method: 'delete',
    path: '/api/v1/sessions/{id}',
    summary: 'Delete a reader session',
    description: 'Its reader-token stops working at once.',
    params: sessionParams,
    responses: { 200: { description: 'The deleted record', schema: StoredReaderSession } },
    errors: { 404: 'Unknown session, or a session of another store' },
    handler: async ({ params, tenant, services }) => {
      const response = await services.reader.deleteReaderSession({ storeTenantId: tenant.id, publicId: params.id });
      return { status: 200, body: storedSessionToWire(response.session, 'DeleteReaderSession') };
    },
  }),
  route({
    ...readerAuth,
    method: 'get',
    path: '/api/v1/notes',
    cachePerUser: true,
    summary: 'Notes of the reader session, by creation date',
    description: '`totalText` is encrypted with the reader session key.',
    responses: { 200: { description: 'Notes', schema: z.array(NoteV1) } },
    errors: tokenRefused,
    handler: async ({ readerScope: scope, services }) => {
      const response = await services.notes.listNotes({ scope });
      return { status: 200, body: response.notes.map(noteRenderer('v1', scope.readerToken)) };
    },
  }),
  route({
    ...readerAuth,
    method: 'post',
    path: '/api/v1/notes',
    summary: 'Create a note (`epubLocation` is a string in v1)',
    description: 'Idempotent per `uuid`: a repeated uuid answers 201 with the existing note unchanged.',
    body: noteCreateBodyV1,
    responses: { 201: { description: 'Created note', schema: NoteV1 } },
    errors: tokenRefused,
    handler: async ({ body, readerScope: scope, services }) => {
      const response = await services.notes.createNote({ scope, note: noteDraftOf(body) });
      return { status: 201, body: noteRenderer('v1', scope.readerToken)(response.note) };
    },
  }),
  route({
    ...readerAuth,
    method: 'get',
    path: '/api/v1/notes/{id}',
    summary: 'A note',
    params: noteParams,
    responses: { 200: { description: 'Note', schema: NoteV1 } },
    errors: { ...tokenRefused, ...notOwned, 404: 'Unknown note, or not in the issue of the reader session' },
    handler: async ({ params, readerScope: scope, services }) => {
      const response = await services.notes.getNote({ scope, noteId: params.id });
      return { status: 200, body: noteRenderer('v1', scope.readerToken)(response.note) };
    },
  }),
  route({
    ...readerAuth,
    method: 'patch',
    path: '/api/v1/notes/{id}',
    summary: "Change a note's color or comment",
    description: 'Text and position are immutable: other keys are ignored. `annotationText: null` clears the comment; an absent key keeps it.',
    params: noteParams,
    body: updateNoteBody,
    responses: { 200: { description: 'Updated note', schema: NoteV1 } },
    errors: { ...tokenRefused, ...notOwned, 404: 'Unknown note, or not in the issue of the reader session' },
    handler: async ({ params, body, readerScope: scope, services, req }) => {
      const response = await services.notes.updateNote({
        scope,
        noteId: params.id,
        color: body.color,
        annotationText: annotationChangeOf(req.body, body.annotationText),
      });
      return { status: 200, body: noteRenderer('v1', scope.readerToken)(response.note) };
    },
  }),
  route({
    ...readerAuth,
    method: 'delete',
    path: '/api/v1/notes/{id}',
    summary: 'Delete a note',
    params: noteParams,
    responses: { 200: { description: 'Deleted note', schema: NoteV1 } },
    errors: { ...tokenRefused, ...notOwned, 404: 'Unknown note, or not in the issue of the reader session' },
    handler: async ({ params, readerScope: scope, services }) => {
      const response = await services.notes.deleteNote({ scope, noteId: params.id });
      return { status: 200, body: noteRenderer('v1', scope.readerToken)(response.note) };
    },
  }),
  route({
    ...readerAuth,
    method: 'get',
    path: '/api/v1/issue-text-content',
    summary: 'Search the text of an issue',
    description: 'Up to 50 hits by relevance; matched words in `<b>`; `location` `page_<n>_section_<m>` (PDF page or EPUB spine position, paragraph).',
    query: z.object({ issue_id: id('Issue id'), search: inIssueSearch }),
    responses: { 200: { description: 'Up to 50 hits, matches in <b>, location page_<n>_section_<n>', schema: z.array(TextSearchHit) } },
    errors: { 403: 'The tenant has no access to the issue, or a refused reader-token', 404: 'The issue has no indexed text' },
    handler: async ({ query, readerScope, services }) => {
      const response = await services.reader.searchIssueText({
        session: readerSessionOf(readerScope),
        search: query.search,
        issueId: query.issue_id,
      });
      return { status: 200, body: response.hits.map(textHitToWire) };
    },
  }),
  route({
    ...v1,
    auth: 'none',
    method: 'get',
    path: '/api/v1/issue-text-content/{id}',
    summary: 'Text content records of one page of an issue',
    description: '`{id}` is the page: the PDF page number or the EPUB spine position, 1-based. Issues of this store only.',
    params: z.object({ id: id('Page (PDF page, EPUB spine position), 1-based') }),
    query: z.object({ issue_id: id('Issue id') }),
    responses: { 200: { description: 'IssueTextContent records of the page, in order', schema: z.array(IssueTextContent) } },
    errors: { 404: 'Unknown issue in this store, or no indexed text' },
    handler: async ({ params, query, tenant, services }) => {
      const response = await services.reader.listIssueTextContent({ storeTenantId: tenant.id, issueId: query.issue_id, page: params.id });
      return { status: 200, body: response.records.map(issueTextContentToWire) };
    },
  }),
];
