// Reading position and reader settings, end to end against ./dev up: every
// last-location shape (EPUB, PDF, audio) and what makes each a 422, the
// user-wide reader settings, and continue-reading across two tenants.
import { uniqueEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, type Tokens } from './client.js';
import { api, readerClient, session, sharedLogin, userIdOf, v2 } from './reader-helpers.js';

const saveLocation = (jwt: string, tenantId: number, issueId: number, body: unknown) =>
  api('PUT', `/api/v2/reader/${issueId}/last-location`, { token: jwt, headers: v2(tenantId), body });

describe('last location (running stack)', () => {
  let ana: Tokens;
  let fresh: Tokens;
  let bruno: Tokens;
  beforeAll(async () => {
    [ana, bruno, fresh] = await Promise.all([sharedLogin('ana@example.com'), sharedLogin('bruno@example.com'), loginByEmail(uniqueEmail('positions'))]);
  });

  describe('EPUB {chapterHref, cfi} (ana, 1001)', () => {
    it('when a spine href and a CFI are sent, then 200 with the same object', async () => {
      const lastLocation = { chapterHref: 'text/chapter-2.xhtml', cfi: 'epubcfi(/6/4[chapter-2]!/4/2/1:12)' };
      const response = await saveLocation(ana.access_token, 1, 1001, { lastLocation });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ last_location: lastLocation });
    });

    it('when the href carries a fragment, then it still names the chapter; unknown keys are dropped', async () => {
      const response = await saveLocation(ana.access_token, 1, 1001, {
        lastLocation: { chapterHref: 'text/chapter-3.xhtml#p2', cfi: 'epubcfi(/6/6[chapter-3]!/4/2)', zoom: 3 },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ last_location: { chapterHref: 'text/chapter-3.xhtml#p2', cfi: 'epubcfi(/6/6[chapter-3]!/4/2)' } });
    });

    it.each([
      ['a chapter outside the spine', { chapterHref: 'text/chapter-9.xhtml', cfi: 'epubcfi(/6/4!/4/2)' }, 'lastLocation.chapterHref'],
      ['a cfi that is no CFI', { chapterHref: 'text/chapter-1.xhtml', cfi: 'page 3' }, 'lastLocation.cfi'],
      ['the PDF shape', { page: 2 }, 'lastLocation'],
      ['the audio shape', { currentSeek: 1, currentTrack: 0 }, 'lastLocation'],
    ])('when the body has %s, then 422 naming the field', async (_what, lastLocation, field) => {
      const response = await saveLocation(ana.access_token, 1, 1001, { lastLocation });
      expect(response.status).toBe(422);
      expect(Object.keys(response.body.errors).some((key) => key.startsWith(field))).toBe(true);
    });
  });

  describe('PDF {page} (ana, 2002 of Editorial Sur, 3 pages)', () => {
    it('when a page within the issue is sent, then 200 with the same object', async () => {
      for (const page of [1, 3]) {
        const response = await saveLocation(ana.access_token, 2, 2002, { lastLocation: { page } });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ last_location: { page } });
      }
    });

    it.each([
      ['page 0', { page: 0 }],
      ['a page past the end', { page: 4 }],
      ['a fractional page', { page: 1.5 }],
      ['a page as text', { page: '2' }],
      ['the EPUB shape', { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2!/4/2)' }],
      ['nothing', {}],
    ])('when the body has %s, then 422', async (_what, lastLocation) => {
      const response = await saveLocation(ana.access_token, 2, 2002, { lastLocation });
      expect(response.status).toBe(422);
      expect(response.body.message).toEqual(expect.any(String));
      expect(Object.keys(response.body.errors).some((key) => key.startsWith('lastLocation'))).toBe(true);
    });
  });

  describe('audiobook {currentSeek, currentTrack} (a new member, 1003: two tracks)', () => {
    let durations: number[];
    beforeAll(async () => {
      durations = (await session(fresh.access_token, 1, 1003)).tracks!.map((track) => track.duration);
    });

    it('when a seek within a track is sent, then 200 with the same object', async () => {
      for (const lastLocation of [
        { currentSeek: 0, currentTrack: 0 },
        { currentSeek: 1.25, currentTrack: 1 },
        { currentSeek: durations[1]!, currentTrack: 1 },
      ]) {
        const response = await saveLocation(fresh.access_token, 1, 1003, { lastLocation });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ last_location: lastLocation });
      }
    });

    it.each([
      ['a track past the last', () => ({ currentSeek: 0, currentTrack: 2 })],
      ['a negative track', () => ({ currentSeek: 0, currentTrack: -1 })],
      ['a negative seek', () => ({ currentSeek: -0.5, currentTrack: 0 })],
      ['a seek past the track', (d: number[]) => ({ currentSeek: d[0]! + 5, currentTrack: 0 })],
      ['a fractional track', () => ({ currentSeek: 0, currentTrack: 0.5 })],
      ['the PDF shape', () => ({ page: 1 })],
    ])('when the body has %s, then 422', async (_what, make) => {
      const response = await saveLocation(fresh.access_token, 1, 1003, { lastLocation: make(durations) });
      expect(response.status).toBe(422);
      expect(Object.keys(response.body.errors).some((key) => key.startsWith('lastLocation'))).toBe(true);
    });
  });

  it('when lastLocation is missing or not an object, then 422', async () => {
    expect((await saveLocation(ana.access_token, 1, 1001, {})).status).toBe(422);
    expect((await saveLocation(ana.access_token, 1, 1001, { lastLocation: 'chapter 2' })).status).toBe(422);
  });

  it('when the issue is not one of the tenant, then 404; a physical issue has no location (422)', async () => {
    expect((await saveLocation(ana.access_token, 1, 2002, { lastLocation: { page: 1 } })).status).toBe(404);
    expect((await saveLocation(ana.access_token, 1, 1005, { lastLocation: { page: 1 } })).status).toBe(422);
  });

  it('when a user without access saves a position, then 403: a position would list the issue in continue-reading (issue 10)', async () => {
    const refused = await saveLocation(bruno.access_token, 1, 1002, { lastLocation: { page: 1 } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: expect.any(String) });
  });
});

