import { decryptText } from '@folio/crypto';
import { describe, expect, it } from 'vitest';
import type { Note } from './note.js';
import { NoteRenderer, epubLocationAsList, epubLocationAsText } from './render.js';

describe('epubLocation between API versions', () => {
  it('when a v2 array is shown to v1, then it is the JSON text of the array, and v2 reads that text back as the array', () => {
    const text = epubLocationAsText({ form: 'list', items: ['a', 'b"c'] });
    expect(text).toBe('["a","b\\"c"]');
    expect(epubLocationAsList({ form: 'text', text })).toEqual(['a', 'b"c']);
  });

  it('when a v1 string is not a JSON array of strings, then v2 sees it as the only item', () => {
    for (const text of ['epubcfi(/6/4!/4:0)', '', '[1,2]', '"quoted"', '{"a":1}', '[broken']) {
      expect(epubLocationAsList({ form: 'text', text })).toEqual([text]);
    }
  });

  it('when a note is in its own version, then its location is exactly as sent', () => {
    expect(epubLocationAsList({ form: 'list', items: [] })).toEqual([]);
    expect(epubLocationAsText({ form: 'text', text: '' })).toBe('');
  });
});

describe('NoteRenderer', () => {
  const note: Note = {
    id: 7,
    scope: { tenantId: 1, userId: 2, issueId: 3 },
    uuid: 'u',
    color: 'red',
    totalLength: 5,
    totalText: 'hello',
    annotationText: null,
    startPage: null,
    startPageStartOffset: null,
    startPageLength: null,
    endPage: null,
    endPageLength: null,
    epubLocationStartCfi: 'cfi',
    epubLocationEndCfi: null,
    epubChapter: null,
    epubLocationStartChar: null,
    epubLocation: null,
    createdAt: new Date(Date.UTC(2024, 4, 1, 10, 0, 0)),
    updatedAt: new Date(Date.UTC(2024, 4, 1, 10, 0, 0, 5)),
  };

  it('when rendered, then the text is encrypted afresh each time under the reader-token key and times are ISO 8601 UTC', () => {
    const renderer = new NoteRenderer('token-1', 'v2');
    const [a, b] = [renderer.render(note), renderer.render(note)];
    expect(a.totalText).not.toBe(b.totalText);
    expect(decryptText('token-1', a.totalText)).toBe('hello');
    expect(a).toMatchObject({ epubLocation: null, createdAt: '2024-05-01T10:00:00.000Z', updatedAt: '2024-05-01T10:00:00.005Z' });
  });
});
