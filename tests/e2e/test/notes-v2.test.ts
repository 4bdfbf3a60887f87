// Notes through API v2, end to end against ./dev up: create, list, update and
// delete highlights scoped by the reader session, `totalText` encrypted in
// every response with the key derived from the reader-token (decrypted here
// with @folio/crypto), text and position immutable, 403 across users.
import { decryptText, TextDecryptionError } from '@folio/crypto';
import { uniqueName } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Tokens } from './client.js';
import { api, session, sharedLogin, STORE, v2, type ReaderSessionBody } from './reader-helpers.js';

interface Note {
  id: number;
  uuid: string;
  color: string;
  totalLength: number;
  totalText: string;
  annotationText: string | null;
  startPage: number | null;
  startPageStartOffset: number | null;
  startPageLength: number | null;
  endPage: number | null;
  endPageLength: number | null;
  epubLocationStartCfi: string | null;
  epubLocationEndCfi: string | null;
  epubChapter: string | null;
  epubLocationStartChar: string | null;
  epubLocation: string[] | string | null;
  createdAt: string;
  updatedAt: string;
}

const NOTE_KEYS = [
  'id',
  'uuid',
  'color',
  'totalLength',
  'totalText',
  'annotationText',
  'startPage',
  'startPageStartOffset',
  'startPageLength',
  'endPage',
  'endPageLength',
  'epubLocationStartCfi',
  'epubLocationEndCfi',
  'epubChapter',
  'epubLocationStartChar',
  'epubLocation',
  'createdAt',
  'updatedAt',
].sort();

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function epubNote(text = 'The keeper climbed the spiral stairs') {
  return {
    uuid: uniqueName('note'),
    color: 'yellow',
    totalLength: text.length,
    totalText: text,
    annotationText: 'Opening line',
    epubLocationStartCfi: 'epubcfi(/6/2[chapter-1]!/4/2,/1:0,/1:36)',
    epubLocationEndCfi: 'epubcfi(/6/2[chapter-1]!/4/2/1:36)',
    epubChapter: 'text/chapter-1.xhtml',
    epubLocationStartChar: '0',
    epubLocation: ['text/chapter-1.xhtml', 'epubcfi(/6/2[chapter-1]!/4/2,/1:0,/1:36)'],
  };
}

