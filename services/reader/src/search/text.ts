// Text normalization shared by indexing and querying: words as @folio/text
// splits them (the one word rule store search uses too: letters, marks and
// digits, apostrophes inside a word, Chinese, Japanese and Thai runs cut by
// ICU's dictionary, so "首都です" is 首都 / です); a term is the word folded by
// @folio/text (NFKD, no diacritics, lower case, ß as ss), so "Café", "cafe"
// and "CAFÉ" are one term, and so are "Straße" and "strasse". A word with
// apostrophes ("l'atlas") is indexed as its joined form and as its parts
// (`latlas`, `l`, `atlas`), and queried by the joined form, as in store search.
import { foldText, forEachWord, wordParts } from '@folio/text';

export { writtenWithoutSpaces } from '@folio/text';

export interface Token {
  term: string;
  /** Offsets of the word in the original text, [start, end). */
  start: number;
  end: number;
}

export function normalizeTerm(word: string): string {
  return foldText(word);
}

const APOSTROPHE = /['\u2019]/;

/** The terms of a text for the index, in order: a word with apostrophes gives its joined form, then each part at its own offsets. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  forEachWord(text, (word, start, end) => {
    // Most words have no apostrophe: one term, without splitting.
    if (!APOSTROPHE.test(word)) {
      const term = normalizeTerm(word);
      if (term.length > 0) tokens.push({ term, start, end });
      return;
    }
    const parts = wordParts(word);
    const joined = normalizeTerm(parts.join(''));
    if (joined.length > 0) tokens.push({ term: joined, start, end });
    let from = start;
    for (const part of parts) {
      const at = text.indexOf(part, from);
      from = at + part.length;
      const term = normalizeTerm(part);
      if (term.length > 0) tokens.push({ term, start: at, end: from });
    }
  });
  return tokens;
}

/** The terms of a query, in order: one per word (a word with apostrophes by its joined form). */
export function queryTokens(search: string): Token[] {
  const tokens: Token[] = [];
  forEachWord(search, (word, start, end) => {
    const term = normalizeTerm(wordParts(word).join(''));
    if (term.length > 0) tokens.push({ term, start, end });
  });
  return tokens;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Words of a text as a reader counts them (for `total_words` and preview
 * shares): runs of letters, marks and digits, as when the issues already
 * ingested were counted, so their figures do not change.
 */
export function countWords(text: string): number {
  let count = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text)) count += 1;
  return count;
}
