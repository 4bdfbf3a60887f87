// KOReader progress sync on the store host, end to end against ./dev up:
// KOReader's own requests (x-auth-user / x-auth-key = MD5 hex of a device
// key), documents named by KOReader's partial MD5 of the file the OPDS link
// downloads; a push moves continue-reading, a position saved through the API
// is what KOReader pulls, newest wins; for an EPUB (a fresh member of Aurora,
// free access, 4001) and a PDF (bruno's 1007 at Northwind).
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, sharedLogin, type Tokens } from './client.js';
import { koreaderHash, md5 } from './e-reader-clients.js';
import { api, fetchContent, session, v2 } from './reader-helpers.js';

const NORTHWIND = 'northwind.localhost:8080';
const AURORA = 'aurora.localhost:8080';
const KOREADER = 'application/vnd.koreader.v1+json';
const KOREADER_V2 = 'application/vnd.koreader.v2+json';

interface Reader {
  email: string;
  jwt: Tokens;
  headers: Record<string, string>;
  host: string;
}

async function koreaderUser(email: string, jwt: Tokens, host: string): Promise<Reader> {
  const created = await api('POST', '/api/v2/user/device-keys', { token: jwt.access_token, body: { label: 'KOReader' } });
  if (created.status !== 201) throw new Error(`device key: ${created.status}`);
  return { email, jwt, host, headers: { host, accept: KOREADER, 'x-auth-user': email, 'x-auth-key': md5(created.body.key as string) } };
}

/** The file KOReader would have: downloaded through the OPDS acquisition route with HTTP Basic. */
async function documentOf(reader: Reader, issueId: number): Promise<string> {
  const redirect = await api('GET', `/opds/download/${issueId}`, { headers: { host: reader.host }, token: reader.jwt.access_token });
  expect(redirect.status).toBe(302);
  const file = await fetchContent(redirect.headers.get('location')!);
  expect(file.status).toBe(200);
  return koreaderHash(file.bytes);
}

const push = (reader: Reader, body: Record<string, unknown>) => api('PUT', '/kosync/syncs/progress', { headers: reader.headers, body });
const pull = (reader: Reader, document: string) => api('GET', `/kosync/syncs/progress/${document}`, { headers: reader.headers });
const continueReading = async (reader: Reader) =>
  (await api('GET', '/api/v2/user/continue-reading', { token: reader.jwt.access_token })).body.data.map((item: { id: number }) => item.id) as number[];

