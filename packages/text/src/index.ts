// Text rules every service must agree on, so that one word is one term in
// every search and one string is escaped the same way in every page.
//
// Folding (the one normalisation for store search and in-issue search): the
// word is compatibility-decomposed (NFKD: the ligature "ﬁ" is "fi", "²" is
// "2"), its combining marks are dropped ("é" is "e"), it is lower-cased and
// "ß" becomes "ss" (German's own spelling without ß). So "Straße",
// "STRASSE" and "Strasse" are one term, as are "Café", "CAFE" and "Cafe\u0301".

const MARKS = /\p{M}+/gu;
const NOT_ASCII = /[^\x00-\x7f]/;

/** Lower-cased, accent-free, compatibility-folded form of a text; ASCII takes a fast path. */
export function foldText(text: string): string {
  const lower = text.toLowerCase();
  if (!NOT_ASCII.test(lower)) return lower;
  return lower.normalize('NFKD').replace(MARKS, '').replace(/ß/g, 'ss');
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}
