// Account deletion erases reading data, end to end against ./dev up: a new
// user opens a reader session, saves a position and settings, writes notes in
// both API versions, then asks for deletion (help subject
// delete-account-and-data). identity publishes account.deleted; reader and
// notes erase the user's data. What a client can observe: the old
// reader-token is refused (its session is gone). What it cannot (the user no
// longer exists), the test reads from the services themselves: no notes, no
// positions.
import { uniqueEmail, uniqueName, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, type Tokens } from './client.js';
import { api, notesClient, readerClient, session, STORE, userIdOf, v2, type ReaderSessionBody } from './reader-helpers.js';

describe('erasure after account deletion (running stack)', () => {
  let user: Tokens;
  let userId: number;
  let audio: ReaderSessionBody;
  const reader = readerClient();
  const notes = notesClient();
  afterAll(() => {
    reader.close();
    notes.close();
  });

  beforeAll(async () => {
    user = await loginByEmail(uniqueEmail('erased'));
    userId = userIdOf(user.access_token);
    audio = await session(user.access_token, 1, 1003);
    const note = (text: string) => ({ uuid: uniqueName('n'), color: 'yellow', totalLength: text.length, totalText: text });
    const v2Note = await api('POST', '/api/v2/reader/notes', { token: user.access_token, headers: v2(1, audio.token), body: note('the harbour at dawn') });
    const v1Note = await api('POST', '/api/v1/notes', { headers: { host: STORE[1], 'reader-token': audio.token }, body: note('the night ferry') });
    const position = await api('PUT', '/api/v2/reader/1003/last-location', {
      token: user.access_token,
      headers: v2(1),
      body: { lastLocation: { currentSeek: 1, currentTrack: 1 } },
    });
    const settings = await api('PUT', '/api/v2/reader/settings', {
      token: user.access_token,
      headers: v2(1),
      body: { userReaderSettings: { theme: 'dark', epub: { zoom: null, layout: null }, pdf: { layout: null } } },
    });
    for (const response of [v2Note, v1Note, position, settings]) {
      if (response.status >= 300) throw new Error(`setup answered ${response.status}: ${response.text}`);
    }
  });

  it('before deletion, the reader-token works and the notes and the position exist', async () => {
    const listed = await api('GET', '/api/v1/notes', { headers: { host: STORE[1], 'reader-token': audio.token } });
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(2);
    const positions = await reader.listContinueReading({ userId, tenantIds: [1], page: 1, perPage: 6 });
    expect(positions.positions.map((p) => p.issueId)).toEqual([1003]);
  });

  it('when the user deletes the account, then the reader-token is refused and the notes and positions are erased', async () => {
    const help = await api('POST', '/api/v2/help', {
      token: user.access_token,
      body: { subject: 'delete-account-and-data', message: 'Please delete my account and everything I wrote.' },
    });
    expect(help.status).toBe(201);

    // reader erased the sessions: the token of the deleted session no longer opens anything.
    await waitFor(
      async () => ((await api('GET', '/api/v1/notes', { headers: { host: STORE[1], 'reader-token': audio.token } })).status === 403 ? true : undefined),
      { what: "reader's erasure of the sessions", timeoutMs: 20_000, intervalMs: 250 },
    );
    await waitFor(async () => ((await reader.listContinueReading({ userId, tenantIds: [1], page: 1, perPage: 6 })).total === 0 ? true : undefined), {
      what: "reader's erasure of the positions",
      timeoutMs: 20_000,
      intervalMs: 250,
    });
    // notes erased every note of the user (asked directly: no reader-token of the user can exist any more).
    await waitFor(
      async () => {
        const left = await notes.listNotes({ scope: { tenantId: 1, userId, issueId: 1003 } });
        return left.notes.length === 0 ? true : undefined;
      },
      { what: "notes' erasure", timeoutMs: 20_000, intervalMs: 250 },
    );
    // And the JWT is gone with the account.
    expect((await api('GET', '/api/v2/reader/notes', { token: user.access_token, headers: v2(1, audio.token) })).status).toBe(401);
  });
});
