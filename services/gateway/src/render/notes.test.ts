import { decryptText } from '@folio/crypto';
import type { notes } from '@folio/proto';
import { describe, expect, it } from 'vitest';
import { epubLocationAsList, epubLocationAsText, noteRenderer } from './notes.js';

const list = (items: string[]) => ({ epubLocationList: { items }, epubLocationText: undefined });
const text = (value: string) => ({ epubLocationList: undefined, epubLocationText: value });

describe('epubLocation between API versions', () => {
  it('when a v2 array is shown to v1, then it is the JSON text of the array, and v2 reads that text back as the array', () => {
    const shown = epubLocationAsText(list(['a', 'b"c']));
    expect(shown).toBe('["a","b\\"c"]');
    expect(epubLocationAsList(text(shown!))).toEqual(['a', 'b"c']);
  });

  it('when a v1 string is not a JSON array of strings, then v2 sees it as the only item', () => {
    for (const value of ['epubcfi(/6/4!/4:0)', '', '[1,2]', '"quoted"', '{"a":1}', '[broken']) {
      expect(epubLocationAsList(text(value))).toEqual([value]);
    }
  });

  it('when a note is read in the version it was created in, then its location is exactly as sent', () => {
    expect(epubLocationAsList(list([]))).toEqual([]);
    expect(epubLocationAsText(text(''))).toBe('');
  });

  it('when a note has no general location, then both versions show null', () => {
    const none = { epubLocationList: undefined, epubLocationText: undefined };
    expect(epubLocationAsList(none)).toBeNull();
    expect(epubLocationAsText(none)).toBeNull();
  });
});

describe('noteRenderer', () => {
  const note: notes.Note = {
    id: 7,
    uuid: 'u',
    color: 'red',
    totalLength: 5,
    totalText: 'hello',
    epubLocationStartCfi: 'cfi',
    epubLocationList: { items: ['a'] },
    createdAt: '2024-05-01T10:00:00.000Z',
    updatedAt: '2024-05-01T10:00:00.005Z',
  };

  it('when rendered, then the text is encrypted afresh each time under the reader-token key and every unset field is null', () => {
    const render = noteRenderer('v2', 'token-1');
    const [a, b] = [render(note), render(note)];
    expect(a.totalText).not.toBe(b.totalText);
    expect(decryptText('token-1', a.totalText)).toBe('hello');
    expect(a).toEqual({
      id: 7,
      uuid: 'u',
      color: 'red',
      totalLength: 5,
      totalText: a.totalText,
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
      epubLocation: ['a'],
      createdAt: '2024-05-01T10:00:00.000Z',
      updatedAt: '2024-05-01T10:00:00.005Z',
    });
  });

  it('when rendered for v1, then the location is the string form', () => {
    expect(noteRenderer('v1', 'token-1')(note).epubLocation).toBe('["a"]');
  });
});
