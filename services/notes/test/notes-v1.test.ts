import { decryptText } from '@folio/crypto';
import type { notes } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1, V2, epubDraft, pdfDraft, readerSession, startTestNotes, type TestNotes } from './support.js';

describe('notes over API v1 (GET/POST /notes, GET/PATCH/DELETE /notes/{id})', () => {
  let t: TestNotes;
  beforeAll(async () => {
    t = await startTestNotes();
  });
  afterAll(() => t?.stop());

  const create = (scope: notes.ReaderScope, note: notes.NoteDraft, apiVersion = V1) => t.client.createNote({ scope, apiVersion, note });
  const get = async (scope: notes.ReaderScope, noteId: number, apiVersion = V1) => (await t.client.getNote({ scope, apiVersion, noteId })).note!;

  it('when an EPUB note is created, read, patched and deleted, then epubLocation stays a string and totalText is always encrypted', async () => {
    const scope = readerSession();
    const created = (await create(scope, epubDraft({ epubLocationText: 'epubcfi(/6/4!/4/2/1:0)' }))).note!;
    expect(created).toMatchObject({ epubLocationText: 'epubcfi(/6/4!/4/2/1:0)', epubLocationList: undefined, startPage: undefined });
    expect(decryptText(scope.readerToken, created.totalText)).toBe('Call me Ish');

    const read = await get(scope, created.id);
    expect(read).toEqual({ ...created, totalText: expect.any(String) });
    expect(decryptText(scope.readerToken, read.totalText)).toBe('Call me Ish');

    const patched = (await t.client.updateNote({ scope, apiVersion: V1, noteId: created.id, color: 'pink', annotationText: { value: 'patched' } })).note!;
    expect(patched).toMatchObject({ color: 'pink', annotationText: 'patched', epubLocationText: 'epubcfi(/6/4!/4/2/1:0)' });

    const deleted = (await t.client.deleteNote({ scope, apiVersion: V1, noteId: created.id })).note!;
    expect(deleted).toMatchObject({ id: created.id, color: 'pink', annotationText: 'patched' });
    expect(decryptText(scope.readerToken, deleted.totalText)).toBe('Call me Ish');
    await expect(get(scope, created.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('when a PDF note is created, then its page position comes back and the EPUB fields are null', async () => {
    const scope = readerSession();
    const { note } = await create(scope, pdfDraft({ startPage: 0, startPageStartOffset: 0, startPageLength: 10, endPage: 2, endPageLength: 5 }));
    expect(note).toMatchObject({ startPage: 0, startPageStartOffset: 0, startPageLength: 10, endPage: 2, endPageLength: 5 });
    expect(note).toMatchObject({ epubLocationStartCfi: undefined, epubChapter: undefined, epubLocationText: undefined, epubLocationList: undefined });
  });

  it('when notes are listed, then they come in creation order', async () => {
    const scope = readerSession();
    const created: number[] = [];
    for (const text of ['one', 'two', 'three', 'four']) created.push((await create(scope, pdfDraft({ totalText: text }))).note!.id);

    const listed = (await t.client.listNotes({ scope, apiVersion: V1 })).notes;

    expect(listed.map((note) => note.id)).toEqual(created);
    expect(listed.map((note) => decryptText(scope.readerToken, note.totalText))).toEqual(['one', 'two', 'three', 'four']);
    const times = listed.map((note) => Date.parse(note.createdAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('when a v2 note with an epubLocation array is read in v1, then epubLocation is the JSON text of the array', async () => {
    const scope = readerSession();
    const { note } = await create(scope, epubDraft({ epubLocationList: { items: ['cfi-a', 'cfi-b'] } }), V2);

    const inV1 = await get(scope, note!.id, V1);

    expect(inV1).toMatchObject({ epubLocationText: '["cfi-a","cfi-b"]', epubLocationList: undefined });
  });

  it('when a v1 note with an epubLocation string is read in v2, then epubLocation is an array of that one string', async () => {
    const scope = readerSession();
    const { note } = await create(scope, epubDraft({ epubLocationText: 'epubcfi(/6/8!/4/2/1:3)' }));

    const [inV2] = (await t.client.listNotes({ scope, apiVersion: V2 })).notes;

    expect(inV2).toMatchObject({ id: note!.id, epubLocationList: { items: ['epubcfi(/6/8!/4/2/1:3)'] }, epubLocationText: undefined });
  });

  it('when a v1 epubLocation string is the JSON text of an array, then v2 sees that array (the round trip of a v2 note)', async () => {
    const scope = readerSession();
    const { note } = await create(scope, epubDraft({ epubLocationText: '["cfi-a","cfi-b"]' }));
    expect((await get(scope, note!.id, V2)).epubLocationList).toEqual({ items: ['cfi-a', 'cfi-b'] });
    expect((await get(scope, note!.id, V1)).epubLocationText).toBe('["cfi-a","cfi-b"]');
  });
});
