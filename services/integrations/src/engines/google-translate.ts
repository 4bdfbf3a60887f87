// Hosted translation adapter: the Google Cloud Translation v2 REST shape
// (POST <url>?key=<key> {q, target, format, source?} ->
// {data: {translations: [{translatedText, detectedSourceLanguage}]}}) at a
// configurable URL, so any service speaking it (or a stand-in) can be used.
import { invalidArgument } from '@folio/errors';
import type { CallOptions, TranslationResult, Translator } from '../domain/ports.js';
import { postJson, ProviderHttpError } from './http.js';

interface GoogleTranslateResponse {
  data?: { translations?: { translatedText?: unknown; detectedSourceLanguage?: unknown }[] };
}

export class GoogleTranslateAdapter implements Translator {
  readonly name = 'google-translate';

  constructor(private readonly options: { url: string; key?: string | undefined }) {}

  supportsTarget(target: string): boolean {
    return /^[a-z]{2,3}$/.test(target);
  }

  async translate(text: string, target: string, options: CallOptions & { source?: string } = {}): Promise<TranslationResult> {
    const url = new URL(this.options.url);
    if (this.options.key) url.searchParams.set('key', this.options.key);
    let response: Response;
    try {
      response = await postJson(
        this.name,
        url.toString(),
        { q: text, target, format: 'text', ...(options.source && { source: options.source }) },
        { signal: options.signal },
      );
    } catch (error) {
      // Google answers 400 for a target it does not know: the client's mistake, not an outage.
      if (error instanceof ProviderHttpError && error.status === 400) {
        throw invalidArgument('The given data was invalid.', { target_lang: [`The target language ${target} is not supported.`] });
      }
      throw error;
    }
    const body = (await response.json()) as GoogleTranslateResponse;
    const first = body.data?.translations?.[0];
    if (!first || typeof first.translatedText !== 'string') throw new Error(`${this.name}: response without translations`);
    const detected = typeof first.detectedSourceLanguage === 'string' ? first.detectedSourceLanguage : (options.source ?? 'und');
    return { text: first.translatedText, detectedSourceLanguage: detected };
  }
}
