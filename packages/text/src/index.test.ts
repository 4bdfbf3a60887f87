import { describe, expect, it } from 'vitest';
import { escapeHtml, foldText } from './index.js';

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
