// The local dictionary: English definitions straight from WordNet. For
// Spanish, Portuguese and Italian, WordNet has no entries of its own, so the
// expression is translated to English with the local translator, looked up,
// and the definitions and examples are translated back (synonyms are left
// out there: word-by-word translations of English synonyms mislead more than
// they help).
import type { CallOptions, Dictionary, DictionaryEntry, DictionaryResult, Translator } from '../domain/ports.js';
import type { Sense, WordNet } from './wordnet.js';

const MAX_SENSES = 8;
/** Separates the texts of one batch translation: Apertium keeps blank lines as they are. */
const BATCH_SEPARATOR = '\n\n';

export class WordNetDictionary implements Dictionary {
  readonly name = 'wordnet';

  constructor(
    private readonly wordnet: WordNet,
    private readonly translator: Translator,
  ) {}

  async define(expression: string, lang: string, _options: CallOptions = {}): Promise<DictionaryResult> {
    if (lang === 'en') return { definitions: (await this.wordnet.lookup(expression, MAX_SENSES)).map(toEntry), source: 'wordnet' };

    const english = (await this.translator.translate(expression, 'en', { source: lang })).text;
    let senses = await this.wordnet.lookup(english, MAX_SENSES);
    // Loanwords and names often come through untranslated: try the expression itself.
    if (senses.length === 0 && english.toLowerCase() !== expression.toLowerCase()) senses = await this.wordnet.lookup(expression, MAX_SENSES);
    if (senses.length === 0) return { definitions: [], source: 'wordnet+apertium' };

    const texts = senses.flatMap((sense) => [sense.definition, ...sense.examples]);
    const translated = await translateBatch(this.translator, texts, lang);
    let at = 0;
    const definitions = senses.map((sense) => {
      const definition = translated[at++] ?? sense.definition;
      const examples = sense.examples.map((example) => translated[at++] ?? example);
      return { partOfSpeech: sense.partOfSpeech, definition, examples, synonyms: [] };
    });
    return { definitions, source: 'wordnet+apertium' };
  }
}

function toEntry(sense: Sense): DictionaryEntry {
  return { partOfSpeech: sense.partOfSpeech, definition: sense.definition, examples: sense.examples, synonyms: sense.synonyms };
}

/**
 * Translates several short English texts in one call (one process pipeline
 * instead of one per text). If the separators do not survive, falls back to
 * one call per text.
 */
export async function translateBatch(translator: Translator, texts: string[], target: string, source = 'en'): Promise<string[]> {
  if (texts.length === 0 || target === source) return texts;
  const flat = texts.map((text) => text.replace(/\s+/g, ' ').trim());
  const joined = (await translator.translate(flat.join(BATCH_SEPARATOR), target, { source })).text;
  const parts = joined.split(/\n\s*\n/).map((part) => part.trim());
  if (parts.length === flat.length) return parts;
  return Promise.all(flat.map(async (text) => (await translator.translate(text, target, { source })).text));
}
