import { describe, expect, it } from 'vitest';
import { snippetHtml } from './snippet.js';

const excerpt = (text: string, matches: [number, number][], startsMidSection = false, endsMidSection = false) => ({
  text,
  matches: matches.map(([start, length]) => ({ start, length })),
  startsMidSection,
  endsMidSection,
});

describe('snippetHtml', () => {
  it('when matches are marked, then each is in the tag and the rest of the text is HTML-escaped', () => {
    const text = 'Fish & chips <b>served</b> "daily" by the keeper\'s crew';
    const chipsServed = excerpt(text, [
      [7, 5],
      [16, 6],
    ]);
    expect(snippetHtml(chipsServed, 'mark')).toBe(
      'Fish &amp; <mark>chips</mark> &lt;b&gt;<mark>served</mark>&lt;/b&gt; &quot;daily&quot; by the keeper&#39;s crew',
    );
    expect(snippetHtml(chipsServed, 'b')).toBe('Fish &amp; <b>chips</b> &lt;b&gt;<b>served</b>&lt;/b&gt; &quot;daily&quot; by the keeper&#39;s crew');
  });

  it('when the section goes on around the excerpt, then an ellipsis stands on that side and whitespace is collapsed', () => {
    expect(snippetHtml(excerpt('the  needle\n\tin it ', [[5, 6]], true, true), 'mark')).toBe('…the <mark>needle</mark> in it…');
    expect(snippetHtml(excerpt('  a needle', [[4, 6]], false, true), 'b')).toBe('a <b>needle</b>…');
  });

  it('when the text has no spaces (Japanese), then the matched word is marked inside the sentence', () => {
    expect(snippetHtml(excerpt('東京は日本の首都です。', [[0, 2]]), 'mark')).toBe('<mark>東京</mark>は日本の首都です。');
  });

  it("when matches overlap (l'atlas matched whole and by its part), then each is shown as it was matched", () => {
    expect(
      snippetHtml(
        excerpt("l'atlas", [
          [0, 7],
          [2, 5],
        ]),
        'mark',
      ),
    ).toBe('<mark>l&#39;atlas</mark><mark>atlas</mark>');
  });

  it('when there is no excerpt, then the snippet is empty', () => {
    expect(snippetHtml(undefined, 'mark')).toBe('');
  });
});
