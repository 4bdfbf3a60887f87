// Text integrations in the reader (v2): translate, listen, dictionary, AI actions.
import { z } from 'zod';
import { later, route } from '../http/route.js';
import { AiActions, aiActionBody, AiResult, dictionaryBody, listenBody, translateBody, TranslateResponse } from './schemas.js';

const INTEGRATIONS = 'the integrations release';
const base = { tag: 'Integrations', auth: 'jwt+reader-token', tenant: 'single' } as const;

export const integrationRoutes = [
  route({
    ...base,
    method: 'post',
    path: '/api/v2/reader/integrations/translate',
    summary: 'Translate a passage',
    body: translateBody,
    responses: { 200: { description: 'Translation', schema: TranslateResponse } },
    handler: later('translation', INTEGRATIONS),
  }),
  route({
    ...base,
    method: 'post',
    path: '/api/v2/reader/integrations/listen',
    summary: 'Speak a passage (MP3)',
    body: listenBody,
    responses: { 200: { description: 'MP3 audio', contentType: 'audio/mpeg', schema: z.string().meta({ format: 'binary' }) } },
    handler: later('text to speech', INTEGRATIONS),
  }),
  route({
    ...base,
    method: 'post',
    path: '/api/v2/reader/integrations/dictionary',
    summary: 'Define a word or short phrase (at most 5 words)',
    body: dictionaryBody,
    responses: { 200: { description: 'AI-generated definition', schema: z.record(z.string(), z.unknown()) } },
    handler: later('the dictionary', INTEGRATIONS),
  }),
  route({
    ...base,
    method: 'get',
    path: '/api/v2/reader/integrations/ai-integrations',
    summary: 'AI actions with localized labels',
    responses: { 200: { description: 'Actions', schema: AiActions } },
    handler: later('AI actions', INTEGRATIONS),
  }),
  route({
    ...base,
    method: 'post',
    path: '/api/v2/reader/integrations/ai-integrations',
    summary: 'Run an AI action on a passage (10-4000 characters decrypted)',
    body: aiActionBody,
    responses: { 200: { description: 'Result', schema: AiResult } },
    handler: later('AI actions', INTEGRATIONS),
  }),
  route({
    ...base,
    method: 'put',
    path: '/api/v2/reader/integrations/ai-integrations',
    summary: 'Rate an AI response once',
    body: z.object({ uuid: z.string().min(1).max(64), score: z.boolean().meta({ description: 'true positive, false negative' }) }),
    responses: { 200: { description: 'Rated; empty body' } },
    errors: { 422: 'Unknown uuid, not the user\'s response, or already rated' },
    handler: later('AI ratings', INTEGRATIONS),
  }),
];
