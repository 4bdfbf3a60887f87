// Text rules every service must agree on, so that one word is one term in
// every search and one string is escaped the same way in every page.
//
// Folding (the one normalisation for store search and in-issue search): the
// word is compatibility-decomposed (NFKD: the ligature "ﬁ" is "fi", "²" is
// "2"), its combining marks are dropped ("é" is "e") but for kana voicing
// ("で" stays "で", halfwidth "ﾃﾞ" becomes it), it is lower-cased and
// "ß" becomes "ss" (German's own spelling without ß). So "Straße",
// "STRASSE" and "Strasse" are one term, as are "Café", "CAFE" and "Cafe\u0301".

const MARKS = /\p{M}+/gu;
const NOT_ASCII = /[^\x00-\x7f]/;
// Kana voicing marks make other words (かき "oyster", がき "brat"), unlike accents: kept, and recomposed.
const KANA_VOICING = /[\u3099\u309a]/;
const MARKS_BUT_VOICING = /(?![\u3099\u309a])\p{M}/gu;

/** Lower-cased, accent-free, compatibility-folded form of a text; ASCII takes a fast path. */
export function foldText(text: string): string {
  const lower = text.toLowerCase();
  if (!NOT_ASCII.test(lower)) return lower;
  const decomposed = lower.normalize('NFKD');
  if (KANA_VOICING.test(decomposed)) return decomposed.replace(MARKS_BUT_VOICING, '').normalize('NFC').replace(/ß/g, 'ss');
  return decomposed.replace(MARKS, '').replace(/ß/g, 'ss');
}

// Words (the one word rule for store search and in-issue search): a word is
// a run of letters, combining marks and digits, apostrophes inside it
// included ("Keeper's", "l'atlas": what a word with apostrophes means is the
// caller's: catalog and reader index its joined form and its parts, and
// query by the joined form). Scripts written without spaces between words
// (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) have their runs cut
// by ICU's dictionary rules (Intl.Segmenter, word granularity), so
// "日本の首都です" is 日本 / の / 首都 / です. The segmenter is slow next to a
// regular expression, so it only sees those runs; Latin text never reaches it.

const WORD = /[\p{L}\p{M}\p{N}]+(?:['\u2019][\p{L}\p{M}\p{N}]+)*/gu;
const WITHOUT_SPACES = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
let segmenter: Intl.Segmenter | undefined;

/** Whether a text has characters of a script written without spaces between words, where one character can be a word. */
export function writtenWithoutSpaces(text: string): boolean {
  return WITHOUT_SPACES.test(text);
}

/** Calls `visit` with each word of a text and its offsets [start, end) in UTF-16 units, in order. */
export function forEachWord(text: string, visit: (word: string, start: number, end: number) => void): void {
  const dictionary = WITHOUT_SPACES.test(text);
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match; match = WORD.exec(text)) {
    const run = match[0];
    if (dictionary && WITHOUT_SPACES.test(run)) segmentRun(run, match.index, visit);
    else visit(run, match.index, match.index + run.length);
  }
}

/** The words of a text, in order. */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  forEachWord(text, (word) => words.push(word));
  return words;
}

function segmentRun(run: string, offset: number, visit: (word: string, start: number, end: number) => void): void {
  segmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
  for (const { segment, index, isWordLike } of segmenter.segment(run)) {
    // A run has no separators, but its apostrophes are segments of their own.
    if (isWordLike || WORD_CHAR.test(segment)) visit(segment, offset + index, offset + index + segment.length);
  }
}

const APOSTROPHES = /['\u2019]+/;

/** The apostrophe-free parts of a word ("l'atlas": l, atlas); one part when it has none. */
export function wordParts(word: string): string[] {
  return word.split(APOSTROPHES).filter(Boolean);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}
