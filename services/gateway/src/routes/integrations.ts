// Text integrations in the reader: translate, listen, dictionary, AI actions,
// for API v2 (Bearer + X-Svc-Tenant-Id + reader-token) and the reader engine's
// v1 (reader-token on the store host, with the legacy aliases). Both versions
// are one use case each: the reader service vouches for the reader-token, and
// the integrations service decrypts and checks the text (both limit layers),
// so the gateway only checks JSON types here.
import type { Request } from 'express';
import { z } from 'zod';
import { integrations } from '@folio/proto';
import { route, type Route, type RouteContext } from '../http/route.js';
import { aiActionsToWire, aiLabelLang } from '../render/integrations.js';
import { textEncodingOf } from '../render/text-encoding.js';
import { AiActions, AiResult, TranslateResponse } from './schemas.js';

type Version = 'v1' | 'v2';

const MANIFEST_VERSION_HEADER = 'X-Reader-Manifest-Version';

const text = z
  .string()
  .min(1)
  .meta({
    description:
      'Encrypted with the reader session key (base64 of iv, ciphertext, tag). v1 clients below manifest 2.0.0 send plaintext. ' +
      'Limits are checked on the payload as sent and on the decrypted text (see the spec).',
  });
const lang = z.string().min(2).max(16);

const translateBody = z.object({ text, target_lang: lang.optional() });
const listenBody = z.object({ text, voiceId: z.string().max(64).optional() });
const dictionaryBody = z.object({ text, lang });
const aiActionBody = z.object({ action: z.string().min(1).max(32), text, lang: lang.optional() });

const Definition = z
  .object({
    word: z.string(),
    lang: z.string(),
    definitions: z.array(z.object({ partOfSpeech: z.string(), definition: z.string(), examples: z.array(z.string()), synonyms: z.array(z.string()) })),
    source: z.string().meta({ description: 'wordnet, wordnet+apertium or ai' }),
  })
  .meta({ id: 'Definition' });

interface Where {
  version: Version;
  /** The path under the version's base. */
  path: string;
}

// No cached read shows what integrations keep (AI answers, ratings): asking for a translation does not outdate the user's library.
function placement(
  version: Version,
  path: string,
): { path: string; tag: string; auth: 'jwt+reader-token' | 'reader-token'; tenant: 'single' | 'store'; leavesCachedReads: true } {
  return version === 'v2'
    ? { path: `/api/v2/reader/integrations/${path}`, tag: 'Integrations', auth: 'jwt+reader-token', tenant: 'single', leavesCachedReads: true }
    : { path: `/api/v1/integrations/${path}`, tag: 'Reader API v1', auth: 'reader-token', tenant: 'store', leavesCachedReads: true };
}

/** Who calls and how their text is to be read: the reader-token's scope (verified by the pipeline) plus the tenant's settings. */
async function callerOf(version: Version, context: RouteContext<unknown, unknown, unknown>): Promise<integrations.Caller> {
  // `context.user` exists on v2 routes only (v1 has no JWT): read it there only.
  const { readerScope: scope, tenant, lang: appLang, req } = context;
  const manifestVersion = version === 'v1' ? manifestVersionOf(req) : undefined;
  return {
    tenantId: scope.tenantId,
    userId: scope.userId,
    issueId: scope.issueId,
    readerToken: scope.readerToken,
    sessionId: scope.sessionId,
    preview: scope.preview,
    previewLimit: scope.previewLimit,
    textEncoding: textEncodingOf(version, manifestVersion),
    tenantLang: tenant.lang,
    ttsEnabled: tenant.features?.tts ?? false,
    appLang: req.get('x-app-lang') ? appLang : undefined,
  };
}

function manifestVersionOf(req: Request): string | undefined {
  const value = req.get(MANIFEST_VERSION_HEADER)?.trim();
  return value ? value.slice(0, 32) : undefined;
}

const manifestDoc = ` v1: text is encrypted from ${MANIFEST_VERSION_HEADER} 2.0.0 on, plaintext below.`;

function translateRoute({ version, path }: Where, summary: string): Route {
  return route({
    ...placement(version, path),
    method: 'post',
    summary,
    description:
      'Translation by the configured engine (Apertium locally). `target_lang` defaults to X-App-Lang, else the tenant language.' +
      (version === 'v1' ? manifestDoc : ''),
    body: translateBody,
    responses: { 200: { description: 'Translation', schema: TranslateResponse } },
    errors: { 422: 'Text over a limit, not decryptable, or an unsupported language' },
    handler: async (context) => {
      const { body, services } = context;
      const result = await services.integrations.translate({ caller: await callerOf(version, context), text: body.text, targetLang: body.target_lang });
      return {
        status: 200,
        body: {
          data: {
            translations: result.translations.map((t) => ({ translatedText: t.translatedText, detectedSourceLanguage: t.detectedSourceLanguage })),
          },
          uuid: result.uuid,
        },
      };
    },
  });
}