describe('KOReader progress sync (running stack)', () => {
  let epubReader: Reader;
  let pdfReader: Reader;
  beforeAll(async () => {
    const email = uniqueEmail('koreader');
    const [fresh, bruno] = await Promise.all([loginByEmail(email, { appTenantId: 4 }), sharedLogin('bruno@example.com')]);
    [epubReader, pdfReader] = await Promise.all([koreaderUser(email, fresh, AURORA), koreaderUser('bruno@example.com', bruno, NORTHWIND)]);
  });

  it('when KOReader checks the login, then the MD5 of a device key is authorized and anything else is 401', async () => {
    const ok = await api('GET', '/kosync/users/auth', { headers: epubReader.headers });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ authorized: 'OK' });
    expect(ok.headers.get('content-type')).toMatch(/^application\/vnd\.koreader\.v1\+json/);
    const wrong = await api('GET', '/kosync/users/auth', { headers: { ...epubReader.headers, 'x-auth-key': md5('guess') } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toEqual(expect.any(String));
    // Aurora is not one of bruno's stores.
    expect((await api('GET', '/kosync/users/auth', { headers: { ...pdfReader.headers, host: AURORA } })).status).toBe(401);
  });

  it('when KOReader tries to register, then 402 with a message telling the user to create a device key', async () => {
    const response = await api('POST', '/kosync/users/create', {
      headers: { host: NORTHWIND, accept: KOREADER },
      body: { username: 'x@example.com', password: md5('x') },
    });
    expect(response.status).toBe(402);
    expect(response.body.message).toMatch(/device key/);
  });

  it('when KOReader pushes progress of the EPUB, then continue-reading shows it and the pull gives it back', async () => {
    const document = await documentOf(epubReader, 4001);
    const pushed = await push(epubReader, { document, progress: '/body/DocFragment[2]/body/p[3]/text().0', percentage: 0.4, device: 'Kobo', device_id: 'K1' });
    expect(pushed.status).toBe(200);
    expect(pushed.body).toEqual({ document, timestamp: expect.any(Number) });
    expect((await continueReading(epubReader))[0]).toBe(4001);

    const pulled = await pull(epubReader, document);
    expect(pulled.body).toMatchObject({ document, progress: '/body/DocFragment[2]/body/p[3]/text().0', percentage: 0.4, device: 'Kobo', device_id: 'K1' });
  });

  it('when a position of the EPUB is saved through the API later, then that is what KOReader pulls', async () => {
    const document = await documentOf(epubReader, 4001);
    const spine = (await session(epubReader.jwt.access_token, 4, 4001)).spine!;
    const chapter = Math.min(2, spine.length - 1);
    const saved = await api('PUT', '/api/v2/reader/4001/last-location', {
      token: epubReader.jwt.access_token,
      headers: v2(4),
      body: { lastLocation: { chapterHref: spine[chapter]!.href, cfi: `epubcfi(/6/${2 * (chapter + 1)}!/4/2)` } },
    });
    expect(saved.status).toBe(200);
    const pulled = await pull(epubReader, document);
    expect(pulled.body).toMatchObject({ document, progress: `/body/DocFragment[${chapter + 1}]/body`, device: 'Folio' });
    expect(pulled.body.percentage).toBeGreaterThanOrEqual(0);
    expect(pulled.body.percentage).toBeLessThan(1);
  });

  it('when KOReader pushes PDF progress, then continue-reading moves; an API position saved afterwards is what it pulls', async () => {
    const document = await documentOf(pdfReader, 1007);
    expect((await push(pdfReader, { document, progress: 2, percentage: 0.5, device: 'Kindle', device_id: 'K2' })).status).toBe(200);
    expect((await continueReading(pdfReader))[0]).toBe(1007);
    expect((await pull(pdfReader, document)).body).toMatchObject({ progress: '2', device: 'Kindle' });

    const saved = await api('PUT', '/api/v2/reader/1007/last-location', {
      token: pdfReader.jwt.access_token,
      headers: v2(1),
      body: { lastLocation: { page: 1 } },
    });
    expect(saved.status).toBe(200);
    const pulled = await pull(pdfReader, document);
    expect(pulled.body).toMatchObject({ document, progress: '1', device: 'Folio' });

    // And the next push from KOReader is newer again.
    expect((await push(pdfReader, { document, progress: '3', percentage: 0.9, device: 'Kindle', device_id: 'K2' })).status).toBe(200);
    expect((await pull(pdfReader, document)).body).toMatchObject({ progress: '3', device: 'Kindle' });
  });

  it('when a document is unknown, then its progress is kept per user as the protocol expects; nothing pushed is {}', async () => {
    const document = md5(uniqueEmail('some-other-book'));
    expect((await pull(epubReader, document)).body).toEqual({});
    expect((await push(epubReader, { document, progress: '/body/DocFragment[9]', percentage: 0.9, device: 'Kobo', device_id: 'K1' })).status).toBe(200);
    expect((await pull(epubReader, document)).body).toMatchObject({ document, percentage: 0.9 });
    // Another user does not see it.
    expect((await pull(pdfReader, document)).body).toEqual({});
  });

  it('when the body or document is malformed, then 403 with the reference codes (2003, 2004); without headers 401', async () => {
    // As koreader-sync-server answers them (the 422 these got before was our own JSON error).
    const invalid = await push(epubReader, { document: 'x', progress: '1', percentage: 2, device: 'Kobo' });
    expect(invalid.status).toBe(403);
    expect(invalid.body).toEqual({ code: 2003, message: expect.stringMatching(/percentage/) });
    expect((await push(epubReader, { progress: '1', percentage: 0.1, device: 'Kobo' })).body).toMatchObject({ code: 2004 });
    // KOReader sends the device; the reference server requires it.
    expect((await push(epubReader, { document: 'abc', progress: '1', percentage: 0.1 })).body).toMatchObject({ code: 2003 });
    const unreadable = await api('GET', '/kosync/syncs/progress/not%20a%20hash', { headers: epubReader.headers });
    expect(unreadable.status).toBe(403);
    expect(unreadable.body).toMatchObject({ code: 2004 });
    expect((await api('GET', '/kosync/syncs/progress/abc', { headers: { host: AURORA } })).status).toBe(401);
  });

  it('when KOReader sends the percentage as a string and the hash in upper case, then both are taken, the hash echoed as sent and still matched to the issue', async () => {
    const document = (await documentOf(epubReader, 4001)).toUpperCase();
    const pushed = await push(epubReader, { document, progress: '/body/DocFragment[1]/body/p[1]', percentage: '0.1', device: 'Kobo', device_id: 'K1' });
    expect(pushed.body).toEqual({ document, timestamp: expect.any(Number) });
    expect((await continueReading(epubReader))[0]).toBe(4001);
    expect((await pull(epubReader, document)).body).toMatchObject({ document, percentage: 0.1, progress: '/body/DocFragment[1]/body/p[1]' });
    // The push moved the issue's reading position: the lower-case record is older, so its pull answers that position.
    expect((await pull(epubReader, document.toLowerCase())).body).toMatchObject({ progress: '/body/DocFragment[1]/body', device: 'Folio' });
  });

  it('when a v2 client names the EPUB by two identifiers, then a recompressed copy sharing one finds the same record and says how', async () => {
    const document = await documentOf(epubReader, 4001);
    const structure = md5(`structure of ${uniqueEmail('book')}`);
    const v2 = { ...epubReader.headers, accept: KOREADER_V2 };
    const pushed = await api('PUT', '/kosync/syncs/progress', {
      headers: v2,
      body: {
        document,
        identifiers: [
          { type: 'content', value: document },
          { type: 'structure', value: structure },
        ],
        progress: '/body/DocFragment[2]/body',
        percentage: 0.3,
        device: 'Kobo',
      },
    });
    expect(pushed.body).toEqual({ document, match: 'content', timestamp: expect.any(Number) });
    expect(pushed.headers.get('content-type')).toMatch(/^application\/vnd\.koreader\.v2\+json/);
    const copy = md5(uniqueEmail('recompressed'));
    const pulled = await api('GET', `/kosync/syncs/progress/${copy}?ids=content:${copy},structure:${structure}`, { headers: v2 });
    expect(pulled.body).toMatchObject({ document, match: 'structure', progress_match: 'structure', progress: '/body/DocFragment[2]/body' });
    // A v1 client asking for the copy's hash follows no alias.
    expect((await pull(epubReader, copy)).body).toEqual({});
  });

  it('when the store is asked for its health as KOReader does, then {"state": "OK"}', async () => {
    const health = await api('GET', '/kosync/healthcheck', { headers: { host: AURORA, accept: KOREADER } });
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ state: 'OK' });
  });
});
