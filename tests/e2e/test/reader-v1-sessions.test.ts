// The reader engine's flow, end to end against ./dev up: the app asks for the
// reader settings (v2), the engine exchanges their `token` at
// POST {store}/api/v1/sessions for a reader session, uses its reader-token on
// the v1 API, and the session is read and deleted by id (after which its
// reader-token is refused and the id is 404).
// Needs catalog's GetIssue (the settings' issue block); until catalog
// implements it the settings answer what catalog answers and these tests fail.
import { uniqueName } from '@folio/testing';
import { decryptText } from '@folio/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Tokens } from './client.js';
import { api, session, sharedLogin, STORE, v2 } from './reader-helpers.js';

const settingsOf = (jwt: string, tenantId: number, issueId: number, { query = '', readerToken }: { query?: string; readerToken?: string } = {}) =>
  api('GET', `/api/v2/reader/settings/${issueId}${query}`, { token: jwt, headers: v2(tenantId, readerToken) });
const exchange = (host: string, body: unknown) => api('POST', '/api/v1/sessions', { headers: { host }, body });

describe('reader settings and the v1 session exchange (running stack)', () => {
  let ana: Tokens;
  let bruno: Tokens;
  beforeAll(async () => {
    [ana, bruno] = await Promise.all([sharedLogin('ana@example.com'), sharedLogin('bruno@example.com')]);
  });

  it('when ana asks for the reader settings of 1001, then every field of the spec, from tenant, user and issue', async () => {
    const response = await settingsOf(ana.access_token, 1, 1001, { query: '?location=epubcfi(/6/2!/4/2)&lang=es' });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual(['engine_url', 'engine_url_proxied', 'features', 'issue', 'settings', 'token', 'tracker_track_token']);
    expect(body.token).toEqual(expect.any(String));
    expect(body.tracker_track_token).toEqual(expect.any(String));
    expect(body.features).toEqual({ tts: true, search: true, concurrency_limit: false, chinese_voice: false });
    expect(body.settings.tenant).toEqual({
      lang: 'es',
      reader_token_session_url: 'http://northwind.localhost:8080/api/v1/sessions',
      exit_url: 'https://northwind.localhost/library',
      reader: { pdf: { layout: 'single' }, tts: true, theme: 'light', extras: [], customStyles: null },
      preview: false,
    });
    expect(Object.keys(body.settings.user).sort()).toEqual(['epub', 'pdf', 'theme']);
    expect(body.issue).toMatchObject({
      name: "The Lighthouse Keeper's Atlas",
      description: 'A lighthouse keeper inherits an atlas of coastlines that do not exist.',
      file_type: 'epub',
      tags: { author: ['Mara Ellison'], keyword: ['lighthouse', 'atlas', 'sea'], edition: ['first'] },
      issue_url: 'http://northwind.localhost:8080/issues/1001',
      issue_full_url: 'http://northwind.localhost:8080/issues/1001/the-lighthouse-keepers-atlas',
      issue_tenant_id: 1,
      publication_date: '2026-03-02 09:00:00',
      user: { issue_is_favorite: expect.any(Boolean), last_location: expect.anything() },
      twitter_user: 'northwindreader',
    });
    for (const url of [body.engine_url, body.engine_url_proxied]) {
      const engine = new URL(url);
      expect(engine.searchParams.get('issue_id')).toBe('1001');
      expect(engine.searchParams.get('lang')).toBe('es');
      expect(engine.searchParams.get('location')).toBe('epubcfi(/6/2!/4/2)');
    }
  });

  it('when a saved position and user settings exist, then the settings show them', async () => {
    const lastLocation = { chapterHref: 'text/chapter-3.xhtml', cfi: 'epubcfi(/6/6[chapter-3]!/4/2)' };
    await api('PUT', '/api/v2/reader/1001/last-location', { token: ana.access_token, headers: v2(1), body: { lastLocation } });
    const response = await settingsOf(ana.access_token, 1, 1001);
    expect(response.body.issue.user.last_location).toEqual(lastLocation);
  });

  it('when the user cannot read the issue, then the settings say preview and the exchange opens a preview session', async () => {
    const response = await settingsOf(bruno.access_token, 1, 1002);
    expect(response.status).toBe(200);
    expect(response.body.settings.tenant.preview).toBe(true);
    const opened = await exchange(STORE[1], { token: response.body.token });
    expect(opened.status).toBe(200);
    expect(opened.body.custom_preview).toBe(true);
    expect(opened.body.files_urls).toHaveLength(1);
  });

  it('when the engine exchanges the settings token, reads the session, uses it and deletes it, then the token dies with it', async () => {
    const settings = await settingsOf(ana.access_token, 1, 1001);
    const opened = await exchange(STORE[1], { token: settings.body.token, reader: 'web-engine', engine_host: 'proxied', preview: false });
    expect(opened.status).toBe(200);
    const readerSession = opened.body;
    expect(readerSession).toMatchObject({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      token: expect.any(String),
      custom_preview: false,
      files_urls: null,
      tracks: null,
    });
    expect(readerSession.spine).toHaveLength(3);
    expect(readerSession.file_url).toMatch(/\/media\/1\/1001\/book\.epub\?exp=\d+&sig=/);

    // The reader-token of the exchange works on the v1 API of this store.
    const text = 'spiral stairs';
    const note = await api('POST', '/api/v1/notes', {
      headers: { host: STORE[1], 'reader-token': readerSession.token },
      body: { uuid: uniqueName('engine'), color: 'yellow', totalLength: text.length, totalText: text, epubLocation: 'epubcfi(/6/2!/4/2)' },
    });
    expect(note.status).toBe(201);
    expect(decryptText(readerSession.token, note.body.totalText)).toBe(text);

    const stored = await api('GET', `/api/v1/sessions/${readerSession.id}`, { headers: { host: STORE[1] } });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({
      id: readerSession.id,
      tenant_id: 1,
      issue_id: 1001,
      preview: false,
      api: 'v1',
      reader: 'web-engine',
      engine_host: 'proxied',
      token: null,
      spine: readerSession.spine,
      total_words: readerSession.total_words,
    });
    expect(stored.body.created_at).toEqual(expect.any(String));
    expect(stored.body.expires_at).toEqual(expect.any(String));

    // Another store does not see it.
    expect((await api('GET', `/api/v1/sessions/${readerSession.id}`, { headers: { host: STORE[2] } })).status).toBe(404);

    const deleted = await api('DELETE', `/api/v1/sessions/${readerSession.id}`, { headers: { host: STORE[1] } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: readerSession.id, issue_id: 1001, token: null });
    expect((await api('GET', `/api/v1/sessions/${readerSession.id}`, { headers: { host: STORE[1] } })).status).toBe(404);
    expect((await api('DELETE', `/api/v1/sessions/${readerSession.id}`, { headers: { host: STORE[1] } })).status).toBe(404);
    const refused = await api('GET', '/api/v1/notes', { headers: { host: STORE[1], 'reader-token': readerSession.token } });
    expect(refused.status).toBe(403);
  });

  it('when the settings were asked with a reader-token, then the exchange resumes that session with a fresh token', async () => {
    const v2Session = await session(ana.access_token, 1, 1001);
    const settings = await settingsOf(ana.access_token, 1, 1001, { readerToken: v2Session.token });
    expect(settings.status).toBe(200);
    const opened = await exchange(STORE[1], { token: settings.body.token });
    expect(opened.status).toBe(200);
    const again = await exchange(STORE[1], { token: settings.body.token });
    expect(again.body.id).toBe(opened.body.id);
  });

  it('when the settings are asked with a foreign or corrupt reader-token, then 403', async () => {
    const brunos = await session(bruno.access_token, 1, 1001);
    expect((await settingsOf(ana.access_token, 1, 1001, { readerToken: brunos.token })).status).toBe(403);
    expect((await settingsOf(ana.access_token, 1, 1001, { readerToken: 'corrupt' })).status).toBe(403);
  });

  it('when the settings token is exchanged at another store, corrupted, or a reader-token is sent instead, then 403', async () => {
    const settings = await settingsOf(ana.access_token, 1, 1001);
    expect((await exchange(STORE[2], { token: settings.body.token })).status).toBe(403);
    expect((await exchange(STORE[1], { token: `${settings.body.token}x` })).status).toBe(403);
    const v2Session = await session(ana.access_token, 1, 1001);
    expect((await exchange(STORE[1], { token: v2Session.token })).status).toBe(403);
  });

  it('when the exchange body has no token, then 422; an unknown session id is 404 (numbers too: ids are random), an over-long one 422', async () => {
    const missing = await exchange(STORE[1], {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toHaveProperty('token');
    for (const unknown of ['2147483646', '1', 'abc', 'A'.repeat(22)]) {
      expect((await api('GET', `/api/v1/sessions/${unknown}`, { headers: { host: STORE[1] } })).status, unknown).toBe(404);
      expect((await api('DELETE', `/api/v1/sessions/${unknown}`, { headers: { host: STORE[1] } })).status, unknown).toBe(404);
    }
    const tooLong = await api('GET', `/api/v1/sessions/${'a'.repeat(65)}`, { headers: { host: STORE[1] } });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors).toHaveProperty('id');
  });
});
