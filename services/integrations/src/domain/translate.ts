// Translate: the selection into `target_lang`, default the X-App-Lang of the
// request, else the tenant's language (a reader translates into the language
// they use the app in). Answers the Google Translate v2 shape plus a uuid.
import { randomUUID } from 'node:crypto';
import { invalidArgument } from '@folio/errors';
import type { Caller } from './caller.js';
import { appLanguageOr, baseLanguage } from './languages.js';
import type { Translator } from './ports.js';
import { LIMITS, readText } from './text-input.js';

export interface TranslateOutcome {
  translatedText: string;
  detectedSourceLanguage: string;
  uuid: string;
}

export class TranslateText {
  constructor(private readonly translator: Translator) {}

  async run(caller: Caller, input: { text: string; targetLang?: string | undefined }): Promise<TranslateOutcome> {
    const target = this.target(caller, input.targetLang);
    const text = readText(caller, input.text, LIMITS.translate);
    const result = await this.translator.translate(text, target);
    return { translatedText: result.text, detectedSourceLanguage: result.detectedSourceLanguage, uuid: randomUUID() };
  }

  private target(caller: Caller, requested: string | undefined): string {
    if (requested === undefined || requested.trim() === '') return appLanguageOr(caller.appLang, caller.tenantLang);
    const base = baseLanguage(requested);
    if (!base || !this.translator.supportsTarget(base)) {
      throw invalidArgument('The given data was invalid.', { target_lang: [`The target language ${requested} is not supported.`] });
    }
    return base;
  }
}
