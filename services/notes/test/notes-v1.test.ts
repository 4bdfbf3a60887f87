import type { notes } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epubDraft, pdfDraft, readerSession, startTestNotes, type TestNotes } from './support.js';

// Notes created through API v1 (a string epubLocation). Notes answer every
// note in the form it was created in; the gateway renders it per API version
// (its unit test covers the conversion between the forms).
describe('notes of API v1 (GET/POST /notes, GET/PATCH/DELETE /notes/{id})', () => {
  let t: TestNotes;
  beforeAll(async () => {
    t = await startTestNotes();
  });
  afterAll(() => t?.stop());

  const create = (scope: notes.ReaderScope, note: notes.NoteDraft) => t.client.createNote({ scope, note });
  const get = async (scope: notes.ReaderScope, noteId: number) => (await t.client.getNote({ scope, noteId })).note!;

  it('when an EPUB note is created, read, patched and deleted, then epubLocation stays the text it was created with', async () => {
    const scope = readerSession();
    const created = (await create(scope, epubDraft({ epubLocationText: 'epubcfi(/6/4!/4/2/1:0)' }))).note!;
    expect(created).toMatchObject({ epubLocationText: 'epubcfi(/6/4!/4/2/1:0)', epubLocationList: undefined, startPage: undefined });
    expect(created.totalText).toBe('Call me Ish');

    const read = await get(scope, created.id);
    expect(read).toEqual(created);

    const patched = (await t.client.updateNote({ scope, noteId: created.id, color: 'pink', annotationText: { value: 'patched' } })).note!;
    expect(patched).toMatchObject({ color: 'pink', annotationText: 'patched', epubLocationText: 'epubcfi(/6/4!/4/2/1:0)' });

    const deleted = (await t.client.deleteNote({ scope, noteId: created.id })).note!;
    expect(deleted).toMatchObject({ id: created.id, color: 'pink', annotationText: 'patched', totalText: 'Call me Ish' });
    await expect(get(scope, created.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('when a PDF note is created, then its page position comes back and the EPUB fields are unset', async () => {
    const scope = readerSession();
    const { note } = await create(scope, pdfDraft({ startPage: 0, startPageStartOffset: 0, startPageLength: 10, endPage: 2, endPageLength: 5 }));
    expect(note).toMatchObject({ startPage: 0, startPageStartOffset: 0, startPageLength: 10, endPage: 2, endPageLength: 5 });
    expect(note).toMatchObject({ epubLocationStartCfi: undefined, epubChapter: undefined, epubLocationText: undefined, epubLocationList: undefined });
  });

  it('when notes are listed, then they come in creation order', async () => {
    const scope = readerSession();
    const created: number[] = [];
    for (const text of ['one', 'two', 'three', 'four']) created.push((await create(scope, pdfDraft({ totalText: text }))).note!.id);

    const listed = (await t.client.listNotes({ scope })).notes;

    expect(listed.map((note) => note.id)).toEqual(created);
    expect(listed.map((note) => note.totalText)).toEqual(['one', 'two', 'three', 'four']);
    const times = listed.map((note) => Date.parse(note.createdAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('when notes of both forms are in one scope, then each comes back in the form it was created in', async () => {
    const scope = readerSession();
    const asList = (await create(scope, epubDraft({ epubLocationList: { items: ['cfi-a', 'cfi-b'] } }))).note!;
    const asText = (await create(scope, epubDraft({ epubLocationText: '["cfi-a","cfi-b"]' }))).note!;

    const listed = (await t.client.listNotes({ scope })).notes;

    expect(listed.map((note) => note.id)).toEqual([asList.id, asText.id]);
    expect(listed[0]).toMatchObject({ epubLocationList: { items: ['cfi-a', 'cfi-b'] }, epubLocationText: undefined });
    expect(listed[1]).toMatchObject({ epubLocationText: '["cfi-a","cfi-b"]', epubLocationList: undefined });
  });
});
