// ListUserNotes: every note of a user across tenants and issues, for the
// user's own annotation export (the gateway renders W3C and Markdown).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epubDraft, failureOf, pdfDraft, readerSession, startTestNotes, type TestNotes } from './support.js';

describe('notes of a user in every tenant and issue (ListUserNotes)', () => {
  let t: TestNotes;
  beforeAll(async () => {
    t = await startTestNotes();
  });
  afterAll(() => t?.stop());

  it('when a user has notes in two tenants and several issues, then all of them come back by tenant, issue and creation, in plaintext', async () => {
    const scope = readerSession({ tenantId: 2, issueId: 20 });
    const a = (await t.client.createNote({ scope, note: pdfDraft({ totalText: 'second tenant' }) })).note!;
    const b = (await t.client.createNote({ scope: { ...scope, tenantId: 1, issueId: 11 }, note: epubDraft({ totalText: 'first tenant, issue 11' }) })).note!;
    const c = (await t.client.createNote({ scope: { ...scope, tenantId: 1, issueId: 10 }, note: pdfDraft({ totalText: 'first tenant, issue 10' }) })).note!;
    const d = (await t.client.createNote({ scope: { ...scope, tenantId: 1, issueId: 10 }, note: pdfDraft({ totalText: 'a later one' }) })).note!;
    await t.client.createNote({ scope: readerSession({ tenantId: 1, issueId: 10 }), note: pdfDraft({ totalText: 'another user' }) });

    const { notes } = await t.client.listUserNotes({ userId: scope.userId });

    expect(notes.map((entry) => [entry.tenantId, entry.issueId, entry.note!.id])).toEqual([
      [1, 10, c.id],
      [1, 10, d.id],
      [1, 11, b.id],
      [2, 20, a.id],
    ]);
    expect(notes[2]!.note).toEqual(b);
    expect(notes.map((entry) => entry.note!.totalText)).toEqual(['first tenant, issue 10', 'a later one', 'first tenant, issue 11', 'second tenant']);
  });

  it('when the user has no notes, then the list is empty; when the user id is missing, then the call is refused', async () => {
    expect((await t.client.listUserNotes({ userId: readerSession().userId })).notes).toEqual([]);
    expect((await failureOf(t.client.listUserNotes({ userId: 0 }))).code).toBe('INVALID_ARGUMENT');
  });
});
