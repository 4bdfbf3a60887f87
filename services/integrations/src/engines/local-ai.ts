// The local AI engine, used when no OpenAI-compatible endpoint is configured.
// It generates nothing; it selects and looks up:
// - summarize: the TextRank extractive summary (textrank.ts): about a third of
//   the sentences (1 to 5), the most central ones, in their original order.
// - explain: the passage's key terms (content words, weighed by how often they
//   occur, how rare they are in English and how long they are) with their
//   first WordNet definition, one "term: definition" line each (up to 3).
// - expand: the passages around the selection in the same issue, from the
//   reader's text index (PassageSource); without them, the selection itself
//   followed by the explanations of its key terms.
// Text that is not in English is looked up through the local translator, and
// every answer is translated into the requested language when the passage's
// language differs from it.
import type { Logger } from '@folio/logger';
import { APP_LANGUAGES } from '../domain/languages.js';
import type { AiEngine, AiRequest, CallOptions, LanguageDetector, PassageSource, Translator } from '../domain/ports.js';
import { contentWords, wordsOf } from './text.js';
import { summarize } from './textrank.js';
import { translateBatch } from './wordnet-dictionary.js';
import type { WordNet } from './wordnet.js';

const MAX_TERMS = 3;
const MAX_CANDIDATES = 12;
const MAX_PASSAGES = 3;

const NOTHING_TO_EXPLAIN: Record<string, string> = {
  en: 'No terms in this passage need an explanation.',
  es: 'Ningún término de este pasaje necesita explicación.',
  pt: 'Nenhum termo deste trecho precisa de explicação.',
  it: 'Nessun termine di questo passo richiede una spiegazione.',
};

export interface KeyTerm {
  /** As it appears in the passage. */
  term: string;
  definition: string;
}

export class LocalAiEngine implements AiEngine {
  readonly name = 'local';

  constructor(
    private readonly deps: {
      wordnet: WordNet;
      translator: Translator;
      detector: LanguageDetector;
      passages?: PassageSource | undefined;
      logger: Logger;
    },
  ) {}

  async run(request: AiRequest, _options: CallOptions = {}): Promise<string> {
    const textLang = this.deps.detector.detect(request.text, APP_LANGUAGES) ?? request.lang;
    switch (request.action) {
      case 'summarize':
        return this.inLanguage(summarize(request.text, textLang).sentences.join(' '), textLang, request.lang);
      case 'explain':
        return this.explain(request.text, textLang, request.lang);
      case 'expand':
        return this.expand(request, textLang);
    }
  }

  /** The key terms of `text` with their English WordNet definitions. */
  async keyTerms(text: string, textLang: string): Promise<KeyTerm[]> {
    const counts = new Map<string, { count: number; form: string }>();
    for (const word of contentWords(text, textLang)) {
      if (word.length < 4) continue;
      const entry = counts.get(word) ?? { count: 0, form: wordsOf(text).find((w) => w.toLowerCase() === word) ?? word };
      entry.count++;
      counts.set(word, entry);
    }
    const candidates = [...counts.entries()].sort((a, b) => b[1].count - a[1].count || b[0].length - a[0].length).slice(0, MAX_CANDIDATES);
    if (candidates.length === 0) return [];
    const english = await translateBatch(
      this.deps.translator,
      candidates.map(([word]) => word),
      'en',
      textLang,
    );

    const scored: { term: string; english: string; score: number }[] = [];
    for (const [index, [word, { count, form }]] of candidates.entries()) {
      const inEnglish = english[index]!.toLowerCase();
      const commonness = await this.deps.wordnet.commonness(inEnglish);
      if (commonness === undefined) continue;
      // Frequent in the passage, rare in the language, long: the words a reader stops at.
      const score = count + 1 / (1 + Math.log1p(commonness)) + word.length / 20;
      scored.push({ term: form, english: inEnglish, score });
    }
    scored.sort((a, b) => b.score - a.score);
    const terms: KeyTerm[] = [];
    for (const { term, english: inEnglish } of scored.slice(0, MAX_TERMS)) {
      const [sense] = await this.deps.wordnet.lookup(inEnglish, 1);
      if (sense) terms.push({ term, definition: sense.definition });
    }
    return terms;
  }

  private async explain(text: string, textLang: string, lang: string): Promise<string> {
    const terms = await this.keyTerms(text, textLang);
    if (terms.length === 0) return NOTHING_TO_EXPLAIN[lang] ?? NOTHING_TO_EXPLAIN.en!;
    const definitions = await translateBatch(
      this.deps.translator,
      terms.map((term) => term.definition),
      lang,
      'en',
    );
    return terms.map((term, index) => `${term.term}: ${definitions[index]}.`).join('\n');
  }

  private async expand(request: AiRequest, textLang: string): Promise<string> {
    let passages: string[] = [];
    if (this.deps.passages) {
      try {
        passages = await this.deps.passages.around({ ...request.context, text: request.text, maxPassages: MAX_PASSAGES });
      } catch (error) {
        this.deps.logger.warn({ err: error }, 'surrounding passages unavailable: expanding from the selection itself');
      }
    }
    if (passages.length > 0) {
      const passageLang = this.deps.detector.detect(passages.join(' '), APP_LANGUAGES) ?? textLang;
      return this.inLanguage(passages.join('\n\n'), passageLang, request.lang);
    }
    const selection = await this.inLanguage(request.text, textLang, request.lang);
    const explanation = await this.explain(request.text, textLang, request.lang);
    return `${selection}\n\n${explanation}`;
  }

  private async inLanguage(text: string, from: string, to: string): Promise<string> {
    if (from === to || text.length === 0) return text;
    return (await this.deps.translator.translate(text, to, { source: from })).text;
  }
}
