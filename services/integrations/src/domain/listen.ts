// Listen: the selection spoken as MP3 by a catalog voice, cached by engine,
// voice and text for 30 minutes so that a repeated request (the reader
// replays a chunk, or many readers listen to one page) does not synthesize
// again. Refused where the tenant's `tts` feature is off.
import { invalidArgument, permissionDenied } from '@folio/errors';
import type { Caller } from './caller.js';
import { appLanguageOr, APP_LANGUAGES } from './languages.js';
import type { AudioCache, LanguageDetector, SpeechSynthesizer } from './ports.js';
import { LIMITS, readText } from './text-input.js';
import { DEFAULT_VOICE, findVoice, VOICES } from './voices.js';

export interface ListenOutcome {
  audio: Buffer;
  voiceId: string;
  cacheHit: boolean;
}

export class ListenToText {
  constructor(
    private readonly deps: {
      synthesizer: SpeechSynthesizer;
      cache: AudioCache;
      detector: LanguageDetector;
      cacheKey: (engine: string, voiceId: string, text: string) => string;
    },
  ) {}

  async run(caller: Caller, input: { text: string; voiceId?: string | undefined }): Promise<ListenOutcome> {
    if (!caller.ttsEnabled) throw permissionDenied('Text-to-speech is not enabled for this store.');
    const requested = input.voiceId?.trim() ? findVoice(input.voiceId) : undefined;
    if (input.voiceId?.trim() && !requested) {
      throw invalidArgument('The given data was invalid.', {
        voiceId: [`Unknown voice ${input.voiceId}; available: ${VOICES.map((voice) => voice.id).join(', ')}.`],
      });
    }
    const text = readText(caller, input.text, LIMITS.listen);
    const voiceId = requested?.id ?? DEFAULT_VOICE[appLanguageOr(this.deps.detector.detect(text, APP_LANGUAGES), caller.tenantLang)];

    const key = this.deps.cacheKey(this.deps.synthesizer.name, voiceId, text);
    const cached = await this.deps.cache.get(key);
    if (cached) return { audio: cached, voiceId, cacheHit: true };
    const audio = await this.deps.synthesizer.synthesize(text, voiceId);
    await this.deps.cache.set(key, audio);
    return { audio, voiceId, cacheHit: false };
  }
}
