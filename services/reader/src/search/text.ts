// Text normalization shared by indexing and querying: words are runs of
// letters, marks and digits; a term is the word folded by @folio/text, the
// one rule store search uses too (NFKD, no diacritics, lower case, ß as ss),
// so "Café", "cafe" and "CAFÉ" are one term, and so are "Straße" and "strasse".
import { foldText } from '@folio/text';

export { escapeHtml } from '@folio/text';

export interface Token {
  term: string;
  /** Offsets of the word in the original text, [start, end). */
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
export function normalizeTerm(word: string): string {
  return foldText(word);
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match; match = WORD.exec(text)) {
    const term = normalizeTerm(match[0]);
    if (term.length === 0) continue;
    tokens.push({ term, start: match.index, end: match.index + match[0].length });
  }
  return tokens;
}

/** Words of a text as a reader counts them (for `total_words` and preview shares). */
export function countWords(text: string): number {
  let count = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text)) count += 1;
  return count;
}
