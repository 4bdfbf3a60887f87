// Notes through API v1 on the store host, end to end against ./dev up: the
// reader-token alone authenticates (here the token of a v2 session; the v1
// session exchange is covered in reader-v1-sessions.test.ts), `epubLocation`
// is a string, PATCH updates, the list is ordered by creation, totalText is
// encrypted with the reader-token's key, and another user's note is 403.
import { decryptText } from '@folio/crypto';
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
  endPage: number | null;
  epubLocation: string | string[] | null;
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
}

describe('notes, API v1 (running stack)', () => {
  let ana: Tokens;
  let bruno: Tokens;
  let anaEpub: ReaderSessionBody; // 1001, Northwind
  let anaPdf: ReaderSessionBody; // 2002, Editorial Sur
  let brunoEpub: ReaderSessionBody;
  beforeAll(async () => {
    [ana, bruno] = await Promise.all([sharedLogin('ana@example.com'), sharedLogin('bruno@example.com')]);
    [anaEpub, anaPdf, brunoEpub] = await Promise.all([
      session(ana.access_token, 1, 1001),
      session(ana.access_token, 2, 2002),
      session(bruno.access_token, 1, 1001),
    ]);
  });

  const v1 = (method: string, path: string, readerToken: string, { body, host = STORE[1] }: { body?: unknown; host?: string } = {}) =>
    api<Note & { errors?: Record<string, string[]> }>(method, `/api/v1/notes${path}`, { headers: { host, 'reader-token': readerToken }, body });

  const draft = (text: string, extra: Record<string, unknown> = {}) => ({
    uuid: uniqueName('v1note'),
    color: 'yellow',
    totalLength: text.length,
    totalText: text,
    epubChapter: 'text/chapter-2.xhtml',
    epubLocationStartCfi: 'epubcfi(/6/4[chapter-2]!/4/2,/1:4,/1:9)',
    epubLocation: 'epubcfi(/6/4[chapter-2]!/4/2,/1:4,/1:9)',
    ...extra,
  });

  it('when a note is created with epubLocation as a string, then 201 with the string back and totalText encrypted', async () => {
    const body = draft('atlas');
    const created = await v1('POST', '', anaEpub.token, { body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      uuid: body.uuid,
      color: 'yellow',
      totalLength: 5,
      epubLocation: body.epubLocation,
      startPage: null,
      annotationText: null,
    });
    expect(decryptText(anaEpub.token, created.body.totalText)).toBe('atlas');
  });

  it('when one note is fetched by id, then 200 with the note; an unknown id is 404', async () => {
    const created = (await v1('POST', '', anaEpub.token, { body: draft('harbours') })).body;
    const fetched = await v1('GET', `/${created.id}`, anaEpub.token);
    expect(fetched.status).toBe(200);
    expect({ ...fetched.body, totalText: undefined }).toEqual({ ...created, totalText: undefined });
    expect(decryptText(anaEpub.token, fetched.body.totalText)).toBe('harbours');
    expect((await v1('GET', '/2147483647', anaEpub.token)).status).toBe(404);
  });

  it('when the notes are listed, then ordered by creation date', async () => {
    const made: number[] = [];
    for (const text of ['one', 'two', 'three']) made.push((await v1('POST', '', anaEpub.token, { body: draft(text) })).body.id);
    const listed = await api<Note[]>('GET', '/api/v1/notes', { headers: { host: STORE[1], 'reader-token': anaEpub.token } });
    expect(listed.status).toBe(200);
    const ids = listed.body.map((note) => note.id);
    expect(ids.filter((id) => made.includes(id))).toEqual(made);
    const createdAts = listed.body.map((note) => note.createdAt);
    expect([...createdAts].sort()).toEqual(createdAts);
  });

  it('when a note is PATCHed, then color and comment change, text and position do not; null clears the comment', async () => {
    const created = (await v1('POST', '', anaEpub.token, { body: draft('channel', { annotationText: 'first thought' }) })).body;
    const patched = await v1('PATCH', `/${created.id}`, anaEpub.token, {
      body: { color: 'green', annotationText: 'second thought', totalText: 'changed', epubLocation: 'elsewhere', startPage: 3 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id: created.id,
      color: 'green',
      annotationText: 'second thought',
      epubLocation: created.epubLocation,
      startPage: null,
    });
    expect(decryptText(anaEpub.token, patched.body.totalText)).toBe('channel');

    const kept = await v1('PATCH', `/${created.id}`, anaEpub.token, { body: { color: 'green' } });
    expect(kept.body.annotationText).toBe('second thought');
    const cleared = await v1('PATCH', `/${created.id}`, anaEpub.token, { body: { color: 'green', annotationText: null } });
    expect(cleared.body.annotationText).toBeNull();
    expect((await v1('PATCH', `/${created.id}`, anaEpub.token, { body: { annotationText: 'no color' } })).status).toBe(422);
  });

  it('when a note is deleted, then 200 with the note and afterwards 404', async () => {
    const created = (await v1('POST', '', anaEpub.token, { body: draft('compass') })).body;
    const deleted = await v1('DELETE', `/${created.id}`, anaEpub.token);
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(created.id);
    expect(decryptText(anaEpub.token, deleted.body.totalText)).toBe('compass');
    expect((await v1('GET', `/${created.id}`, anaEpub.token)).status).toBe(404);
  });

  it("when bruno reads, patches or deletes ana's note, then 403", async () => {
    const created = (await v1('POST', '', anaEpub.token, { body: draft('lamp') })).body;
    expect((await v1('GET', `/${created.id}`, brunoEpub.token)).status).toBe(403);
    expect((await v1('PATCH', `/${created.id}`, brunoEpub.token, { body: { color: 'black' } })).status).toBe(403);
    expect((await v1('DELETE', `/${created.id}`, brunoEpub.token)).status).toBe(403);
    expect((await v1('GET', `/${created.id}`, anaEpub.token)).body.color).toBe('yellow');
  });

  it('when a PDF note is made on the Editorial Sur store, then it keeps its page position', async () => {
    const text = 'guiso de lentejas';
    const created = await v1('POST', '', anaPdf.token, {
      host: STORE[2],
      body: {
        uuid: uniqueName('pdf'),
        color: 'orange',
        totalLength: text.length,
        totalText: text,
        startPage: 3,
        startPageStartOffset: 20,
        startPageLength: 17,
        endPage: 3,
        endPageLength: 17,
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ startPage: 3, endPage: 3, epubLocation: null });
    expect(decryptText(anaPdf.token, created.body.totalText)).toBe(text);
  });

  it('when a note is made in v2 with an array epubLocation, then v1 shows it as the JSON text of the array', async () => {
    const location = ['text/chapter-1.xhtml', 'epubcfi(/6/2[chapter-1]!/4/2)'];
    const created = await api<Note>('POST', '/api/v2/reader/notes', {
      token: ana.access_token,
      headers: v2(1, anaEpub.token),
      body: { uuid: uniqueName('cross'), color: 'yellow', totalLength: 4, totalText: 'lamp', epubLocation: location },
    });
    expect(created.status).toBe(201);
    const seen = await v1('GET', `/${created.body.id}`, anaEpub.token);
    expect(seen.body.epubLocation).toBe(JSON.stringify(location));
  });

  it('when epubLocation is sent as an array to v1, or totalLength is 0, then 422 naming the field', async () => {
    const array = await v1('POST', '', anaEpub.token, { body: draft('lamp', { epubLocation: ['a'] }) });
    expect(array.status).toBe(422);
    expect(array.body.errors).toHaveProperty('epubLocation');
    const zero = await v1('POST', '', anaEpub.token, { body: draft('lamp', { totalLength: 0 }) });
    expect(zero.status).toBe(422);
    expect(zero.body.errors).toHaveProperty('totalLength');
  });

  it('when the reader-token is missing or corrupt, then 403', async () => {
    expect((await api('GET', '/api/v1/notes', { headers: { host: STORE[1] } })).status).toBe(403);
    expect((await v1('GET', '', 'corrupt')).status).toBe(403);
  });

  it('when the store host is unknown, then 404', async () => {
    expect((await v1('GET', '', anaEpub.token, { host: 'nowhere.localhost:8080' })).status).toBe(404);
  });
});
