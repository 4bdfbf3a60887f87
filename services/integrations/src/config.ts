// Typed configuration of the integrations service, parsed once at boot. Every
// other module receives the parsed object; nothing else reads process.env.
import { accountEraserEnv, env, loadConfig, serviceEnv } from '@folio/config';
import { z } from 'zod';

/** An optional URL: unset or blank means "not configured" (the local engine is used). */
const optionalUrl = () =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))
    .pipe(z.string().url().optional());
const optionalString = () =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const millis = (fallback: number) => env.int(fallback).pipe(z.number().min(1));

export const configSchema = serviceEnv({ grpcPort: 50056, database: 'folio_integrations' }).extend({
  /** Redis key prefix of the listen cache (tests use one per file). */
  LISTEN_CACHE_PREFIX: env.string('integrations:listen'),
  /** The spec fixes the listen cache at 30 minutes. */
  LISTEN_CACHE_TTL_SECONDS: env.int(1800).pipe(z.number().min(1)),

  // Local engines (Debian packages apertium*, espeak-ng, lame, wordnet-base).
  APERTIUM_BIN: env.string('apertium'),
  ESPEAK_BIN: env.string('espeak-ng'),
  LAME_BIN: env.string('lame'),
  /** MP3 bit rate of the local speech engine (kbit/s, mono). */
  LAME_BITRATE: env.int(48).pipe(z.number().min(8).max(320)),
  /** WordNet database folder (index.noun, data.noun, ...): Debian's wordnet-base. */
  WORDNET_DIR: env.string('/usr/share/wordnet'),
  /** Child processes of the local engines running at once; more calls wait in the breaker's queue. */
  LOCAL_ENGINE_CONCURRENCY: env.int(4).pipe(z.number().min(1)),

  // Hosted adapters: configured means used instead of the local engine.
  /** Google Translate v2 `translate` endpoint (POST, `?key=`), e.g. https://translation.googleapis.com/language/translate/v2 */
  TRANSLATE_HOSTED_URL: optionalUrl(),
  TRANSLATE_HOSTED_KEY: optionalString(),
  /** Amazon Polly SynthesizeSpeech endpoint (POST /v1/speech JSON), behind a signing proxy or a compatible service. */
  LISTEN_HOSTED_URL: optionalUrl(),
  LISTEN_HOSTED_KEY: optionalString(),
  /** Any OpenAI-compatible chat-completions API (OpenAI, Ollama, llama.cpp server, vLLM ...): base URL up to /v1. */
  AI_BASE_URL: optionalUrl(),
  AI_MODEL: env.string('gpt-4o-mini'),
  AI_API_KEY: optionalString(),
  /** Reader service, source of the surrounding passages for the local `expand`; blank = the selection's own context. */
  READER_ADDR: env.optionalGrpcAddress('127.0.0.1:50054'),

  // One opossum breaker per provider: a call past its timeout fails, and after
  // BREAKER_VOLUME calls with BREAKER_ERROR_PERCENT failures the breaker opens
  // for BREAKER_RESET_MS (the Retry-After of the 503s meanwhile).
  TRANSLATE_TIMEOUT_MS: millis(8_000),
  LISTEN_TIMEOUT_MS: millis(10_000),
  DICTIONARY_TIMEOUT_MS: millis(8_000),
  AI_TIMEOUT_MS: millis(30_000),
  PASSAGES_TIMEOUT_MS: millis(2_000),
  BREAKER_RESET_MS: millis(30_000),
  BREAKER_ERROR_PERCENT: env.int(50).pipe(z.number().min(1).max(100)),
  BREAKER_VOLUME: env.int(5).pipe(z.number().min(1)),

  /** identity's exchange (account.deleted: integrations erases the user's AI responses), the eraser's queue and retries. */
  ...accountEraserEnv('integrations'),
});

export type IntegrationsConfig = z.infer<typeof configSchema>;

export function loadIntegrationsConfig(environment: Record<string, string | undefined> = process.env): IntegrationsConfig {
  return loadConfig(configSchema, environment);
}