describe('user reader settings (running stack)', () => {
  let user: Tokens;
  beforeAll(async () => {
    user = await loginByEmail(uniqueEmail('settings'));
  });
  const put = (body: unknown) => api('PUT', '/api/v2/reader/settings', { token: user.access_token, headers: v2(1), body });

  it('when all three keys are sent, then 200 with the same object under user_reader_settings', async () => {
    const userReaderSettings = { theme: 'dark', epub: { zoom: 120, layout: 'scroll' }, pdf: { layout: 'double' } };
    const response = await put({ userReaderSettings });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ user_reader_settings: userReaderSettings });
  });

  it('when values are null, then they are saved as null (epub is sent even for PDF readers)', async () => {
    const userReaderSettings = { theme: null, epub: { zoom: null, layout: null }, pdf: { layout: 'continuous' } };
    const response = await put({ userReaderSettings });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ user_reader_settings: userReaderSettings });
  });

  it.each([
    ['epub missing', { theme: 'dark', pdf: { layout: 'single' } }, 'userReaderSettings.epub'],
    ['an unknown PDF layout', { theme: 'dark', epub: { zoom: null, layout: null }, pdf: { layout: 'diagonal' } }, 'userReaderSettings.pdf.layout'],
    ['a fractional zoom', { theme: 'dark', epub: { zoom: 1.5, layout: null }, pdf: { layout: null } }, 'userReaderSettings.epub.zoom'],
    ['a zoom of 0', { theme: 'dark', epub: { zoom: 0, layout: null }, pdf: { layout: null } }, 'userReaderSettings.epub.zoom'],
  ])('when %s, then 422 naming the field', async (_what, userReaderSettings, field) => {
    const response = await put({ userReaderSettings });
    expect(response.status).toBe(422);
    expect(response.body.errors).toHaveProperty([field]);
  });
});

describe('continue reading across two tenants (running stack)', () => {
  let ana: Tokens;
  const reader = readerClient();
  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
  });
  afterAll(() => reader.close());

  // The order ana reads in: Northwind EPUB, Sur PDF, Northwind gift EPUB, Sur EPUB.
  const reads: [number, number, unknown][] = [
    [1, 1001, { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2[chapter-1]!/4/2)' }],
    [2, 2002, { page: 2 }],
    [1, 1009, { chapterHref: 'text/chapter-2.xhtml', cfi: 'epubcfi(/6/4[chapter-2]!/4/2)' }],
    [2, 2001, { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2[chapter-1]!/4/2)' }],
  ];

  const expected = [...reads].reverse().map(([tenantId, issueId]) => ({ tenantId, issueId }));
  beforeAll(async () => {
    for (const [tenantId, issueId, lastLocation] of reads) {
      const saved = await saveLocation(ana.access_token, tenantId, issueId, { lastLocation });
      if (saved.status !== 200) throw new Error(`saving ${issueId} answered ${saved.status}: ${saved.text}`);
    }
  });

  it('when ana saved positions in two tenants, then the positions come most recently read first, across both tenants', async () => {
    // What the continue-reading route is built on: reader's positions of the user in the user's tenants.
    const listed = await reader.listContinueReading({ userId: userIdOf(ana.access_token), tenantIds: [1, 2], page: 1, perPage: 6 });
    expect(listed.positions.slice(0, 4).map(({ tenantId, issueId }) => ({ tenantId, issueId }))).toEqual(expected);
    expect(listed.total).toBeGreaterThanOrEqual(4);
    for (const position of listed.positions) expect(new Date(position.readAt).toISOString()).toBe(position.readAt);
  });

  it('when only one of the tenants is asked for, then only its positions come, in the same order', async () => {
    const listed = await reader.listContinueReading({ userId: userIdOf(ana.access_token), tenantIds: [2], page: 1, perPage: 6 });
    expect(listed.positions.slice(0, 2).map(({ issueId }) => issueId)).toEqual([2001, 2002]);
    expect(listed.positions.every(({ tenantId }) => tenantId === 2)).toBe(true);
  });

  it('when the client asks GET /api/v2/user/continue-reading, then the same order with page meta, per_page 6 by default', async () => {
    const response = await api('GET', '/api/v2/user/continue-reading', { token: ana.access_token });
    expect(response.status).toBe(200);
    expect(response.body.data.slice(0, 4).map((issue: { id: number; tenant_id: number }) => ({ tenantId: issue.tenant_id, issueId: issue.id }))).toEqual(
      expected,
    );
    expect(response.body.meta).toMatchObject({ current_page: 1, per_page: 6 });
  });

  it('when an issue is read again, then it moves to the front', async () => {
    const saved = await saveLocation(ana.access_token, 2, 2002, { lastLocation: { page: 3 } });
    expect(saved.status).toBe(200);
    const listed = await reader.listContinueReading({ userId: userIdOf(ana.access_token), tenantIds: [1, 2], page: 1, perPage: 2 });
    expect(listed.positions.map(({ issueId }) => issueId)).toEqual([2002, 2001]);
  });
});
