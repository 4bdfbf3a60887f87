import { describe, expect, it } from 'vitest';
import { foldText, indexTerms, normalizeQuery, queryTerms } from './text.js';

describe('search text', () => {
  it('when text has accents, case or decomposed marks, then it folds to plain lower case', () => {
    expect(foldText('Café')).toBe('cafe');
    expect(foldText('Cafe\u0301')).toBe('cafe');
    expect(foldText('ATLÂNTICA')).toBe('atlantica');
    expect(foldText('Ficção')).toBe('ficcao');
  });

  it('when a word has ß, then store search folds it as in-issue search does (@folio/text)', () => {
    expect(queryTerms('Straße')).toEqual(['strasse']);
    expect(indexTerms('Die Straße')).toEqual(['die', 'strasse']);
  });

  it('when a field is indexed, then it splits on non-letters and keeps apostrophe words whole and in parts', () => {
    expect(indexTerms("The Lighthouse Keeper's Atlas")).toEqual(['the', 'lighthouse', 'keepers', 'keeper', 's', 'atlas']);
    expect(indexTerms('Revista Pampa N° 12')).toEqual(['revista', 'pampa', 'n', '12']);
    expect(indexTerms('Harbor Monthly - March')).toEqual(['harbor', 'monthly', 'march']);
  });

  it('when a query is split, then words come in order without repeats, apostrophes joined', () => {
    expect(queryTerms("keeper's  KEEPER's atlas")).toEqual(['keepers', 'atlas']);
    expect(queryTerms('Cro\u0301nicas del río')).toEqual(['cronicas', 'del', 'rio']);
    expect(queryTerms('!!')).toEqual([]);
  });

  it('when a query is normalized, then it is NFC and trimmed and its length counts characters', () => {
    expect(normalizeQuery('  Cro\u0301nicas ')).toEqual({ text: 'Crónicas', length: 8 });
    expect(normalizeQuery('e\u0301').length).toBe(1);
  });

  it('when Japanese or Chinese text has no spaces, then its words are terms, in the index and in queries alike', () => {
    expect(indexTerms('日本の首都です')).toEqual(['日本', 'の', '首都', 'です']);
    expect(queryTerms('首都です')).toEqual(['首都', 'です']);
    expect(queryTerms('東京')).toEqual(['東京']);
    expect(indexTerms('北京是中国的首都')).toContain('首都');
  });

  it("when a word has an apostrophe (l'atlas), then it splits as in-issue search splits it (@folio/text)", () => {
    expect(indexTerms("l'atlas")).toEqual(['latlas', 'l', 'atlas']);
    expect(queryTerms("L'Atlas")).toEqual(['latlas']);
  });
});
