// Dictionary: the definitions of a word or expression (at most 5 words) in
// one of the app's languages.
import { invalidArgument } from '@folio/errors';
import type { Caller } from './caller.js';
import { requireAppLanguage } from './languages.js';
import type { Dictionary, DictionaryEntry } from './ports.js';
import { LIMITS, readText } from './text-input.js';

export interface DefineOutcome {
  word: string;
  lang: string;
  definitions: DictionaryEntry[];
  source: string;
}

export class DefineWord {
  constructor(private readonly dictionary: Dictionary) {}

  async run(caller: Caller, input: { text: string; lang: string }): Promise<DefineOutcome> {
    const lang = requireAppLanguage('lang', input.lang);
    // A selection often drags punctuation along ("lighthouse," or “faro”): look up the words.
    const word = readText(caller, input.text, LIMITS.dictionary)
      .replace(/^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu, '')
      .replace(/\s+/g, ' ');
    if (word.length === 0) throw invalidArgument('The given data was invalid.', { text: ['The text must contain a word.'] });
    const result = await this.dictionary.define(word, lang);
    return { word, lang, definitions: result.definitions, source: result.source };
  }
}