function listenRoute({ version, path }: Where, summary: string): Route {
  return route({
    ...placement(version, path),
    method: 'post',
    summary,
    description:
      'MP3 spoken by the configured engine (espeak-ng locally); results are cached 30 minutes by voice and text. ' +
      'voiceId: Joanna, Matthew, Amy (en), Lucia, Enrique, Mia (es), Camila, Ricardo, Ines (pt), Bianca, Giorgio (it). ' +
      '403 when the tenant has no text-to-speech.' +
      (version === 'v1' ? manifestDoc : ''),
    body: listenBody,
    responses: { 200: { description: 'MP3 audio', contentType: 'audio/mpeg', schema: z.string().meta({ format: 'binary' }) } },
    errors: { 403: 'Text to speech is off for this tenant, or a bad reader-token', 422: 'Text over a limit, not decryptable, or an unknown voice' },
    handler: async (context) => {
      const { body, services } = context;
      const result = await services.integrations.listen({ caller: await callerOf(version, context), text: body.text, voiceId: body.voiceId });
      return {
        status: 200,
        binary: { contentType: 'audio/mpeg', data: Buffer.from(result.audio) },
        headers: { 'X-Cache': result.cacheHit ? 'HIT' : 'MISS' },
      };
    },
  });
}

function dictionaryRoute({ version, path }: Where): Route {
  return route({
    ...placement(version, path),
    method: 'post',
    summary: 'Define a word or an expression of at most 5 words',
    description:
      'English definitions from WordNet; for es, pt and it the local engine translates to English, looks up and translates back. ' +
      'An unknown word answers 200 with no definitions.' +
      (version === 'v1' ? manifestDoc : ''),
    body: dictionaryBody,
    responses: { 200: { description: 'Definitions, most common sense first', schema: Definition } },
    errors: { 422: 'More than 5 words, over the encrypted limit, or not decryptable' },
    handler: async (context) => {
      const { body, services } = context;
      const result = await services.integrations.define({ caller: await callerOf(version, context), text: body.text, lang: body.lang });
      return { status: 200, body: { word: result.word, lang: result.lang, definitions: result.definitions, source: result.source } };
    },
  });
}

function aiRoutes({ version, path }: Where): Route[] {
  const at = placement(version, path);
  return [
    route({
      ...at,
      method: 'get',
      summary: 'AI actions with labels in X-App-Lang (else the tenant language)',
      responses: { 200: { description: 'Action key to label', schema: AiActions } },
      handler: async (context) => {
        const result = await context.services.integrations.listAiActions({ caller: await callerOf(version, context) });
        const lang = aiLabelLang(context.req.get('x-app-lang') ? context.lang : undefined, context.tenant.lang);
        return {
          status: 200,
          body: aiActionsToWire(
            result.actions.map((action) => action.key),
            lang,
          ),
        };
      },
    }),
    route({
      ...at,
      method: 'post',
      summary: 'Run an AI action (explain, expand, summarize) on a passage of 10-4000 characters',
      description: 'The answer is stored so that it can be rated once. `lang` defaults to the tenant language.' + (version === 'v1' ? manifestDoc : ''),
      body: aiActionBody,
      responses: { 200: { description: 'Result', schema: AiResult } },
      errors: { 422: 'Unknown action, text over a limit or not decryptable', 503: 'The AI provider failed or is unavailable (Retry-After)' },
      handler: async (context) => {
        const { body, services } = context;
        const caller = await callerOf(version, context);
        const result = await services.integrations.runAiAction({ caller, action: body.action, text: body.text, lang: body.lang });
        return { status: 200, body: { uuid: result.uuid, text: result.text, language: result.language } };
      },
    }),
    route({
      ...at,
      method: 'put',
      summary:
        version === 'v2'
          ? 'Rate an AI response once (`score` true positive, false negative)'
          : 'Rate an AI response once (`score` integer: > 0 positive, <= 0 negative)',
      body: z.object({
        uuid: z.string().min(1).max(64),
        score: version === 'v2' ? z.boolean() : z.number().int().min(-2_147_483_648).max(2_147_483_647),
      }),
      responses: { 200: { description: 'Rated; empty body' } },
      errors: { 422: "Unknown uuid, another user's response, or already rated" },
      handler: async (context) => {
        const { body, services } = context;
        const caller = await callerOf(version, context);
        const score = body.score as boolean | number;
        await services.integrations.rateAiResponse(
          typeof score === 'boolean' ? { caller, uuid: body.uuid, positive: score } : { caller, uuid: body.uuid, score },
        );
        return { status: 200 };
      },
    }),
  ];
}

function integrationRoutesOf(version: Version): Route[] {
  return [
    translateRoute({ version, path: 'translate' }, 'Translate a passage'),
    ...(version === 'v1' ? [translateRoute({ version, path: 'google-translate' }, 'Translate a passage (legacy alias of /integrations/translate)')] : []),
    listenRoute({ version, path: 'listen' }, 'Speak a passage (MP3)'),
    ...(version === 'v1' ? [listenRoute({ version, path: 'amazon-polly' }, 'Speak a passage (legacy alias of /integrations/listen)')] : []),
    dictionaryRoute({ version, path: 'dictionary' }),
    ...aiRoutes({ version, path: 'ai-integrations' }),
  ];
}

export const integrationRoutes = integrationRoutesOf('v2');
export const integrationRoutesV1 = integrationRoutesOf('v1');
