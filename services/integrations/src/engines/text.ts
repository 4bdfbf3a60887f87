// Text helpers of the local AI engine: sentences, words and stopwords for the
// app's languages (en, es, pt, it).

const STOPWORDS: Record<string, string> = {
  en: `a about above after again against all also am an and any are as at be because been before being below between both but by
    can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how
    i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over
    own same she should so some such than that the their theirs them themselves then there these they this those through to too under
    until up very was we were what when where which while who whom why will with would you your yours yourself yourselves one two
    said says may might must shall upon yet many much every another`,
  es: `a al algo algunas algunos ante antes como con contra cual cuando de del desde donde durante e el ella ellas ellos en entre era
    eran es esa esas ese eso esos esta estaba estado estas este esto estos fue fueron ha había han hasta hay la las le les lo los mas
    más me mi mis mucho muy nada ni no nos nosotros o os otra otro otros para pero poco por porque que qué quien se sea ser si sí sido
    sin sobre su sus también tan te tiene tienen todo todos tu tus un una uno unos y ya yo él esta están son está fue ser cada`,
  pt: `a ao aos as à às com como da das de dela dele deles do dos e é ela elas ele eles em entre era eram essa esse esta este eu foi
    foram há isso isto já la lhe lhes mais mas me mesmo meu minha muito na nas nem no nos nós num numa o os ou para pela pelas pelo
    pelos por qual quando que quem se sem ser seu seus sua suas também te tem têm tu um uma umas uns você vocês são está estão cada`,
  it: `a ad agli ai al alla alle allo anche che chi ci come con contro cui da dal dalla dalle degli dei del della delle dello di dove e
    è ed era erano essere fra gli ha hanno ho i il in io la le lei li lo loro lui ma mi mia mio ne nei nel nella nelle noi non o per
    perché più poi quale quando quella quelle quello questa queste questi questo se sei si sono su sua sue sui sul sulla suo suoi tra
    tu tutti tutto un una uno voi già ogni`,
};
const STOPWORD_SETS = Object.fromEntries(Object.entries(STOPWORDS).map(([lang, words]) => [lang, new Set(words.split(/\s+/).filter(Boolean))]));

export function isStopword(word: string, lang: string): boolean {
  return (STOPWORD_SETS[lang] ?? STOPWORD_SETS.en!).has(word.toLowerCase());
}

/** Sentences by the Unicode segmentation rules of the language (ICU). */
export function sentencesOf(text: string, lang: string): string[] {
  const segmenter = new Intl.Segmenter(lang, { granularity: 'sentence' });
  return [...segmenter.segment(text.replace(/\s+/g, ' '))].map((segment) => segment.segment.trim()).filter((sentence) => /\p{L}/u.test(sentence));
}

/** Words (letters, inner apostrophes and hyphens), in their original case. */
export function wordsOf(text: string): string[] {
  return text.match(/\p{L}+(?:['’-]\p{L}+)*/gu) ?? [];
}

/** Lower-cased content words: the vocabulary TextRank compares sentences by. */
export function contentWords(text: string, lang: string): string[] {
  return wordsOf(text)
    .map((word) => word.toLowerCase())
    .filter((word) => word.length > 2 && !isStopword(word, lang));
}
