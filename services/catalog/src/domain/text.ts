// How text becomes search terms, shared by the index and the queries so that
// both sides agree: words as @folio/text splits them (the one word rule
// in-issue search uses too: letters, combining marks and digits, apostrophes
// inside a word, Chinese, Japanese and Thai runs cut by ICU's dictionary),
// each word folded by @folio/text (NFKD, combining marks dropped,
// lower-cased, ß as ss). So `Café`, `CAFE` and `Cafe\u0301` all become
// `cafe`, `Atlântica` becomes `atlantica`, `Straße` becomes `strasse` and
// `日本の首都です` is `日本`, `の`, `首都`, `です`. A word with apostrophes
// (`Keeper's`) is its joined form in queries (`keepers`); the index keeps
// both the joined word and its parts (`keepers`, `keeper`, `s`).
//
// Folding a word is the costly part of indexing (Unicode normalization), and
// words repeat a lot, so folded words are memoized.

import { foldText, forEachWord, wordParts, writtenWithoutSpaces } from '@folio/text';

const NON_WORD = /[^\p{L}\p{N}]+/u;
/** Longer terms are cut: nobody types more, and it bounds the term dictionary. */
const MAX_TERM_LENGTH = 40;
const MEMO_LIMIT = 200_000;

const indexMemo = new Map<string, readonly string[]>();

/** Lower-cased, accent-free form of a text (letters, digits and separators stay); whether it has a script without spaces. */
export { foldText, writtenWithoutSpaces };

/** The terms of one apostrophe-free piece of a word: usually one, more when NFKD yields separators (`½`). */
function pieceTerms(piece: string): string[] {
  const folded = foldText(piece);
  const terms = NON_WORD.test(folded) ? folded.split(NON_WORD).filter(Boolean) : folded ? [folded] : [];
  return terms.map((term) => (term.length > MAX_TERM_LENGTH ? term.slice(0, MAX_TERM_LENGTH) : term));
}

function wordIndexTerms(word: string): readonly string[] {
  let terms = indexMemo.get(word);
  if (terms) return terms;
  const parts = wordParts(word);
  terms = parts.length > 1 ? [...pieceTerms(parts.join('')), ...parts.flatMap(pieceTerms)] : pieceTerms(parts[0] ?? '');
  if (indexMemo.size >= MEMO_LIMIT) indexMemo.clear();
  indexMemo.set(word, terms);
  return terms;
}

/** Terms a field contributes to the index, in order (repeats included). */
export function indexTerms(text: string): string[] {
  const terms: string[] = [];
  forEachWord(text, (word) => {
    for (const term of wordIndexTerms(word)) terms.push(term);
  });
  return terms;
}

/** Terms of a query, in order, without repeats. */
export function queryTerms(query: string, max = 16): string[] {
  const terms: string[] = [];
  forEachWord(query, (word) => {
    if (terms.length === max) return;
    for (const term of pieceTerms(wordParts(word).join(''))) {
      if (terms.length < max && !terms.includes(term)) terms.push(term);
    }
  });
  return terms;
}

/** The query as the API sees it: NFC-normalized and trimmed; its length counts code points. */
export function normalizeQuery(query: string): { text: string; length: number } {
  const text = query.normalize('NFC').trim();
  return { text, length: [...text].length };
}
