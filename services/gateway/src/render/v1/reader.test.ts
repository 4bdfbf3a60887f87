import { describe, expect, it } from 'vitest';
import { issueTextContentToWire, sectionLocation, textHitToWire } from './reader.js';

describe('sectionLocation (v1)', () => {
  it('when a page and section are given, then the location is page_<n>_section_<n>', () => {
    expect(sectionLocation({ page: 3, section: 2 })).toBe('page_3_section_2');
  });
});

describe('textHitToWire (v1)', () => {
  it('when a hit is rendered, then its location names page and section (never the CFI) and matches are in <b>', () => {
    const hit = {
      page: 2,
      section: 2,
      pageOffset: 40,
      cfi: 'epubcfi(/6/4[chapter-2]!/4/4,/1:10,/1:14)',
      excerpt: {
        text: 'El café de la esquina',
        matches: [
          { start: 3, length: 4 },
          { start: 14, length: 7 },
        ],
        startsMidSection: false,
        endsMidSection: true,
      },
      queryWords: ['cafe', 'esquina'],
    };
    const wire = textHitToWire(hit);
    expect(wire).toEqual({ location: 'page_2_section_2', snippet: 'El <b>café</b> de la <b>esquina</b>…', query_words: ['cafe', 'esquina'] });
    expect(Object.keys(wire)).toEqual(['location', 'snippet', 'query_words']);
  });
});

describe('issueTextContentToWire (v1)', () => {
  it('when a text record is rendered, then its keys are the spec order with the location of its page and section', () => {
    const wire = issueTextContentToWire({ id: 4, issueId: 1001, page: 2, section: 1, text: 'Chapter 2: The Atlas' });
    expect(wire).toEqual({ id: 4, issue_id: 1001, page: 2, section: 1, location: 'page_2_section_1', text: 'Chapter 2: The Atlas' });
    expect(Object.keys(wire)).toEqual(['id', 'issue_id', 'page', 'section', 'location', 'text']);
  });
});
