import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cfiOfRange, excerptOf, queryWords, TextIndex, type TextExcerpt, type TextSegment } from './text-index.js';
import { normalizeTerm, tokenize } from './text.js';

const page = (page: number, text: string, section = 1): TextSegment => ({ page, section, text, pageOffset: 0 });

/** The matched words of an excerpt, as its text holds them. */
const matchedWords = (excerpt: TextExcerpt) => excerpt.matches.map(({ start, length }) => excerpt.text.slice(start, start + length));

describe('text normalization', () => {
  it('when words carry diacritics or case, then their terms are folded', () => {
    expect(['Café', 'CAFÉ', 'cafe', 'Ca\u0301fe'].map(normalizeTerm)).toEqual(['cafe', 'cafe', 'cafe', 'cafe']);
    // The rule store search uses too (@folio/text): ß is ss.
    expect(['Straße', 'STRASSE', 'strasse'].map(normalizeTerm)).toEqual(['strasse', 'strasse', 'strasse']);
    expect(tokenize('El río, ¡amaneció!').map((t) => [t.term, t.start, t.end])).toEqual([
      ['el', 0, 2],
      ['rio', 3, 6],
      ['amanecio', 9, 17],
    ]);
  });
});

describe('text index search', () => {
  const index = TextIndex.build([
    page(1, 'The lighthouse keeper climbed the stairs. The keeper lit the lamp.'),
    page(2, 'A keeper of bees lives far from any lighthouse on the hill.'),
    page(3, 'Fishing boats return to the harbour; fishing is good this year.'),
    page(4, 'El café de la Plaza Mayor abre a las siete. Río abajo.'),
    page(5, 'Nothing relevant here at all, only filler words and more filler.'),
  ]);

  it('when terms stand close together, then that section ranks above one where they are far apart', () => {
    const hits = index.search('lighthouse keeper');
    expect(hits.map((hit) => hit.segment.page)).toEqual([1, 2]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('when a term repeats in a section, then it scores higher, with saturation', () => {
    const hits = index.search('fishing');
    expect(hits[0]!.segment.page).toBe(3);
    const single = TextIndex.build([
      page(1, 'fishing a b c d e f g h'),
      page(2, 'fishing fishing a b c d e f g'),
      page(3, 'fishing fishing fishing fishing fishing a b c d'),
    ]);
    const [s3, s2, s1] = single.search('fishing').map((hit) => hit.score);
    expect(s3! > s2! && s2! > s1!).toBe(true);
    // Saturation: each further occurrence adds less than the one before.
    expect((s3! - s2!) / 3).toBeLessThan(s2! - s1!);
  });

  it('when the query has no diacritics, then accented text still matches, and the other way round', () => {
    expect(index.search('cafe plaza').map((hit) => hit.segment.page)).toEqual([4]);
    expect(index.search('RÍO ABAJO')[0]!.segment.page).toBe(4);
  });

  it('when the last word is unfinished, then it matches as a prefix', () => {
    expect(index.search('keeper lightho').map((hit) => hit.segment.page)).toEqual([1, 2]);
    expect(index.search('lightho keeper')).toHaveLength(2);
    expect(index.search('harbo').map((hit) => hit.segment.page)).toEqual([3]);
  });

  it('when a preview limit applies, then later pages are not searched', () => {
    expect(index.search('keeper', { maxPage: 1 }).map((hit) => hit.segment.page)).toEqual([1]);
  });

  it('when serialized and read back, then it answers the same', () => {
    const copy = TextIndex.deserialize(index.serialize());
    expect(copy.search('lighthouse keeper').map((hit) => [hit.segment.page, hit.score])).toEqual(
      index.search('lighthouse keeper').map((hit) => [hit.segment.page, hit.score]),
    );
  });

  it('when an excerpt is taken, then it is the plain text with the offsets of every matched word', () => {
    const text = 'Fish & chips <b>served</b> "daily" by the keeper\'s crew';
    const [hit] = TextIndex.build([page(1, text)]).search('chips served');
    expect(excerptOf(hit!)).toEqual({
      text,
      matches: [
        { start: 7, length: 5 },
        { start: 16, length: 6 },
      ],
      startsMidSection: false,
      endsMidSection: false,
    });
  });

  it('when the section is long, then the excerpt is cut at word boundaries around the match', () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`);
    words[100] = 'needle';
    const text = words.join(' ');
    const [hit] = TextIndex.build([page(1, text)]).search('needle');
    const excerpt = excerptOf(hit!);
    expect(excerpt).toMatchObject({ startsMidSection: true, endsMidSection: true });
    expect(matchedWords(excerpt)).toEqual(['needle']);
    expect(text).toContain(` ${excerpt.text} `);
    expect(excerpt.text.length).toBeLessThan(200);
  });

  it('when the query repeats a word in other forms, then query words are deduplicated as typed', () => {
    expect(queryWords('Café cafe, RÍO')).toEqual(['Café', 'RÍO']);
  });

  it('when Japanese or Chinese text has no spaces, then a word inside a sentence is found and marked, also with a short query', () => {
    const cjk = TextIndex.build([page(1, '東京は日本の首都です。'), page(2, '北京是中国的首都。'), page(3, 'The harbour at dawn.')]);
    // Both words of the query in page 1, one in page 2: page 1 first.
    expect(cjk.search('首都です').map((hit) => hit.segment.page)).toEqual([1, 2]);
    expect(
      cjk
        .search('首都')
        .map((hit) => hit.segment.page)
        .sort(),
    ).toEqual([1, 2]);
    const [hit] = cjk.search('東京');
    expect(excerptOf(hit!)).toEqual({ text: '東京は日本の首都です。', matches: [{ start: 0, length: 2 }], startsMidSection: false, endsMidSection: false });
    expect(queryWords('首都です')).toEqual(['首都', 'です']);
  });

  it("when a word has an apostrophe (l'atlas), then it is found by its joined form and by its parts, as in store search", () => {
    const french = TextIndex.build([page(1, "Il ouvre l'atlas du monde."), page(2, 'Un atlas de poche.')]);
    expect(french.search("l'atlas").map((hit) => hit.segment.page)).toEqual([1]);
    expect(
      french
        .search('atlas')
        .map((hit) => hit.segment.page)
        .sort(),
    ).toEqual([1, 2]);
    expect(matchedWords(excerptOf(french.search('atlas monde')[0]!))).toEqual(['atlas', 'monde']);
  });

  it('when a stored index is of the first format (words cut by the old rule), then it is rebuilt from its sections', () => {
    const segments = [page(1, '東京は日本の首都です。')];
    const old = gzipSync(JSON.stringify({ v: 1, segments, lengths: [1], postings: { 東京は日本の首都です: [0, 0] } }));
    expect(
      TextIndex.deserialize(old)
        .search('首都')
        .map((hit) => hit.segment.page),
    ).toEqual([1]);
  });
});

describe('EPUB CFI of a match', () => {
  it('when the match is inside one text node, then the range CFI has the parent path and character offsets', () => {
    const segment: TextSegment = {
      page: 1,
      section: 2,
      text: 'The keeper climbed',
      pageOffset: 0,
      cfi: { doc: '/6/2[chapter-1]', runs: [{ at: 0, path: [4, 4, 1], base: 0 }] },
    };
    expect(cfiOfRange(segment, 4, 10)).toBe('epubcfi(/6/2[chapter-1]!/4/4,/1:4,/1:10)');
  });

  it('when the match spans an inline element, then the common parent is kept', () => {
    // <p>The <em>keeper</em> climbed</p>: "The " /1, "keeper" /2/1, " climbed" /3
    const segment: TextSegment = {
      page: 1,
      section: 1,
      text: 'The keeper climbed',
      pageOffset: 0,
      cfi: {
        doc: '/6/2[c]',
        runs: [
          { at: 0, path: [4, 2, 1], base: 0 },
          { at: 4, path: [4, 2, 2, 1], base: 0 },
          { at: 10, path: [4, 2, 3], base: 0 },
        ],
      },
    };
    expect(cfiOfRange(segment, 4, 10)).toBe('epubcfi(/6/2[c]!/4/2/2,/1:0,/1:6)');
    expect(cfiOfRange(segment, 0, 18)).toBe('epubcfi(/6/2[c]!/4/2,/1:0,/3:8)');
  });
});
