// API v1: the reader engine's API under {store}/api/v1. The store (tenant) is
// the Host the gateway was reached with; authentication is the reader-token.
import { z } from 'zod';
import { later, route, type Route } from '../http/route.js';
import {
  AiActions,
  aiActionBody,
  AiResult,
  createNoteBody,
  dictionaryBody,
  id,
  listenBody,
  NoteV1,
  ReaderSession,
  TextSearchHit,
  translateBody,
  TranslateResponse,
} from './schemas.js';

const READER = 'the reader release';
const NOTES = 'the notes release';
const INTEGRATIONS = 'the integrations release';
const store = { tenant: 'store' } as const;
const v1 = { ...store, tag: 'Reader API v1' } as const;
const readerAuth = { ...v1, auth: 'reader-token' } as const;

const ReaderSessionRecord = z.record(z.string(), z.unknown()).meta({ id: 'ReaderSessionRecord', description: 'The stored reader session' });
const sessionParams = z.object({ id: z.string().min(1).max(64).meta({ description: 'Reader session id' }) });
const noteParams = z.object({ id: id('Note id') });
const notOwned = { 403: 'The note belongs to another user' };

function translateRoute(path: string, summary: string): Route {
  return route({
    ...readerAuth,
    method: 'post',
    path,
    summary,
    body: translateBody,
    responses: { 200: { description: 'Translation', schema: TranslateResponse } },
    handler: later('translation', INTEGRATIONS),
  });
}

function listenRoute(path: string, summary: string): Route {
  return route({
    ...readerAuth,
    method: 'post',
    path,
    summary,
    body: listenBody,
    responses: { 200: { description: 'MP3 audio, cached 30 minutes', contentType: 'audio/mpeg', schema: z.string().meta({ format: 'binary' }) } },
    handler: later('text to speech', INTEGRATIONS),
  });
}

export const v1Routes = [
  route({
    ...v1,
    auth: 'none',
    method: 'post',
    path: '/api/v1/sessions',
    summary: 'Exchange the encrypted token of the reader settings for a reader session',
    body: z.object({
      token: z.string().min(1).max(8192),
      reader: z.string().max(64).optional(),
      engine_host: z.string().max(255).optional(),
      preview: z.boolean().optional(),
    }),
    responses: { 200: { description: 'Reader session by content type; its `token` is the reader-token', schema: ReaderSession } },
    errors: { 403: 'Invalid or corrupted token, or no access to the issue' },
    handler: later('reader sessions', READER),
  }),
  route({
    ...v1,
    auth: 'none',
    method: 'get',
    path: '/api/v1/sessions/{id}',
    summary: 'A stored reader session',
    params: sessionParams,
    responses: { 200: { description: 'Reader session record', schema: ReaderSessionRecord } },
    handler: later('reader sessions', READER),
  }),
  route({
    ...v1,
    auth: 'none',
    method: 'delete',
    path: '/api/v1/sessions/{id}',
    summary: 'Delete a reader session',
    params: sessionParams,
    responses: { 200: { description: 'The deleted record', schema: ReaderSessionRecord } },
    handler: later('reader sessions', READER),
  }),
  route({
    ...readerAuth,
    method: 'get',
    path: '/api/v1/notes',
    summary: 'Notes of the reader session, by creation date',
    responses: { 200: { description: 'Notes', schema: z.array(NoteV1) } },
    handler: later('notes', NOTES),
  }),
  route({
    ...readerAuth,
    method: 'post',
    path: '/api/v1/notes',
    summary: 'Create a note (`epubLocation` is a string in v1)',
    body: createNoteBody(z.string().max(4096)),
    responses: { 201: { description: 'Created note', schema: NoteV1 } },
    handler: later('notes', NOTES),
  }),
  route({
    ...readerAuth,
    method: 'get',
    path: '/api/v1/notes/{id}',
    summary: 'A note',
    params: noteParams,
    responses: { 200: { description: 'Note', schema: NoteV1 } },
    errors: notOwned,
    handler: later('notes', NOTES),
  }),
  route({
    ...readerAuth,
    method: 'patch',
    path: '/api/v1/notes/{id}',
    summary: "Change a note's color or comment",
    params: noteParams,
    body: z.object({ color: z.string().min(1).max(32), annotationText: z.string().nullable().optional() }),
    responses: { 200: { description: 'Updated note', schema: NoteV1 } },
    errors: notOwned,
    handler: later('notes', NOTES),
  }),
  route({
    ...readerAuth,
    method: 'delete',
    path: '/api/v1/notes/{id}',
    summary: 'Delete a note',
    params: noteParams,
    responses: { 200: { description: 'Deleted note', schema: NoteV1 } },
    errors: notOwned,
    handler: later('notes', NOTES),
  }),
  route({
    ...readerAuth,
    method: 'get',
    path: '/api/v1/issue-text-content',
    summary: 'Search the text of an issue',
    query: z.object({ issue_id: id('Issue id'), search: z.string().min(4).max(128) }),
    responses: { 200: { description: 'Up to 50 hits, matches in <b>, location page_<n>_section_<n>', schema: z.array(TextSearchHit) } },
    errors: { 403: 'The tenant has no access to the issue', 404: 'The issue has no indexed text' },
    handler: later('in-issue text search', READER),
  }),
  route({
    ...v1,
    auth: 'none',
    method: 'get',
    path: '/api/v1/issue-text-content/{id}',
    summary: 'Text content records of an issue',
    params: z.object({ id: z.string().min(1).max(64) }),
    query: z.object({ issue_id: id('Issue id') }),
    responses: { 200: { description: 'IssueTextContent records', schema: z.array(z.record(z.string(), z.unknown())) } },
    handler: later('issue text content', READER),
  }),
  translateRoute('/api/v1/integrations/translate', 'Translate a passage'),
  translateRoute('/api/v1/integrations/google-translate', 'Translate a passage (legacy alias of /integrations/translate)'),
  listenRoute('/api/v1/integrations/listen', 'Speak a passage (MP3)'),
  listenRoute('/api/v1/integrations/amazon-polly', 'Speak a passage (legacy alias of /integrations/listen)'),
  route({
    ...readerAuth,
    method: 'post',
    path: '/api/v1/integrations/dictionary',
    summary: 'Define a word or short phrase',
    body: dictionaryBody,
    responses: { 200: { description: 'Definition', schema: z.record(z.string(), z.unknown()) } },
    handler: later('the dictionary', INTEGRATIONS),
  }),
  route({
    ...readerAuth,
    method: 'get',
    path: '/api/v1/integrations/ai-integrations',
    summary: 'AI actions with localized labels',
    responses: { 200: { description: 'Actions', schema: AiActions } },
    handler: later('AI actions', INTEGRATIONS),
  }),
  route({
    ...readerAuth,
    method: 'post',
    path: '/api/v1/integrations/ai-integrations',
    summary: 'Run an AI action on a passage',
    body: aiActionBody,
    responses: { 200: { description: 'Result', schema: AiResult } },
    handler: later('AI actions', INTEGRATIONS),
  }),
  route({
    ...readerAuth,
    method: 'put',
    path: '/api/v1/integrations/ai-integrations',
    summary: 'Rate an AI response once (`score` is an integer in v1)',
    body: z.object({ uuid: z.string().min(1).max(64), score: z.number().int() }),
    responses: { 200: { description: 'Rated; empty body' } },
    handler: later('AI ratings', INTEGRATIONS),
  }),
];
