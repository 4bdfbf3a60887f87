// The provider interfaces the use cases depend on. Each has a local engine and
// a hosted adapter in engines/; app.ts picks one from the configuration and
// wraps it in a circuit breaker, so a use case never knows which it talks to.
import type { ReaderSession } from './caller.js';

/** Every provider call may be cancelled: its timeout kills the child process or aborts the request. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface TranslationResult {
  text: string;
  /** ISO 639-1. */
  detectedSourceLanguage: string;
}

export interface Translator {
  readonly name: string;
  /** Whether `target` (ISO 639-1) can be translated into at all. */
  supportsTarget(target: string): boolean;
  /** Translates `text` into `target`; `source` when known, else detected. */
  translate(text: string, target: string, options?: CallOptions & { source?: string }): Promise<TranslationResult>;
}

/** Guesses the language of a text among `candidates` (ISO 639-1); undefined when it cannot tell. */
export interface LanguageDetector {
  detect(text: string, candidates?: readonly string[]): string | undefined;
}

export interface SpeechSynthesizer {
  readonly name: string;
  /** MP3 bytes of `text` spoken by the catalog voice `voiceId`. */
  synthesize(text: string, voiceId: string, options?: CallOptions): Promise<Buffer>;
}

export interface DictionaryEntry {
  partOfSpeech: string;
  definition: string;
  examples: string[];
  synonyms: string[];
}

export interface DictionaryResult {
  definitions: DictionaryEntry[];
  source: string;
}

export interface Dictionary {
  readonly name: string;
  define(expression: string, lang: string, options?: CallOptions): Promise<DictionaryResult>;
}

export type AiActionName = 'explain' | 'expand' | 'summarize';

export interface AiRequest {
  action: AiActionName;
  text: string;
  /** Language of the answer (an app language). */
  lang: string;
  /** Where the text comes from: `expand` reads the surrounding passages of this issue. */
  context: PassageContext;
}

export interface AiEngine {
  readonly name: string;
  run(request: AiRequest, options?: CallOptions): Promise<string>;
}

/** The reader session a passage lookup runs in (verified by the gateway). */
export interface PassageContext {
  tenantId: number;
  userId: number;
  issueId: number;
  session: ReaderSession;
}

/** Passages of an issue's text around a selection (the reader's text index). */
export interface PassageSource {
  around(request: PassageContext & { text: string; maxPassages: number }, options?: CallOptions): Promise<string[]>;
}

/** Binary cache of synthesized speech; a failing cache is a miss, never an error. */
export interface AudioCache {
  get(key: string): Promise<Buffer | undefined>;
  set(key: string, audio: Buffer): Promise<void>;
}
