import { describe, expect, it } from 'vitest';
import { textHitLocation, textHitToWire } from './reader.js';

const excerpt = {
  text: 'the tren de Bahía Blanca',
  matches: [
    { start: 4, length: 4 },
    { start: 12, length: 5 },
  ],
  startsMidSection: true,
  endsMidSection: false,
};
const pdfHit = { page: 2, section: 1, pageOffset: 120, cfi: undefined, excerpt, queryWords: ['tren', 'Bahía'] };

describe('textHitLocation (v2)', () => {
  it('when the hit is in an EPUB, then the location is its range CFI', () => {
    expect(textHitLocation({ page: 1, pageOffset: 3, cfi: 'epubcfi(/6/4[chapter-1]!/4/4,/1:120,/1:128)' })).toBe('epubcfi(/6/4[chapter-1]!/4/4,/1:120,/1:128)');
  });

  it('when the hit is in a PDF, then the location is page:<n>,offset:<n>', () => {
    expect(textHitLocation({ page: 2, pageOffset: 120, cfi: undefined })).toBe('page:2,offset:120');
  });
});

describe('textHitToWire (v2)', () => {
  it('when a hit is rendered, then location, snippet with <mark> and query words come in the spec order', () => {
    const wire = textHitToWire(pdfHit);
    expect(wire).toEqual({ location: 'page:2,offset:120', snippet: '…the <mark>tren</mark> de <mark>Bahía</mark> Blanca', query_words: ['tren', 'Bahía'] });
    expect(Object.keys(wire)).toEqual(['location', 'snippet', 'query_words']);
  });
});
