import type { notes } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epubDraft, failureOf, pdfDraft, readerSession, startTestNotes, type TestNotes } from './support.js';

describe('notes: ownership, validation and immutability', () => {
  let t: TestNotes;
  beforeAll(async () => {
    t = await startTestNotes();
  });
  afterAll(() => t?.stop());

  const create = (scope: notes.ReaderScope, note: notes.NoteDraft) => t.client.createNote({ scope, note });
  const calls = (scope: notes.ReaderScope, noteId: number) => ({
    get: () => t.client.getNote({ scope, noteId }),
    update: () => t.client.updateNote({ scope, noteId, color: 'black', annotationText: {} }),
    delete: () => t.client.deleteNote({ scope, noteId }),
  });

  describe('ownership', () => {
    it("when another user reads, changes or deletes a user's note, then it is refused with PERMISSION_DENIED and the note is intact", async () => {
      const owner = readerSession({ tenantId: 1, issueId: 10 });
      const note = (await create(owner, epubDraft())).note!;

      for (const intruder of [readerSession({ tenantId: 1, issueId: 10 }), readerSession({ tenantId: 2, issueId: 77 })]) {
        for (const [name, call] of Object.entries(calls(intruder, note.id))) {
          const failure = await failureOf(call());
          expect({ name, code: failure.code, message: failure.message }).toEqual({
            name,
            code: 'PERMISSION_DENIED',
            message: 'This note does not belong to you.',
          });
        }
      }
      const after = (await t.client.getNote({ scope: owner, noteId: note.id })).note!;
      expect(after).toMatchObject({ color: 'green', annotationText: 'opening line', updatedAt: note.updatedAt });
    });

    it('when a note id does not exist, then get, update and delete answer NOT_FOUND', async () => {
      const scope = readerSession();
      for (const noteId of [987_654_321, 0, -1]) {
        for (const call of Object.values(calls(scope, noteId))) {
          expect(await failureOf(call())).toMatchObject({ code: 'NOT_FOUND', message: 'Note not found.' });
        }
      }
    });

    it("when the user's own note of another issue or tenant is asked for in this reader session, then it is NOT_FOUND", async () => {
      const owner = readerSession({ tenantId: 1, issueId: 10 });
      const note = (await create(owner, pdfDraft())).note!;
      for (const elsewhere of [
        { ...owner, issueId: 11 },
        { ...owner, tenantId: 2 },
      ]) {
        for (const call of Object.values(calls(elsewhere, note.id))) expect((await failureOf(call())).code).toBe('NOT_FOUND');
      }
      expect((await t.client.listNotes({ scope: owner })).notes).toHaveLength(1);
    });
  });

  describe('validation (INVALID_ARGUMENT, 422 at the gateway)', () => {
    const fieldErrorsOf = async (note: notes.NoteDraft) => (await failureOf(create(readerSession(), note))).details.fieldErrors;

    it('when uuid and color are missing, then both are named with the client field names', async () => {
      const failure = await failureOf(create(readerSession(), { totalLength: 3, totalText: 'abc' }));
      expect(failure.code).toBe('INVALID_ARGUMENT');
      expect(failure.message).toBe('The given data was invalid.');
      expect(failure.details.fieldErrors).toEqual({ uuid: ['The uuid field is required.'], color: ['The color field is required.'] });
    });

    it('when totalLength is 0 or missing and totalText is missing, then they are refused', async () => {
      expect(await fieldErrorsOf(pdfDraft({ totalLength: 0 }))).toEqual({ totalLength: ['The total length must be at least 1.'] });
      expect(await fieldErrorsOf(pdfDraft({ totalLength: undefined, totalText: undefined }))).toEqual({
        totalLength: ['The total length field is required.'],
        totalText: ['The total text field is required.'],
      });
      expect(await fieldErrorsOf(pdfDraft({ uuid: '   ', totalText: '' }))).toEqual({
        uuid: ['The uuid field is required.'],
        totalText: ['The total text field is required.'],
      });
    });

    it('when epubLocation is over the bounds of its form, then it is refused with the limit', async () => {
      expect(await fieldErrorsOf(epubDraft({ epubLocationText: 'c'.repeat(4097) }))).toEqual({
        epubLocation: ['The epub location must not be greater than 4096 characters.'],
      });
      expect(await fieldErrorsOf(epubDraft({ epubLocationList: { items: Array.from({ length: 101 }, () => 'cfi') } }))).toEqual({
        epubLocation: ['The epub location must not have more than 100 items.'],
      });
    });

    it('when a note mixes PDF and EPUB positions or has impossible pages, then the offending fields are named', async () => {
      expect(await fieldErrorsOf(pdfDraft({ epubChapter: 'ch1.xhtml', epubLocationList: { items: [] } }))).toEqual({
        epubChapter: ['The epub chapter must be null when a PDF position is given.'],
        epubLocation: ['The epub location must be null when a PDF position is given.'],
      });
      expect(await fieldErrorsOf(pdfDraft({ startPage: -1, endPage: 3 }))).toEqual({
        startPage: ['The start page must be an integer of at least 0.'],
      });
      expect(await fieldErrorsOf(pdfDraft({ startPage: 5, endPage: 4 }))).toEqual({
        endPage: ['The end page must be greater than or equal to the start page.'],
      });
    });

    it('when a text field has a NUL character (storage refuses it), then create and update are INVALID_ARGUMENT on that field', async () => {
      expect(await fieldErrorsOf(epubDraft({ totalText: 'a\u0000b', annotationText: '\u0000', epubLocationList: { items: ['cfi\u0000'] } }))).toEqual({
        totalText: ['The total text must not contain NUL characters.'],
        annotationText: ['The annotation text must not contain NUL characters.'],
        epubLocation: ['The epub location must not contain NUL characters.'],
      });
      const scope = readerSession();
      const note = (await create(scope, epubDraft())).note!;
      const failure = await failureOf(t.client.updateNote({ scope, noteId: note.id, color: 'red\u0000', annotationText: {} }));
      expect({ code: failure.code, fieldErrors: failure.details.fieldErrors }).toEqual({
        code: 'INVALID_ARGUMENT',
        fieldErrors: { color: ['The color must not contain NUL characters.'] },
      });
    });

    it('when strings are too long, then they are refused with the limit', async () => {
      expect(await fieldErrorsOf(pdfDraft({ color: 'x'.repeat(33), annotationText: 'y'.repeat(10_001) }))).toEqual({
        color: ['The color must not be greater than 32 characters.'],
        annotationText: ['The annotation text must not be greater than 10000 characters.'],
      });
    });

    it('when an update has no color, then it is refused and the note is unchanged', async () => {
      const scope = readerSession();
      const note = (await create(scope, epubDraft())).note!;
      const failure = await failureOf(t.client.updateNote({ scope, noteId: note.id, annotationText: {} }));
      expect(failure.details.fieldErrors).toEqual({ color: ['The color field is required.'] });
      expect((await t.client.getNote({ scope, noteId: note.id })).note!.annotationText).toBe('opening line');
    });

    it('when the caller sends no scope or an incomplete one, then the call is refused', async () => {
      expect(await failureOf(t.client.listNotes({ scope: { ...readerSession(), issueId: 0 } }))).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: 'The reader session scope (tenant, user, issue) is required.',
      });
      expect((await failureOf(t.client.listNotes({ scope: undefined }))).code).toBe('INVALID_ARGUMENT');
    });
  });

  describe('immutability', () => {
    it('when an update also carries text and position, then they are ignored: only color and comment change', async () => {
      const scope = readerSession();
      const created = (await create(scope, pdfDraft({ annotationText: 'keep me' }))).note!;

      // The contract has no fields for text or position: whatever else a caller adds is dropped on the wire.
      const sneaky = { scope, noteId: created.id, color: 'orange', annotationText: undefined, totalText: 'rewritten', startPage: 99 };
      const updated = (await t.client.updateNote(sneaky as notes.UpdateNoteRequest)).note!;

      const { totalText: before, color: _color, updatedAt: _updated, ...immutable } = created;
      expect(updated).toMatchObject({ ...immutable, color: 'orange', annotationText: 'keep me' });
      expect(updated.totalText).toBe(before);
      expect(updated.totalText).toBe('the highlighted sentence');
    });
  });
});
