import { describe, expect, it } from 'vitest';
import { escapeHtml, foldText, forEachWord, wordParts, wordsOf, writtenWithoutSpaces } from './index.js';

describe('foldText', () => {
  it('when a word has ß, then it folds like its ss spelling', () => {
    expect(foldText('Straße')).toBe('strasse');
    expect(foldText('STRASSE')).toBe('strasse');
    expect(foldText('STRAẞE')).toBe('strasse');
  });

  it('when a word has accents, case or decomposed marks, then they fold away', () => {
    expect(foldText('Café')).toBe('cafe');
    expect(foldText('CAFE\u0301')).toBe('cafe');
    expect(foldText('Atlântica')).toBe('atlantica');
  });

  it('when Japanese kana are voiced, then the voicing stays (another word) and halfwidth forms fold to it', () => {
    expect(foldText('です')).toBe('です');
    expect(foldText('がき')).not.toBe(foldText('かき'));
    expect(foldText('ﾃﾞｽ')).toBe('デス');
    expect(foldText('Café です')).toBe('cafe です');
  });

  it('when a word has compatibility characters, then they are decomposed', () => {
    expect(foldText('ﬁnal')).toBe('final');
    expect(foldText('x²')).toBe('x2');
  });
});

describe('escapeHtml', () => {
  it('when text has markup characters, then they are escaped', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('words', () => {
  it('when Latin text has punctuation and inner apostrophes, then a word keeps its apostrophes and loses the quotes around it', () => {
    expect(wordsOf("The keeper's lamp, 'l'atlas' and rock'n'roll: ½ e-mail")).toEqual([
      'The',
      "keeper's",
      'lamp',
      "l'atlas",
      'and',
      "rock'n'roll",
      '½',
      'e',
      'mail',
    ]);
    expect(wordsOf('l\u2019atlas')).toEqual(['l\u2019atlas']);
    expect(wordParts("l'atlas")).toEqual(['l', 'atlas']);
    expect(wordParts('atlas')).toEqual(['atlas']);
  });

  it('when Japanese or Chinese has no spaces, then the dictionary rules cut a sentence into its words', () => {
    expect(wordsOf('日本の首都です')).toEqual(['日本', 'の', '首都', 'です']);
    expect(wordsOf('北京是中国的首都。')).toEqual(['北京', '是', '中国', '的', '首都']);
    expect(wordsOf('東京は日本の首都です')).toContain('首都');
  });

  it('when scripts mix, then only the runs without spaces are segmented and offsets point into the text', () => {
    const text = "Guide: 日本の首都 and l'atlas";
    const seen: [string, string][] = [];
    forEachWord(text, (word, start, end) => seen.push([word, text.slice(start, end)]));
    for (const [word, slice] of seen) expect(slice).toBe(word);
    expect(seen.map(([word]) => word)).toEqual(['Guide', '日本', 'の', '首都', 'and', "l'atlas"]);
  });

  it('when a text has Han, kana or Thai, then it is written without spaces; Latin, Cyrillic and Hangul are not', () => {
    expect(['東', 'の', 'タ', 'ภาษาไทย'].map(writtenWithoutSpaces)).toEqual([true, true, true, true]);
    expect(['atlas', 'Москва', '서울'].map(writtenWithoutSpaces)).toEqual([false, false, false]);
  });
});
