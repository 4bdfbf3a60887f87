import { waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epubDraft, pdfDraft, readerSession, startTestNotes, type TestNotes } from './support.js';

describe('notes: account erasure on account.deleted', () => {
  let t: TestNotes;
  beforeAll(async () => {
    t = await startTestNotes();
    await t.eraserReady();
  });
  afterAll(() => t?.stop());

  const notesOf = (userId: number) => t.db.collection('notes').countDocuments({ user_id: userId });

  it("when identity publishes account.deleted, then the user's notes in every tenant and issue are erased and nobody else's", async () => {
    const leaving = readerSession({ tenantId: 1, issueId: 10 });
    const staying = readerSession({ tenantId: 1, issueId: 10 });
    for (const scope of [leaving, { ...leaving, issueId: 11 }, { ...leaving, tenantId: 3, issueId: 40 }, staying]) {
      await t.client.createNote({ scope, note: pdfDraft() });
      await t.client.createNote({ scope, note: epubDraft() });
    }
    expect(await notesOf(leaving.userId)).toBe(6);

    await t.publish('account.deleted', { user_id: leaving.userId, email: 'leaving@test.example.com' });

    await waitFor(async () => ((await notesOf(leaving.userId)) === 0 ? true : undefined), { what: 'the notes to be erased' });
    expect((await t.client.listNotes({ scope: leaving })).notes).toEqual([]);
    expect(await notesOf(staying.userId)).toBe(2);
    expect((await t.client.listNotes({ scope: staying })).notes).toHaveLength(2);
  });
});
