// The providers as the use cases see them: each call of a local engine or
// hosted adapter runs under that provider's breaker (see breaker.ts).
import type { AiEngine, AiRequest, Dictionary, DictionaryResult, PassageSource, SpeechSynthesizer, TranslationResult, Translator } from '../domain/ports.js';
import type { ProviderBreaker } from './breaker.js';

export class GuardedTranslator implements Translator {
  constructor(
    private readonly inner: Translator,
    private readonly breaker: ProviderBreaker,
  ) {}
  get name() {
    return this.inner.name;
  }
  supportsTarget(target: string): boolean {
    return this.inner.supportsTarget(target);
  }
  translate(text: string, target: string, options: { source?: string } = {}): Promise<TranslationResult> {
    return this.breaker.run((signal) => this.inner.translate(text, target, { ...options, signal }));
  }
}

export class GuardedSynthesizer implements SpeechSynthesizer {
  constructor(
    private readonly inner: SpeechSynthesizer,
    private readonly breaker: ProviderBreaker,
  ) {}
  get name() {
    return this.inner.name;
  }
  synthesize(text: string, voiceId: string): Promise<Buffer> {
    return this.breaker.run((signal) => this.inner.synthesize(text, voiceId, { signal }));
  }
}

export class GuardedDictionary implements Dictionary {
  constructor(
    private readonly inner: Dictionary,
    private readonly breaker: ProviderBreaker,
  ) {}
  get name() {
    return this.inner.name;
  }
  define(expression: string, lang: string): Promise<DictionaryResult> {
    return this.breaker.run((signal) => this.inner.define(expression, lang, { signal }));
  }
}

export class GuardedAiEngine implements AiEngine {
  constructor(
    private readonly inner: AiEngine,
    private readonly breaker: ProviderBreaker,
  ) {}
  get name() {
    return this.inner.name;
  }
  run(request: AiRequest): Promise<string> {
    return this.breaker.run((signal) => this.inner.run(request, { signal }));
  }
}

export class GuardedPassageSource implements PassageSource {
  constructor(
    private readonly inner: PassageSource,
    private readonly breaker: ProviderBreaker,
  ) {}
  around(request: Parameters<PassageSource['around']>[0]): Promise<string[]> {
    return this.breaker.run((signal) => this.inner.around(request, { signal }));
  }
}
