// Who may read what, end to end against ./dev up: no access is 403, a preview
// session gives the tenant's preview share instead, a reader-token resumes its
// own session only, and a corrupt, foreign or other-tenant reader-token is 403
// on every route that takes one.
import { uniqueEmail } from '@folio/testing';
import { DOMParser } from '@xmldom/xmldom';
import JSZip from 'jszip';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, type Tokens } from './client.js';
import { api, corruptReaderToken, fetchContent, openSession, pngSize, session, sharedLogin, STORE, v2, type ReaderSessionBody } from './reader-helpers.js';

describe('reader access (running stack)', () => {
  let ana: Tokens;
  let bruno: Tokens;
  let fresh: Tokens;
  let anaEpub: ReaderSessionBody; // tenant 1, issue 1001
  let anaSur: ReaderSessionBody; // tenant 2, issue 2001
  beforeAll(async () => {
    [ana, bruno, fresh] = await Promise.all([sharedLogin('ana@example.com'), sharedLogin('bruno@example.com'), loginByEmail(uniqueEmail('previewer'))]);
    [anaEpub, anaSur] = await Promise.all([session(ana.access_token, 1, 1001), session(ana.access_token, 2, 2001)]);
  });

  describe('no access', () => {
    it('when bruno (no grant on 1002) opens it, then 403 with a message', async () => {
      const response = await openSession(bruno.access_token, 1, 1002);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: expect.any(String) });
    });

    it('when a new member opens a paid EPUB, then 403; the free audiobook opens', async () => {
      expect((await openSession(fresh.access_token, 1, 1001)).status).toBe(403);
      expect((await openSession(fresh.access_token, 1, 1003)).status).toBe(200);
    });

    it('when the issue belongs to another tenant than X-Svc-Tenant-Id, then it is not found', async () => {
      expect((await openSession(ana.access_token, 1, 2001)).status).toBe(404);
    });

    it('when the issue is physical, then 422: there is nothing to read', async () => {
      expect((await openSession(ana.access_token, 1, 1005)).status).toBe(422);
    });

    it('when the JWT is missing, then 401; without X-Svc-Tenant-Id, then 412', async () => {
      expect((await api('POST', '/api/v2/reader/1001/sessions', { headers: v2(1) })).status).toBe(401);
      expect((await api('POST', '/api/v2/reader/1001/sessions', { token: ana.access_token })).status).toBe(412);
    });
  });

  describe('preview shares', () => {
    it('when bruno opens 1002 (4 pages) with preview=true, then he gets ceil(4 x 10%) = 1 page, marked custom_preview', async () => {
      const preview = await session(bruno.access_token, 1, 1002, { preview: true });
      expect(preview.custom_preview).toBe(true);
      expect(preview.files_urls).toHaveLength(1);
      expect(preview.files_info).toHaveLength(1);
      const page = await fetchContent(preview.files_urls![0]!);
      expect(page.status).toBe(200);
      expect(pngSize(page.bytes)).toEqual(preview.files_info![0]);
      for (const entry of preview.table_of_contents as { page: number }[]) expect(entry.page).toBeLessThanOrEqual(1);
    });

    it('when preview=1 is sent, then it is a preview too', async () => {
      const response = await api('POST', '/api/v2/reader/1002/sessions?preview=1', { token: bruno.access_token, headers: v2(1) });
      expect(response.status).toBe(200);
      expect(response.body.custom_preview).toBe(true);
    });

    it('when a new member previews the 3-chapter EPUB 1001, then a cut EPUB with the first chapter only is served', async () => {
      const full = anaEpub;
      const preview = await session(fresh.access_token, 1, 1001, { preview: true });
      expect(preview.custom_preview).toBe(true);
      expect(preview.spine).toEqual(full.spine!.slice(0, 1));
      expect(preview.total_words!).toBeLessThan(full.total_words!);
      expect(preview.file_url).toMatch(/\/media\/1\/1001\/preview-1\.epub\?exp=\d+&sig=/);

      const file = await fetchContent(preview.file_url!);
      expect(file.status).toBe(200);
      const zip = await JSZip.loadAsync(file.bytes);
      const container = new DOMParser().parseFromString(await zip.file('META-INF/container.xml')!.async('string'), 'application/xml');
      const opfPath = container.getElementsByTagName('rootfile')[0]!.getAttribute('full-path')!;
      const opf = new DOMParser().parseFromString(await zip.file(opfPath)!.async('string'), 'application/xml');
      expect(opf.getElementsByTagNameNS('http://www.idpf.org/2007/opf', 'itemref').length).toBe(1);
    });

    it('when a preview session searches, then only its share is searched', async () => {
      const preview = await session(bruno.access_token, 1, 1002, { preview: true });
      // "sailmaker" is on page 2 only, outside the one-page preview.
      const hidden = await api('GET', '/api/v2/reader/issue-text-content?search=sailmaker', {
        token: bruno.access_token,
        headers: v2(1, preview.token),
      });
      expect(hidden.status).toBe(200);
      expect(hidden.body).toEqual([]);
      const shown = await api('GET', '/api/v2/reader/issue-text-content?search=ferry%20terminal', {
        token: bruno.access_token,
        headers: v2(1, preview.token),
      });
      expect(shown.body.length).toBeGreaterThan(0);
    });
  });

  describe('resuming with a reader-token', () => {
    it('when the session is opened again with its own reader-token, then the same session and token come back', async () => {
      const resumed = await openSession(ana.access_token, 1, 1001, { readerToken: anaEpub.token });
      expect(resumed.status).toBe(200);
      expect(resumed.body.token).toBe(anaEpub.token);
      expect(resumed.body.spine).toEqual(anaEpub.spine);
    });

    it('when the reader-token is corrupt, then 403', async () => {
      const corrupt = corruptReaderToken(anaEpub.token);
      expect(corrupt).not.toBe(anaEpub.token);
      expect((await openSession(ana.access_token, 1, 1001, { readerToken: corrupt })).status).toBe(403);
      expect((await openSession(ana.access_token, 1, 1001, { readerToken: 'not-a-token' })).status).toBe(403);
    });

    it("when the reader-token is another user's, then 403 even where the user could read the issue", async () => {
      const brunos = await session(bruno.access_token, 1, 1001);
      expect((await openSession(ana.access_token, 1, 1001, { readerToken: brunos.token })).status).toBe(403);
    });

    it('when the reader-token is for another issue or tenant, then 403', async () => {
      expect((await openSession(ana.access_token, 1, 1009, { readerToken: anaEpub.token })).status).toBe(403);
      expect((await openSession(ana.access_token, 1, 1001, { readerToken: anaSur.token })).status).toBe(403);
    });
  });

  describe('reader-token on the routes that require one', () => {
    const notes = (jwt: string, headers: Record<string, string>) => api('GET', '/api/v2/reader/notes', { token: jwt, headers });
    const search = (jwt: string, headers: Record<string, string>) => api('GET', '/api/v2/reader/issue-text-content?search=keeper', { token: jwt, headers });

    it('when the token is valid for the tenant, then notes and search answer 200', async () => {
      expect((await notes(ana.access_token, v2(1, anaEpub.token))).status).toBe(200);
      expect((await search(ana.access_token, v2(1, anaEpub.token))).status).toBe(200);
    });

    it('when the reader-token header is missing, then 403', async () => {
      expect((await notes(ana.access_token, v2(1))).status).toBe(403);
      expect((await search(ana.access_token, v2(1))).status).toBe(403);
    });

    it('when the reader-token is corrupt, then 403', async () => {
      const corrupt = corruptReaderToken(anaEpub.token);
      for (const token of [corrupt, 'garbage', 'a.b.c.d.e']) {
        expect((await notes(ana.access_token, v2(1, token))).status).toBe(403);
        expect((await search(ana.access_token, v2(1, token))).status).toBe(403);
      }
    });

    it('when the token was issued for another tenant than X-Svc-Tenant-Id, then 403', async () => {
      expect((await notes(ana.access_token, v2(1, anaSur.token))).status).toBe(403);
      expect((await search(ana.access_token, v2(1, anaSur.token))).status).toBe(403);
      expect((await notes(ana.access_token, v2(2, anaEpub.token))).status).toBe(403);
    });

    it("when bruno sends ana's reader-token with his own JWT, then 403 (a foreign token)", async () => {
      expect((await notes(bruno.access_token, v2(1, anaEpub.token))).status).toBe(403);
      expect((await search(bruno.access_token, v2(1, anaEpub.token))).status).toBe(403);
    });

    it("when a v1 route gets a token of another store's tenant, then 403", async () => {
      const response = await api('GET', '/api/v1/notes', { headers: { host: STORE[1], 'reader-token': anaSur.token } });
      expect(response.status).toBe(403);
      const right = await api('GET', '/api/v1/notes', { headers: { host: STORE[2], 'reader-token': anaSur.token } });
      expect(right.status).toBe(200);
    });
  });
});