describe('notes, API v2 (running stack)', () => {
  let ana: Tokens;
  let bruno: Tokens;
  let anaEpub: ReaderSessionBody; // 1001, tenant 1
  let anaPdf: ReaderSessionBody; // 2002, tenant 2
  let brunoEpub: ReaderSessionBody; // 1001, tenant 1
  beforeAll(async () => {
    [ana, bruno] = await Promise.all([sharedLogin('ana@example.com'), sharedLogin('bruno@example.com')]);
    [anaEpub, anaPdf, brunoEpub] = await Promise.all([
      session(ana.access_token, 1, 1001),
      session(ana.access_token, 2, 2002),
      session(bruno.access_token, 1, 1001),
    ]);
  });

  const call = (method: string, path: string, jwt: string, tenantId: number, readerToken: string, body?: unknown) =>
    api<Note & { errors?: Record<string, string[]>; message?: string }>(method, `/api/v2/reader/notes${path}`, {
      token: jwt,
      headers: v2(tenantId, readerToken),
      body,
    });
  const asAna = (method: string, path = '', body?: unknown) => call(method, path, ana.access_token, 1, anaEpub.token, body);

  it('when ana highlights a passage of an EPUB, then 201 with every field, camelCase, totalText encrypted with her reader-token key', async () => {
    const draft = epubNote();
    const created = await asAna('POST', '', draft);
    expect(created.status).toBe(201);
    const note = created.body;
    expect(Object.keys(note).sort()).toEqual(NOTE_KEYS);
    expect(note).toMatchObject({
      id: expect.any(Number),
      uuid: draft.uuid,
      color: 'yellow',
      totalLength: draft.totalLength,
      annotationText: 'Opening line',
      startPage: null,
      startPageStartOffset: null,
      startPageLength: null,
      endPage: null,
      endPageLength: null,
      epubLocationStartCfi: draft.epubLocationStartCfi,
      epubLocationEndCfi: draft.epubLocationEndCfi,
      epubChapter: 'text/chapter-1.xhtml',
      epubLocationStartChar: '0',
      epubLocation: draft.epubLocation,
    });
    expect(note.createdAt).toMatch(ISO);
    expect(note.updatedAt).toMatch(ISO);
    expect(note.totalText).not.toContain('keeper');
    expect(decryptText(anaEpub.token, note.totalText)).toBe(draft.totalText);
    // The key is the reader-token's: another session's token cannot read it.
    expect(() => decryptText(brunoEpub.token, note.totalText)).toThrow(TextDecryptionError);
  });

  it('when ana highlights a PDF passage, then the PDF position comes back and the EPUB keys are null', async () => {
    const text = 'el trigo de este año';
    const created = await call('POST', '', ana.access_token, 2, anaPdf.token, {
      uuid: uniqueName('pdf'),
      color: 'green',
      totalLength: text.length,
      totalText: text,
      startPage: 1,
      startPageStartOffset: 40,
      startPageLength: text.length,
      endPage: 1,
      endPageLength: text.length,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      startPage: 1,
      startPageStartOffset: 40,
      startPageLength: text.length,
      endPage: 1,
      endPageLength: text.length,
      annotationText: null,
      epubLocationStartCfi: null,
      epubLocationEndCfi: null,
      epubChapter: null,
      epubLocationStartChar: null,
      epubLocation: null,
    });
    expect(decryptText(anaPdf.token, created.body.totalText)).toBe(text);
  });

  it('when ana lists her notes, then the notes of this issue only, oldest first, each encrypted anew', async () => {
    const first = (await asAna('POST', '', epubNote('first highlight'))).body;
    const second = (await asAna('POST', '', epubNote('second highlight'))).body;
    const listed = await api<Note[]>('GET', '/api/v2/reader/notes', { token: ana.access_token, headers: v2(1, anaEpub.token) });
    expect(listed.status).toBe(200);
    const ids = listed.body.map((note) => note.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    const createdAts = listed.body.map((note) => note.createdAt);
    expect([...createdAts].sort()).toEqual(createdAts);
    for (const note of listed.body) {
      expect(Object.keys(note).sort()).toEqual(NOTE_KEYS);
      expect(decryptText(anaEpub.token, note.totalText)).toEqual(expect.any(String));
    }
    expect(decryptText(anaEpub.token, listed.body.find((note) => note.id === second.id)!.totalText)).toBe('second highlight');
    // Ana's PDF notes of Editorial Sur are in another scope.
    expect(listed.body.every((note) => note.startPage === null)).toBe(true);
  });

  it('when a note is updated, then only color and annotationText change; text and position are immutable', async () => {
    const original = (await asAna('POST', '', epubNote())).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const updated = await asAna('PUT', `/${original.id}`, {
      color: 'blue',
      annotationText: 'Changed my mind',
      totalText: 'something else entirely',
      totalLength: 3,
      epubChapter: 'text/chapter-3.xhtml',
      startPage: 9,
      uuid: 'another-uuid',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id: original.id,
      uuid: original.uuid,
      color: 'blue',
      annotationText: 'Changed my mind',
      totalLength: original.totalLength,
      epubChapter: original.epubChapter,
      epubLocation: original.epubLocation,
      startPage: null,
      createdAt: original.createdAt,
    });
    expect(updated.body.updatedAt > original.updatedAt).toBe(true);
    expect(decryptText(anaEpub.token, updated.body.totalText)).toBe('The keeper climbed the spiral stairs');
  });

  it('when annotationText is absent the comment is kept; when it is null it is cleared', async () => {
    const note = (await asAna('POST', '', epubNote())).body;
    const kept = await asAna('PUT', `/${note.id}`, { color: 'pink' });
    expect(kept.body).toMatchObject({ color: 'pink', annotationText: 'Opening line' });
    const cleared = await asAna('PUT', `/${note.id}`, { color: 'pink', annotationText: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.annotationText).toBeNull();
  });

  it('when a note is deleted, then 200 with the note as it was (text encrypted), and it is gone from the list', async () => {
    const note = (await asAna('POST', '', epubNote('to be deleted'))).body;
    const deleted = await asAna('DELETE', `/${note.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: note.id, uuid: note.uuid });
    expect(decryptText(anaEpub.token, deleted.body.totalText)).toBe('to be deleted');
    const listed = await api<Note[]>('GET', '/api/v2/reader/notes', { token: ana.access_token, headers: v2(1, anaEpub.token) });
    expect(listed.body.map((n) => n.id)).not.toContain(note.id);
    expect((await asAna('DELETE', `/${note.id}`)).status).toBe(404);
  });

  it("when bruno updates or deletes ana's note (same tenant and issue), then 403 and the note is unchanged", async () => {
    const note = (await asAna('POST', '', epubNote())).body;
    const asBruno = (method: string, body?: unknown) => call(method, `/${note.id}`, bruno.access_token, 1, brunoEpub.token, body);
    expect((await asBruno('PUT', { color: 'black' })).status).toBe(403);
    expect((await asBruno('DELETE')).status).toBe(403);
    const brunos = await api<Note[]>('GET', '/api/v2/reader/notes', { token: bruno.access_token, headers: v2(1, brunoEpub.token) });
    expect(brunos.body.map((n) => n.id)).not.toContain(note.id);
    const v1 = await api('GET', `/api/v1/notes/${note.id}`, { headers: { host: STORE[1], 'reader-token': brunoEpub.token } });
    expect(v1.status).toBe(403);
    const still = await api<Note[]>('GET', '/api/v2/reader/notes', { token: ana.access_token, headers: v2(1, anaEpub.token) });
    expect(still.body.find((n) => n.id === note.id)?.color).toBe('yellow');
  });

  it('when the same uuid is posted twice, then 201 both times with the one note, unchanged', async () => {
    const draft = epubNote();
    const first = await asAna('POST', '', draft);
    const again = await asAna('POST', '', { ...draft, color: 'red', totalText: 'other text', totalLength: 10 });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.color).toBe('yellow');
    expect(decryptText(anaEpub.token, again.body.totalText)).toBe(draft.totalText);
  });

  it.each([
    ['no uuid', { uuid: undefined }, 'uuid'],
    ['no color', { color: undefined }, 'color'],
    ['totalLength 0', { totalLength: 0 }, 'totalLength'],
    ['no totalText', { totalText: undefined }, 'totalText'],
    ['epubLocation as a v1 string', { epubLocation: 'text/chapter-1.xhtml' }, 'epubLocation'],
    [
      'a page beyond int32',
      { epubLocationStartCfi: null, epubLocationEndCfi: null, epubChapter: null, epubLocationStartChar: null, epubLocation: null, startPage: 2 ** 31 },
      'startPage',
    ],
  ])('when the body has %s, then 422 naming the field', async (_what, change, field) => {
    const response = await asAna('POST', '', { ...epubNote(), ...change });
    expect(response.status).toBe(422);
    expect(response.body.errors).toHaveProperty([field]);
  });

  it('when a note mixes PDF and EPUB positions, then 422', async () => {
    const response = await asAna('POST', '', { ...epubNote(), startPage: 1, endPage: 1 });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual(expect.any(Object));
  });

  it('when the note id is unknown, then 404; when it is not a positive integer, then 422', async () => {
    expect((await asAna('PUT', '/2147483647', { color: 'blue' })).status).toBe(404);
    expect((await asAna('DELETE', '/abc')).status).toBe(422);
  });

  it('when a note of ana in 1001 is addressed from her session of another tenant, then it is not found there', async () => {
    const note = (await asAna('POST', '', epubNote())).body;
    const response = await call('PUT', `/${note.id}`, ana.access_token, 2, anaPdf.token, { color: 'blue' });
    expect(response.status).toBe(404);
  });
});
