import { checkHealth } from '@folio/grpc';
import type { notes } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAME } from '../src/app.js';
import { epubDraft, pdfDraft, readerSession, startTestNotes, type TestNotes } from './support.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('notes over API v2 (GET/POST/PUT/DELETE /api/v2/reader/notes)', () => {
  let t: TestNotes;
  beforeAll(async () => {
    t = await startTestNotes();
  });
  afterAll(() => t?.stop());

  const create = (scope: notes.ReaderScope, note: notes.NoteDraft) => t.client.createNote({ scope, note });
  const list = async (scope: notes.ReaderScope) => (await t.client.listNotes({ scope })).notes;

  it('when started, then it reports SERVING over grpc.health.v1', async () => {
    expect(await checkHealth(`127.0.0.1:${t.service.grpcPort}`, SERVICE_NAME)).toBe(true);
  });

  it('when a PDF note is created, then it has every field, the EPUB ones unset, and the text as highlighted', async () => {
    const scope = readerSession();
    const draft = pdfDraft();

    const { note, created } = await create(scope, draft);

    expect(created).toBe(true);
    expect(note).toEqual({
      id: expect.any(Number),
      uuid: draft.uuid,
      color: 'yellow',
      totalLength: 24,
      totalText: 'the highlighted sentence',
      annotationText: undefined,
      startPage: 3,
      startPageStartOffset: 120,
      startPageLength: 24,
      endPage: 3,
      endPageLength: 24,
      epubLocationStartCfi: undefined,
      epubLocationEndCfi: undefined,
      epubChapter: undefined,
      epubLocationStartChar: undefined,
      epubLocationList: undefined,
      epubLocationText: undefined,
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expect(note!.updatedAt).toBe(note!.createdAt);
    expect(Math.abs(Date.parse(note!.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  it('when an EPUB note is created with an epubLocation array, then the array comes back as sent and the PDF fields are null', async () => {
    const scope = readerSession();
    const location = ['epubcfi(/6/4!/4/2/1:0)', 'epubcfi(/6/4!/4/2/1:11)'];

    const { note } = await create(scope, epubDraft({ epubLocationList: { items: location } }));

    expect(note).toMatchObject({
      color: 'green',
      totalLength: 11,
      annotationText: 'opening line',
      epubLocationStartCfi: 'epubcfi(/6/4!/4/2/1:0)',
      epubLocationEndCfi: 'epubcfi(/6/4!/4/2/1:11)',
      epubChapter: 'chapter-1.xhtml',
      epubLocationStartChar: '0',
      epubLocationList: { items: location },
      epubLocationText: undefined,
      startPage: undefined,
      startPageStartOffset: undefined,
      startPageLength: undefined,
      endPage: undefined,
      endPageLength: undefined,
    });
    expect(note!.totalText).toBe('Call me Ish');
  });

  it('when an EPUB note is created with an empty epubLocation array, then an empty array comes back, not null', async () => {
    const { note } = await create(readerSession(), epubDraft({ epubLocationList: { items: [] } }));
    expect(note!.epubLocationList).toEqual({ items: [] });
  });

  it('when the user lists notes, then only their notes on this issue come back, oldest first', async () => {
    const scope = readerSession({ issueId: 10 });
    const first = (await create(scope, pdfDraft({ totalText: 'first' }))).note!;
    const second = (await create(scope, epubDraft({ totalText: 'second' }))).note!;
    await create({ ...scope, issueId: 11 }, pdfDraft({ totalText: 'other issue' }));
    await create({ ...scope, tenantId: 2 }, pdfDraft({ totalText: 'other tenant' }));
    await create(readerSession({ issueId: 10 }), pdfDraft({ totalText: 'other user' }));

    const listed = await list(scope);

    expect(listed.map((note) => note.id)).toEqual([first.id, second.id]);
    expect(listed.map((note) => note.totalText)).toEqual(['first', 'second']);
  });

  it('when color and comment are changed, then only they change; an absent comment is kept, null clears it', async () => {
    const scope = readerSession();
    const created = (await create(scope, epubDraft({ epubLocationList: { items: ['a'] } }))).note!;
    await new Promise((resolve) => setTimeout(resolve, 5));

    const recolored = (await t.client.updateNote({ scope, noteId: created.id, color: 'blue', annotationText: undefined })).note!;
    expect(recolored).toMatchObject({ color: 'blue', annotationText: 'opening line' });
    expect(Date.parse(recolored.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect(recolored.createdAt).toBe(created.createdAt);

    const commented = (await t.client.updateNote({ scope, noteId: created.id, color: 'blue', annotationText: { value: 'a new thought' } })).note!;
    expect(commented.annotationText).toBe('a new thought');

    const cleared = (await t.client.updateNote({ scope, noteId: created.id, color: 'red', annotationText: {} })).note!;
    expect(cleared).toMatchObject({ color: 'red', annotationText: undefined });

    const stored = (await list(scope))[0]!;
    const { totalText: _createdText, color: _c, annotationText: _a, updatedAt: _u, ...position } = created;
    const { totalText: storedText, ...after } = stored;
    expect(after).toMatchObject({ ...position, color: 'red', annotationText: undefined });
    expect(storedText).toBe('Call me Ish');
  });

  it('when a note is deleted, then the deleted note comes back as it was and is gone afterwards', async () => {
    const scope = readerSession();
    const keep = (await create(scope, pdfDraft())).note!;
    const gone = (await create(scope, pdfDraft({ totalText: 'to be deleted' }))).note!;

    const { note } = await t.client.deleteNote({ scope, noteId: gone.id });

    expect(note).toMatchObject({ id: gone.id, uuid: gone.uuid, color: gone.color, startPage: 3 });
    expect(note!.totalText).toBe('to be deleted');
    expect((await list(scope)).map((n) => n.id)).toEqual([keep.id]);
    await expect(t.client.deleteNote({ scope, noteId: gone.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('when a create with the same uuid is repeated, then the first note comes back unchanged and there is still one note', async () => {
    const scope = readerSession();
    const draft = pdfDraft();
    const first = (await create(scope, draft)).note!;

    const again = await create(scope, { ...draft, color: 'purple', totalText: 'a different text' });

    expect(again.created).toBe(false);
    expect(again.note).toMatchObject({ id: first.id, color: 'yellow', createdAt: first.createdAt });
    expect(again.note!.totalText).toBe('the highlighted sentence');
    expect(await list(scope)).toHaveLength(1);
    // The uuid is the client's key within its own scope: another issue or user may use it too.
    expect((await create({ ...scope, issueId: scope.issueId + 1 }, draft)).created).toBe(true);
    expect((await create(readerSession(), draft)).created).toBe(true);
  });

  it('when the same uuid is created concurrently, then every call returns the same single note', async () => {
    const scope = readerSession();
    const draft = pdfDraft();

    const results = await Promise.all(Array.from({ length: 8 }, () => create(scope, draft)));

    expect(new Set(results.map((result) => result.note!.id)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(await list(scope)).toHaveLength(1);
  });
});
