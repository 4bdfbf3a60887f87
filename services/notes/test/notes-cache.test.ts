// A reader's notes in one issue come from memory (data/cached-notes.ts, a TTL
// far longer than this test runs). A note written through one replica must be
// listed at once by it and, through notes.changed, by another replica that
// had the old list cached; the same for an update, a deletion and an erasure.
import { createPromiseClient } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { notes } from '@folio/proto';
import { deleteTopology, uniqueName, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotes, type RunningNotes } from '../src/app.js';
import { loadNotesConfig } from '../src/config.js';
import { pdfDraft, readerSession, startTestNotes, type NotesClient, type TestNotes } from './support.js';

describe('cached notes on two replicas', () => {
  let t: TestNotes;
  let second: RunningNotes;
  let other: NotesClient;
  const queuePrefix = uniqueName('notes2');

  beforeAll(async () => {
    t = await startTestNotes();
    // The same database and exchanges: another pod of the same deployment.
    const env = Object.fromEntries(Object.entries(t.config).map(([key, value]) => [key, String(value)]));
    second = await startNotes(loadNotesConfig({ ...env, GRPC_PORT: '0', QUEUE_PREFIX: queuePrefix }), createLogger({ service: 'notes-2', level: 'silent' }));
    other = createPromiseClient(notes.NotesServiceClient, `127.0.0.1:${second.grpcPort}`, { defaultDeadlineMs: 10_000 });
  });
  afterAll(async () => {
    other?.close();
    await second?.stop();
    await t?.stop();
    await deleteTopology({ consumers: [`${queuePrefix}.account-eraser`] }).catch(() => {});
  });

  const uuids = async (client: NotesClient, scope: notes.ReaderScope) => (await client.listNotes({ scope })).notes.map((note) => note.uuid);

  it('when a note is written, changed and deleted through one replica, then both replicas list what is stored', async () => {
    const scope = readerSession();
    expect(await uuids(t.client, scope)).toEqual([]);
    expect(await uuids(other, scope)).toEqual([]); // cached on both now

    const { note } = await t.client.createNote({ scope, note: pdfDraft() });
    expect(await uuids(t.client, scope)).toEqual([note!.uuid]);
    await waitFor(async () => ((await uuids(other, scope)).length === 1 ? true : undefined), { what: 'the other replica listing the new note' });

    await other.updateNote({ scope, noteId: note!.id, color: 'green', annotationText: undefined });
    await waitFor(async () => ((await t.client.listNotes({ scope })).notes[0]?.color === 'green' ? true : undefined), {
      what: 'the first replica listing the new colour',
    });

    await t.client.deleteNote({ scope, noteId: note!.id });
    expect(await uuids(t.client, scope)).toEqual([]);
    await waitFor(async () => ((await uuids(other, scope)).length === 0 ? true : undefined), { what: 'the other replica forgetting the deleted note' });
  });
});
