// Reader sessions by content type, previews, resume and reader-token checks,
// the v1 settings-token exchange, reader settings, downloads, and the media
// server that serves the returned URLs.
import { EPub } from 'epub2';
import { parseBuffer } from 'music-metadata';
import { Redis } from 'ioredis';
import { checkHealth } from '@folio/grpc';
import { reader } from '@folio/proto';
import { testInfra } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAME } from '../src/app.js';
import { MongoSessionRepository } from '../src/data/sessions.js';
import { readerModels, type SessionDoc } from '../src/data/schemas.js';
import { MediaUrls, packageScope } from '../src/media/signing.js';
import { contentOf, startReaderStack, USERS, type ReaderStack } from './support/stack.js';

let stack: ReaderStack;
// Signed URLs live 10 years here, so the end of a grant (2031) is what limits them.
const TEN_YEARS = String(10 * 365 * 24 * 3600);

beforeAll(async () => {
  stack = await startReaderStack({ overrides: { MEDIA_URL_TTL_SECONDS: TEN_YEARS } });
});
afterAll(() => stack?.stop());

const open = (userId: number, issueId: number, tenantId = 1, extra: { preview?: boolean; resumeReaderToken?: string } = {}) =>
  stack.client.createReaderSession({ tenantId, userId, issueId, preview: extra.preview ?? false, resumeReaderToken: extra.resumeReaderToken });

async function fetchBuffer(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; data: Buffer }> {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, data: Buffer.from(await response.arrayBuffer()) };
}

/** Opens an EPUB with the epub2 library (an independent parser) and returns its chapters' ids and text. */
async function parseEpub(data: Buffer): Promise<{ flow: { id: string; href: string }[]; text: string[] }> {
  const { writeFile, mkdtemp } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const path = join(await mkdtemp(join(tmpdir(), 'epub-')), 'book.epub');
  await writeFile(path, data);
  const book = await EPub.createAsync(path);
  const flow = book.flow.map((chapter: { id?: string; href?: string }) => ({ id: chapter.id!, href: chapter.href! }));
  const text = await Promise.all(
    flow.map(async (chapter: { id: string }) =>
      (await book.getChapterAsync(chapter.id))
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
  return { flow, text };
}

describe('service', () => {
  it('when started, then it reports SERVING over grpc.health.v1', async () => {
    expect(await checkHealth(`127.0.0.1:${stack.service.grpcPort}`, SERVICE_NAME)).toBe(true);
  });
});

describe('reader session by content type', () => {
  it('when ana opens her purchased EPUB, then the content is EPUB only: file_url, spine and total_words', async () => {
    const response = await open(USERS.ana, 1001);
    const session = contentOf(response);
    expect(response.readerToken).toEqual(expect.any(String));
    expect(session).toMatchObject({ customPreview: false, pdf: undefined, audio: undefined });
    const epubContent = session.epub!;
    expect(epubContent.spine).toEqual([
      { href: 'text/chapter-1.xhtml', idref: 'chapter-1' },
      { href: 'text/chapter-2.xhtml', idref: 'chapter-2' },
      { href: 'text/chapter-3.xhtml', idref: 'chapter-3' },
    ]);
    expect(session.tableOfContents).toEqual([
      { title: 'Chapter 1: The Lamp', href: 'text/chapter-1.xhtml' },
      { title: 'Chapter 2: The Atlas', href: 'text/chapter-2.xhtml' },
      { title: 'Chapter 3: The Compass', href: 'text/chapter-3.xhtml' },
    ]);
    expect(epubContent.totalWords).toBeGreaterThan(200);

    const file = await fetchBuffer(epubContent.fileUrl!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/epub+zip');
    const epub = await parseEpub(file.data);
    expect(epub.flow.map((c) => c.id)).toEqual(['chapter-1', 'chapter-2', 'chapter-3']);
    expect(epub.text[0]).toContain('The keeper climbed the spiral stairs at dusk');

    const cover = await fetchBuffer(session.cover);
    expect(cover.status).toBe(200);
    expect(cover.headers.get('content-type')).toBe('image/svg+xml');
    expect(cover.data.toString()).toContain('Lighthouse Keeper');
  });

  it('when bruno opens the PDF he was given, then the content is PDF only: page URLs, page sizes and a {title, page} contents', async () => {
    const session = contentOf(await open(USERS.bruno, 1007));
    expect(session).toMatchObject({ epub: undefined, audio: undefined, customPreview: false });
    const pdf = session.pdf!;
    expect(pdf.filesUrls?.urls).toHaveLength(2);
    expect(pdf.filesInfo).toEqual([
      { width: 600, height: expect.any(Number) },
      { width: 600, height: expect.any(Number) },
    ]);
    expect(pdf.filesInfo[0]!.height).toBeGreaterThan(800);
    expect(session.tableOfContents).toEqual([
      { title: 'Harbor Monthly, March issue', page: 1 },
      { title: 'Interview', page: 2 },
    ]);
    const page = await fetchBuffer(pdf.filesUrls!.urls[1]!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('image/png');
    expect(page.data.readUInt32BE(16)).toBe(600);
  });

  it('when an audiobook is opened, then tracks carry title, url and whole-second durations read from the files', async () => {
    const session = contentOf(await open(USERS.bruno, 1003));
    expect(session).toMatchObject({ epub: undefined, pdf: undefined });
    const tracks = session.audio!.tracks;
    expect(tracks.map((t) => t.title)).toEqual(['Track one: the harbour at dawn', 'Track two: the night ferry']);
    for (const track of tracks) {
      expect(Number.isInteger(track.duration)).toBe(true);
      const file = await fetchBuffer(track.url!);
      expect(file.headers.get('content-type')).toBe('audio/mpeg');
      const metadata = await parseBuffer(file.data, { mimeType: 'audio/mpeg' }, { duration: true });
      expect(Math.round(metadata.format.duration!)).toBe(track.duration);
      expect(track.duration).toBeGreaterThan(2);
    }
  });
});

describe('access and reader-tokens', () => {
  it('when the user has no access, or the grant was revoked, then it is PERMISSION_DENIED', async () => {
    await expect(open(USERS.bruno, 1002)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(open(USERS.ana, 1006)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
  });

  it('when the issue is physical, then there is nothing to read (422)', async () => {
    await expect(open(USERS.ana, 1005)).rejects.toMatchObject({ code: 'FAILED_PRECONDITION', details: { reason: 'NO_DIGITAL_CONTENT' } });
  });

  it('when the issue is not in the tenant, then it is NOT_FOUND', async () => {
    await expect(open(USERS.ana, 2001, 1)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('when a reader-token is sent to resume, then the same session and token come back; a foreign or corrupt one is refused', async () => {
    const first = await open(USERS.ana, 1001);
    const again = await open(USERS.ana, 1001, 1, { resumeReaderToken: first.readerToken });
    expect(again.sessionId).toBe(first.sessionId);
    expect(again.readerToken).toBe(first.readerToken);

    const brunos = await open(USERS.bruno, 1001);
    await expect(open(USERS.ana, 1001, 1, { resumeReaderToken: brunos.readerToken })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(open(USERS.ana, 1009, 1, { resumeReaderToken: first.readerToken })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    const corrupt = first.readerToken.slice(0, -6) + (first.readerToken.endsWith('AAAAAA') ? 'BBBBBB' : 'AAAAAA');
    await expect(open(USERS.ana, 1001, 1, { resumeReaderToken: corrupt })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(open(USERS.ana, 1001, 1, { resumeReaderToken: 'not-a-token' })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
  });

  it('when a reader-token is verified, then its context comes back; another tenant, garbage or a deleted session is PERMISSION_DENIED', async () => {
    const opened = await open(USERS.ana, 2001, 2);
    const { context } = await stack.client.verifyReaderToken({ readerToken: opened.readerToken, expectedTenantId: 2 });
    expect(context).toEqual({
      sessionId: String(opened.sessionId),
      tenantId: 2,
      userId: USERS.ana,
      issueId: 2001,
      preview: false,
      expiresAt: expect.closeTo(Date.now() / 1000 + 86_400, -2),
    });
    expect((await stack.client.verifyReaderToken({ readerToken: opened.readerToken })).context?.issueId).toBe(2001);
    await expect(stack.client.verifyReaderToken({ readerToken: opened.readerToken, expectedTenantId: 1 })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(stack.client.verifyReaderToken({ readerToken: '' })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(stack.client.verifyReaderToken({ readerToken: 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..x.y.z' })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await stack.client.deleteReaderSession({ storeTenantId: 2, publicId: opened.publicId });
    await expect(stack.client.verifyReaderToken({ readerToken: opened.readerToken })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
  });
});

describe('session liveness for the gateway (Redis)', () => {
  const redis = new Redis(testInfra().redisUrl, { lazyConnect: true });
  afterAll(() => redis.quit());
  const keyOf = (sessionId: number) => `${stack.config.READER_SESSION_LIVENESS_PREFIX}:${sessionId}`;
  const DAY_MS = 86_400_000;

  it('when a session opens, then its key holds the user for as long as its token lives', async () => {
    const opened = await open(USERS.ana, 1001);
    expect(await redis.get(keyOf(opened.sessionId))).toBe(String(USERS.ana));
    expect(await redis.pttl(keyOf(opened.sessionId))).toBeGreaterThan(DAY_MS - 60_000);
  });

  it('when the key is lost, then VerifyReaderToken writes it again', async () => {
    const opened = await open(USERS.bruno, 1001);
    await redis.del(keyOf(opened.sessionId));
    await stack.client.verifyReaderToken({ readerToken: opened.readerToken, expectedTenantId: 1 });
    expect(await redis.get(keyOf(opened.sessionId))).toBe(String(USERS.bruno));
  });

  it('when a session is deleted, then its key is a tombstone that outlives its tokens and a later verification does not revive', async () => {
    const opened = await open(USERS.ana, 2001, 2);
    await stack.client.deleteReaderSession({ storeTenantId: 2, publicId: opened.publicId });
    expect(await redis.get(keyOf(opened.sessionId))).toBe('-');
    expect(await redis.pttl(keyOf(opened.sessionId))).toBeGreaterThan(DAY_MS);
    await expect(stack.client.verifyReaderToken({ readerToken: opened.readerToken })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(await redis.get(keyOf(opened.sessionId))).toBe('-');
  });
});

describe('preview sessions', () => {
  it('when a user without access asks a PDF preview, then only the first ceil(pages x 10%) pages come', async () => {
    const session = contentOf(await open(USERS.bruno, 1002, 1, { preview: true }));
    expect(session.customPreview).toBe(true);
    expect(session.pdf?.filesUrls?.urls).toHaveLength(1);
    expect(session.pdf?.filesInfo).toHaveLength(1);
    expect(session.tableOfContents.every((entry) => entry.page === 1)).toBe(true);
  });

  it('when an EPUB preview is opened, then spine, words and the served file hold only the preview chapters', async () => {
    const session = contentOf(await open(USERS.bruno, 2001, 2, { preview: true }));
    expect(session.customPreview).toBe(true);
    expect(session.epub?.spine).toEqual([{ href: 'text/chapter-1.xhtml', idref: 'chapter-1' }]);
    expect(session.tableOfContents).toEqual([{ title: 'Capítulo 1', href: 'text/chapter-1.xhtml' }]);
    const full = contentOf(await open(USERS.ana, 2001, 2));
    expect(session.epub!.totalWords).toBeLessThan(full.epub!.totalWords);
    const epub = await parseEpub((await fetchBuffer(session.epub!.fileUrl!)).data);
    expect(epub.flow.map((c) => c.id)).toEqual(['chapter-1']);
    expect(epub.text.join(' ')).not.toContain('Julieta');
  });
});

describe('v1 sessions: settings token exchange', () => {
  it('when the settings token is exchanged at the store, then a session with its id comes back and can be read and deleted', async () => {
    const { settings } = await stack.client.getReaderSettings({ tenantId: 1, userId: USERS.ana, issueId: 1001 });
    const exchanged = await stack.client.exchangeSessionToken({ storeTenantId: 1, token: settings!.token, reader: 'web', engineHost: 'proxied' });
    expect(exchanged.publicId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(contentOf(exchanged).epub?.spine).toHaveLength(3);
    expect((await stack.client.verifyReaderToken({ readerToken: exchanged.readerToken, expectedTenantId: 1 })).context?.userId).toBe(USERS.ana);

    // The stored record discloses no credential: no token, no signed URL.
    const { session: stored } = await stack.client.getReaderSession({ storeTenantId: 1, publicId: exchanged.publicId });
    expect(stored).toMatchObject({
      id: exchanged.publicId,
      tenantId: 1,
      userId: USERS.ana,
      issueId: 1001,
      preview: false,
      api: 'v1',
      reader: 'web',
      engineHost: 'proxied',
    });
    expect(stored!.content?.epub).toEqual({ fileUrl: undefined, spine: contentOf(exchanged).epub!.spine, totalWords: contentOf(exchanged).epub!.totalWords });
    expect(Date.parse(stored!.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    await expect(stack.client.getReaderSession({ storeTenantId: 2, publicId: exchanged.publicId })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const { session: deleted } = await stack.client.deleteReaderSession({ storeTenantId: 1, publicId: exchanged.publicId });
    expect(deleted?.id).toBe(exchanged.publicId);
    await expect(stack.client.getReaderSession({ storeTenantId: 1, publicId: exchanged.publicId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(stack.client.deleteReaderSession({ storeTenantId: 1, publicId: exchanged.publicId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(stack.client.verifyReaderToken({ readerToken: exchanged.readerToken })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
  });

  it('when a session is stored, then its snapshot rides in its document as JSON text without signed URLs; one stored apart or as a document (from before) reads and deletes the same', async () => {
    const sessions = stack.db.collection<{ _id: number; snapshot?: string | Record<string, unknown> }>('reader_sessions');
    const snapshots = stack.db.collection<{ _id: number; snapshot: string | Record<string, unknown> }>('reader_session_snapshots');
    const exchange = async () =>
      stack.client.exchangeSessionToken({
        storeTenantId: 1,
        token: (await stack.client.getReaderSettings({ tenantId: 1, userId: USERS.ana, issueId: 1001 })).settings!.token,
      });
    const storedSnapshot = async (id: number) => (await sessions.findOne({ _id: id }))!.snapshot!;
    const inline = await exchange();
    const text = await storedSnapshot(inline.sessionId);
    expect(typeof text).toBe('string');
    expect(JSON.parse(text as string)).toMatchObject({ file_url: null, spine: contentOf(inline).epub!.spine.map(({ href, idref }) => ({ href, idref })) });
    expect(await snapshots.findOne({ _id: inline.sessionId })).toBeNull();

    const readsAsOpened = async (opened: typeof inline) => {
      const { session: read } = await stack.client.getReaderSession({ storeTenantId: 1, publicId: opened.publicId });
      expect(read!.content?.epub).toEqual({ fileUrl: undefined, spine: contentOf(opened).epub!.spine, totalWords: contentOf(opened).epub!.totalWords });
      expect((await stack.client.verifyReaderToken({ readerToken: opened.readerToken })).context?.sessionId).toBe(String(opened.sessionId));
      await stack.client.deleteReaderSession({ storeTenantId: 1, publicId: opened.publicId });
      expect(await sessions.findOne({ _id: opened.sessionId })).toBeNull();
      expect(await snapshots.findOne({ _id: opened.sessionId })).toBeNull();
    };
    await readsAsOpened(inline);
    // Apart, as a snapshot over INLINE_SNAPSHOT_MAX_BYTES is stored.
    const apart = await exchange();
    await snapshots.insertOne({ _id: apart.sessionId, snapshot: await storedSnapshot(apart.sessionId) });
    await sessions.updateOne({ _id: apart.sessionId }, { $unset: { snapshot: '' } });
    await readsAsOpened(apart);
    // As an earlier version stored sessions: a document, inline or apart.
    const inlineDocument = await exchange();
    await sessions.updateOne({ _id: inlineDocument.sessionId }, { $set: { snapshot: JSON.parse((await storedSnapshot(inlineDocument.sessionId)) as string) } });
    await readsAsOpened(inlineDocument);
    const apartDocument = await exchange();
    await snapshots.insertOne({ _id: apartDocument.sessionId, snapshot: JSON.parse((await storedSnapshot(apartDocument.sessionId)) as string) });
    await sessions.updateOne({ _id: apartDocument.sessionId }, { $unset: { snapshot: '' } });
    await readsAsOpened(apartDocument);
  });

  /** The repository with snapshots over 64 bytes stored apart: a PDF snapshot of 50 pages is, one of a page is not. */
  const smallInlineRepository = () => {
    const models = readerModels(stack.db);
    return new MongoSessionRepository(stack.db, models.sessions, models.snapshots, undefined, 64);
  };
  const session = (id: number, pages: number, expiresAt = new Date(Date.now() + 3_600_000)): SessionDoc => ({
    _id: id,
    public_id: `test-${id}`,
    tenant_id: 1,
    user_id: USERS.ana,
    issue_id: 1002,
    preview: false,
    api: 'v1',
    reader: null,
    engine_host: null,
    created_at: new Date(),
    expires_at: expiresAt,
    snapshot: { files_info: Array.from({ length: pages }, () => ({ width: 1240, height: 1754 })) },
  });

  it('when a snapshot is over the inline size, then it is stored apart and the session document stays small', async () => {
    const repository = smallInlineRepository();
    const [small, large] = [await repository.nextId(), await repository.nextId()];
    await repository.create(session(small, 1));
    await repository.create(session(large, 50));
    expect((await stack.db.collection('reader_sessions').findOne({ _id: small as never }))?.snapshot).toBeDefined();
    expect((await stack.db.collection('reader_sessions').findOne({ _id: large as never }))?.snapshot).toBeUndefined();
    expect((await repository.findWithSnapshot(large))?.snapshot).toEqual(session(large, 50).snapshot);
    expect(Object.keys((await repository.find(small))!)).not.toContain('snapshot');
    await repository.delete(large);
    expect(await stack.db.collection('reader_session_snapshots').findOne({ _id: large as never })).toBeNull();
  });

  it('when sessions expired before the prune cutoff, then they go with their snapshots stored apart; live and extended ones stay', async () => {
    const repository = smallInlineRepository();
    // Long ago, so that no other test's session is that old.
    const LONG_AGO = new Date('2000-01-01T00:00:00Z');
    const CUTOFF = new Date('2001-01-01T00:00:00Z');
    const [expired, expiredApart, extended, live] = [
      await repository.nextId(),
      await repository.nextId(),
      await repository.nextId(),
      await repository.nextId(),
    ];
    await repository.create(session(expired, 1, LONG_AGO));
    await repository.create(session(expiredApart, 50, LONG_AGO));
    await repository.create(session(extended, 50, LONG_AGO));
    await repository.create(session(live, 1));
    await repository.extend(extended, new Date(Date.now() + 3_600_000));

    expect(await repository.pruneExpired(CUTOFF)).toBe(2);
    expect(await repository.find(expired)).toBeNull();
    expect(await repository.find(expiredApart)).toBeNull();
    expect(await stack.db.collection('reader_session_snapshots').findOne({ _id: expiredApart as never })).toBeNull();
    expect((await repository.findWithSnapshot(extended))?.snapshot).toEqual(session(extended, 50).snapshot);
    expect(await repository.find(live)).not.toBeNull();
  });

  it('when a session is resumed with a new token, then it is kept at least as long as that token lives', async () => {
    const anas = await open(USERS.ana, 1001);
    const sessions = stack.db.collection<{ _id: number; expires_at: Date }>('reader_sessions');
    await sessions.updateOne({ _id: anas.sessionId }, { $set: { expires_at: new Date('2000-01-01T00:00:00Z') } });
    const mine = (await stack.client.getReaderSettings({ tenantId: 1, userId: USERS.ana, issueId: 1001, readerToken: anas.readerToken })).settings!;
    const resumed = await stack.client.exchangeSessionToken({ storeTenantId: 1, token: mine.token });
    expect(resumed.sessionId).toBe(anas.sessionId);
    expect((await sessions.findOne({ _id: anas.sessionId }))!.expires_at.getTime()).toBeGreaterThan(Date.now() + 3_600_000);
  });

  it('when sessions are exchanged, then their ids are 128 random bits, and the sequential internal id addresses nothing', async () => {
    const { settings } = await stack.client.getReaderSettings({ tenantId: 1, userId: USERS.ana, issueId: 1001 });
    const first = await stack.client.exchangeSessionToken({ storeTenantId: 1, token: settings!.token });
    const other = await open(USERS.ana, 1001, 1);
    for (const publicId of [first.publicId, other.publicId]) expect(publicId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(first.publicId).not.toBe(other.publicId);
    for (const guess of [String(first.sessionId), String(other.sessionId), '', 'A'.repeat(22), first.publicId.slice(0, 21)]) {
      await expect(stack.client.getReaderSession({ storeTenantId: 1, publicId: guess })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(stack.client.deleteReaderSession({ storeTenantId: 1, publicId: guess })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await stack.client.getReaderSession({ storeTenantId: 1, publicId: first.publicId })).session?.id).toBe(first.publicId);
  });

  it('when the store is another tenant, or the token is a reader-token or garbage, then the exchange is PERMISSION_DENIED', async () => {
    const { settings } = await stack.client.getReaderSettings({ tenantId: 1, userId: USERS.ana, issueId: 1001 });
    await expect(stack.client.exchangeSessionToken({ storeTenantId: 2, token: settings!.token })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    const readerToken = (await open(USERS.ana, 1001)).readerToken;
    await expect(stack.client.exchangeSessionToken({ storeTenantId: 1, token: readerToken })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(stack.client.exchangeSessionToken({ storeTenantId: 1, token: 'garbage' })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
  });

  it('when the user has no access, then the settings say preview and the exchange opens a preview session', async () => {
    const { settings } = await stack.client.getReaderSettings({ tenantId: 1, userId: USERS.bruno, issueId: 1002 });
    expect(settings!.tenant?.preview).toBe(true);
    const session = contentOf(await stack.client.exchangeSessionToken({ storeTenantId: 1, token: settings!.token }));
    expect(session.customPreview).toBe(true);
    expect(session.pdf?.filesUrls?.urls).toHaveLength(1);
  });

  it('when the user has no access and the exchange asks for preview false, then PERMISSION_DENIED instead of a preview', async () => {
    const { settings } = await stack.client.getReaderSettings({ tenantId: 1, userId: USERS.bruno, issueId: 1002 });
    await expect(stack.client.exchangeSessionToken({ storeTenantId: 1, token: settings!.token, preview: false })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
  });
});

describe('reader settings', () => {
  it('when settings are read, then every field of the spec is there with tenant defaults and empty user settings', async () => {
    const response = await stack.client.getReaderSettings({ tenantId: 1, userId: USERS.bruno, issueId: 1001, lang: 'es', location: 'epubcfi(/6/2!/4/2)' });
    const settings = response.settings!;
    expect(response.positionVersion).toBeUndefined();
    expect(typeof settings.token).toBe('string');
    expect(settings.trackerTrackToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(settings.features).toEqual({ tts: true, search: true, concurrencyLimit: false, chineseVoice: false });
    expect(settings.tenant).toEqual({
      lang: 'es',
      readerTokenSessionUrl: 'http://northwind.localhost:8080/api/v1/sessions',
      exitUrl: 'https://northwind.localhost/library',
      reader: { pdfLayout: 'single', tts: true, theme: 'light', extras: [], styles: undefined },
      preview: false,
    });
    expect(settings.user).toEqual({ theme: undefined, epub: { zoom: undefined, layout: undefined }, pdf: { layout: undefined } });
    expect(settings.issue).toEqual({
      name: "The Lighthouse Keeper's Atlas",
      description: 'A lighthouse keeper inherits an atlas of coastlines that do not exist.',
      fileType: 'epub',
      tags: { author: ['Mara Ellison'], keyword: ['lighthouse', 'atlas', 'sea'], edition: ['first'] },
      issueUrl: 'http://northwind.localhost:8080/issues/1001',
      issueFullUrl: 'http://northwind.localhost:8080/issues/1001/the-lighthouse-keepers-atlas',
      issueTenantId: 1,
      publicationDate: '2026-03-02 09:00:00',
      issueIsFavorite: false,
      lastLocation: undefined,
      twitterUser: 'northwindreader',
    });
    expect(settings.engineUrl).toContain('issue_id=1001');
    expect(settings.engineUrl).toContain('lang=es');
    expect(new URL(settings.engineUrlProxied).searchParams.get('location')).toBe('epubcfi(/6/2!/4/2)');
  });

  it('when the user saved settings, a position and a favorite, then the settings response shows them', async () => {
    const saved = { theme: 'dark', epub: { zoom: 120, layout: 'scroll' }, pdf: { layout: 'double' } };
    expect((await stack.client.updateUserReaderSettings({ userId: USERS.dario, settings: saved })).settings).toEqual(saved);
    const position = await stack.client.saveLastLocation({
      tenantId: 6,
      userId: USERS.dario,
      issueId: 6001,
      location: { pdf: { page: 2 } },
      expected: undefined,
    });
    stack.peers.favorites.add(`${USERS.dario}:6001`);
    const response = await stack.client.getReaderSettings({ tenantId: 6, userId: USERS.dario, issueId: 6001 });
    expect(response.settings?.user).toEqual(saved);
    expect(response.settings?.issue).toMatchObject({ issueIsFavorite: true, lastLocation: { pdf: { page: 2 } }, fileType: 'pdf' });
    expect(response.positionVersion).toBe(position.version);
  });

  it('when user settings break a rule (layout, zoom, length), then INVALID_ARGUMENT names the fields as the HTTP body does', async () => {
    const update = (settings: reader.UserReaderSettings) => stack.client.updateUserReaderSettings({ userId: USERS.dario, settings });
    await expect(update({ theme: '', epub: { zoom: 0, layout: 'x'.repeat(33) }, pdf: { layout: 'triple' } })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: {
        fieldErrors: {
          'userReaderSettings.theme': expect.any(Array),
          'userReaderSettings.epub.zoom': expect.any(Array),
          'userReaderSettings.epub.layout': expect.any(Array),
          'userReaderSettings.pdf.layout': expect.any(Array),
        },
      },
    });
    await expect(update({ theme: 'dark', epub: { zoom: 1001 }, pdf: {} })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    // Unset is null: the settings are cleared.
    expect((await update({ theme: undefined, epub: {}, pdf: {} })).settings).toEqual({ epub: {}, pdf: {} });
  });

  it('when a reader-token of another user is sent with the settings request, then it is PERMISSION_DENIED', async () => {
    const anas = await open(USERS.ana, 1001);
    await expect(stack.client.getReaderSettings({ tenantId: 1, userId: USERS.bruno, issueId: 1001, readerToken: anas.readerToken })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    const mine = (await stack.client.getReaderSettings({ tenantId: 1, userId: USERS.ana, issueId: 1001, readerToken: anas.readerToken })).settings!;
    // The exchange resumes the session the reader-token belongs to.
    expect((await stack.client.exchangeSessionToken({ storeTenantId: 1, token: mine.token })).sessionId).toBe(anas.sessionId);
  });
});

describe('download record', () => {
  it('when ana downloads her gift, then every field is there and URLs expire with the grant (2031-06-30 23:59:59)', async () => {
    const record = (await stack.client.getDownload({ tenantId: 1, userId: USERS.ana, issueId: 1009 })).download!;
    expect(record).toMatchObject({
      id: 1009,
      name: 'Night Ferry',
      slug: expect.any(String),
      userCanRead: true,
      fileType: 'epub',
      audio: undefined,
      pageUrls: undefined,
      prices: { USD: 3.99 },
      author: expect.any(String),
      numberOfPages: 60,
      accessExpiresAt: '2031-06-30 23:59:59',
      requireLogin: true,
      free: false,
      publishedTimestamp: expect.any(Number),
      publishedDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    expect(record.tableOfContents).toEqual([
      { title: 'Departure', href: 'text/chapter-1.xhtml' },
      { title: 'Arrival', href: 'text/chapter-2.xhtml' },
    ]);
    const grantEnd = Date.parse('2031-06-30T23:59:59Z') / 1000;
    expect(Number(new URL(record.epubUrl!).searchParams.get('exp'))).toBe(grantEnd);
    expect((await fetchBuffer(record.epubUrl!)).status).toBe(200);
    expect((await fetchBuffer(record.thumbnail)).status).toBe(200);
  });

  it('when a PDF or an audiobook is downloaded, then files_urls or tracks hold the files', async () => {
    const pdf = (await stack.client.getDownload({ tenantId: 1, userId: USERS.bruno, issueId: 1007 })).download!;
    expect(pdf).toMatchObject({ fileType: 'pdf', epubUrl: undefined, audio: undefined, numberOfPages: 2, accessExpiresAt: undefined, prices: {} });
    expect(pdf.pageUrls?.urls).toHaveLength(2);
    const audio = (await stack.client.getDownload({ tenantId: 1, userId: USERS.bruno, issueId: 1003 })).download!;
    expect(audio).toMatchObject({ fileType: 'audio', epubUrl: undefined, pageUrls: undefined, numberOfPages: undefined, free: true, requireLogin: false });
    expect(audio.audio?.tracks).toHaveLength(2);
    expect(audio.audio?.tracks[0]).toEqual({
      title: 'Track one: the harbour at dawn',
      url: expect.stringContaining('/tracks/01.mp3?exp='),
      duration: expect.any(Number),
    });
  });

  it('when the user has no access, then the download is PERMISSION_DENIED', async () => {
    await expect(stack.client.getDownload({ tenantId: 1, userId: USERS.bruno, issueId: 1002 })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
  });
});

describe('publication manifest (Readium)', () => {
  const manifest = (userId: number, issueId: number, tenantId = 1, preview = false) =>
    stack.client.getPublicationManifest({ tenantId, userId, issueId, preview });

  it('when ana asks for her EPUB, then its chapters are links into the package that serve the chapter files, and the package is an alternate', async () => {
    const { publication } = await manifest(USERS.ana, 1001);
    expect(publication).toMatchObject({
      type: reader.PublicationType.PUBLICATION_TYPE_EPUB,
      title: "The Lighthouse Keeper's Atlas",
      authors: ['Mara Ellison'],
      preview: false,
    });
    expect(publication!.readingOrder.map((link) => link.type)).toEqual(['application/xhtml+xml', 'application/xhtml+xml', 'application/xhtml+xml']);
    const chapter = await fetchBuffer(publication!.readingOrder[0]!.href);
    expect(chapter.status).toBe(200);
    expect(chapter.headers.get('content-type')).toBe('application/xhtml+xml');
    expect(chapter.data.toString()).toContain('The keeper climbed the spiral stairs at dusk');
    expect(chapter.headers.get('content-security-policy')).toContain("default-src 'none'");
    const alternate = publication!.links.find((link) => link.rel.includes('alternate'))!;
    expect((await fetchBuffer(alternate.href)).headers.get('content-type')).toBe('application/epub+zip');
  });

  it('when a package link is re-pointed, expired, or leaves the package, then 403 or 404', async () => {
    const { publication } = await manifest(USERS.ana, 1001);
    const href = publication!.readingOrder[0]!.href;
    expect((await fetch(href.replace('/1/1001/', '/1/1009/'))).status).toBe(403);
    const key = '1/1001/book.epub';
    const past = Math.floor(Date.now() / 1000) - 10;
    const signer = new MediaUrls(stack.config.MEDIA_PUBLIC_BASE_URL, stack.config.MEDIA_SIGNING_KEY, 60);
    expect(
      (await fetch(`${stack.config.MEDIA_PUBLIC_BASE_URL}/${key}/~${past}~${signer.signature(packageScope(key), past)}/text/chapter-1.xhtml`)).status,
    ).toBe(403);
    // One encoded segment, so that the client does not resolve the dots itself.
    expect((await fetch(`${signer.signedPackagePrefix(key)}..%2F..%2Fbook.epub`)).status).toBe(404);
    expect((await fetch(`${signer.signedPackagePrefix(key)}META-INF/nothing.xml`)).status).toBe(404);
  });

  it('when the user has no access, then PERMISSION_DENIED; a preview has the preview share only', async () => {
    await expect(manifest(USERS.bruno, 1002)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    const { publication } = await manifest(USERS.bruno, 1002, 1, true);
    expect(publication).toMatchObject({ type: reader.PublicationType.PUBLICATION_TYPE_PDF, preview: true });
    expect(publication!.readingOrder).toHaveLength(1);
    expect(publication!.readingOrder[0]).toMatchObject({ type: 'image/png', width: 600 });
    // A preview never links the whole PDF.
    expect(publication!.links).toEqual([]);
  });

  it('when a reader of a PDF asks, then the PDF file itself is an alternate link beside the page images', async () => {
    const { publication } = await manifest(USERS.bruno, 1007);
    expect(publication!.readingOrder).toHaveLength(2);
    const alternate = publication!.links.find((link) => link.rel.includes('alternate'));
    expect(alternate?.type).toBe('application/pdf');
    const file = await fetchBuffer(alternate!.href);
    expect(file.status).toBe(200);
    expect(file.data.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('when an audiobook is asked, then its tracks carry durations that add up to the publication', async () => {
    const { publication } = await manifest(USERS.bruno, 1003);
    const durations = publication!.readingOrder.map((link) => link.duration!);
    expect(durations.every((duration) => duration > 2)).toBe(true);
    expect(publication!.duration).toBeCloseTo(durations.reduce((a, b) => a + b, 0));
    expect(publication!.readingOrder.map((link) => link.type)).toEqual(['audio/mpeg', 'audio/mpeg']);
  });
});

describe('positions list (Readium)', () => {
  const positions = (userId: number, issueId: number, signedAt?: number, preview = false) =>
    stack.client.getPositionList({ tenantId: 1, userId, issueId, preview, signedAt });

  it('when asked as of the manifest signing time, then the hrefs are the reading order and an EPUB has a position per 1024 bytes of each chapter', async () => {
    const { publication } = await stack.client.getPublicationManifest({ tenantId: 1, userId: USERS.ana, issueId: 1001, preview: false });
    const { positions: list } = await positions(USERS.ana, 1001, publication!.signedAt);
    const order = publication!.readingOrder.map((link) => link.href);
    expect(new Set(list.map((locator) => locator.href))).toEqual(new Set(order));
    expect(list.map((locator) => locator.position)).toEqual(list.map((_, index) => index + 1));
    expect(list[0]).toMatchObject({ href: order[0], type: 'application/xhtml+xml', progression: 0, totalProgression: 0 });
    // Each chapter's positions as Readium counts them: its bytes in the package, 1024 a position.
    for (const href of order) {
      const bytes = (await fetchBuffer(href)).data.length;
      expect(list.filter((locator) => locator.href === href)).toHaveLength(Math.max(1, Math.ceil(bytes / 1024)));
    }
  });

  it('when a PDF or an audiobook is asked, then it has a position per page or track; a preview only its share', async () => {
    const pdf = await positions(USERS.bruno, 1007);
    expect(pdf.positions.map((locator) => [locator.position, locator.totalProgression, locator.type])).toEqual([
      [1, 0, 'image/png'],
      [2, 0.5, 'image/png'],
    ]);
    expect((await positions(USERS.bruno, 1002, undefined, true)).positions).toHaveLength(1);
    const audio = await positions(USERS.bruno, 1003);
    expect(audio.positions).toHaveLength(2);
    expect(audio.positions[1]!.totalProgression).toBeGreaterThan(0);
    expect(audio.positions[1]!.fragments).toEqual(['t=0']);
  });

  it('when the signing time is in the future or the user has no access, then INVALID_ARGUMENT or PERMISSION_DENIED', async () => {
    await expect(positions(USERS.ana, 1001, Math.floor(Date.now() / 1000) + 3600)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(positions(USERS.bruno, 1002)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
  });
});

describe('media server', () => {
  const urls = () => new MediaUrls(stack.config.MEDIA_PUBLIC_BASE_URL, stack.config.MEDIA_SIGNING_KEY, 60);

  it('when a signature is missing, tampered, for another file or expired, then it answers 403', async () => {
    const session = contentOf(await open(USERS.bruno, 1003));
    const url = new URL(session.audio!.tracks[0]!.url!);
    const bare = `${url.origin}${url.pathname}`;
    expect((await fetch(bare)).status).toBe(403);
    expect((await fetch(`${bare}?exp=${url.searchParams.get('exp')}&sig=${'A'.repeat(43)}`)).status).toBe(403);
    expect((await fetch(url.toString().replace('/tracks/01.mp3', '/tracks/02.mp3'))).status).toBe(403);
    const key = '1/1003/tracks/01.mp3';
    const past = Math.floor(Date.now() / 1000) - 10;
    const expired = await fetch(`${stack.config.MEDIA_PUBLIC_BASE_URL}/${key}?exp=${past}&sig=${urls().signature(key, past)}`);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toEqual({ message: 'This link has expired.' });
  });

  it('when a signed file does not exist, then 404; covers need no signature', async () => {
    expect((await fetch(urls().signed('1/1003/tracks/09.mp3'))).status).toBe(404);
    expect((await fetch(`${stack.config.MEDIA_PUBLIC_BASE_URL}/1/1001/cover.svg`)).status).toBe(200);
    const byId = await fetch(`${stack.config.MEDIA_PUBLIC_BASE_URL}/covers/1001.svg`);
    expect(byId.status).toBe(200);
    expect(byId.headers.get('content-type')).toBe('image/svg+xml');
    expect((await fetch(`${stack.config.MEDIA_PUBLIC_BASE_URL}/covers/999999.svg`)).status).toBe(404);
    expect((await fetch(`${stack.config.MEDIA_PUBLIC_BASE_URL}/_index/1/1001/x.json.gz`)).status).toBe(404);
  });

  it('when a range is asked, then 206 with Content-Range; a suffix range works; an impossible one is 416', async () => {
    const url = urls().signed('1/1003/tracks/01.mp3');
    const whole = await fetchBuffer(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const size = whole.data.length;

    const part = await fetchBuffer(url, { headers: { Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${size}`);
    expect(part.data).toEqual(whole.data.subarray(100, 200));

    const tail = await fetchBuffer(url, { headers: { Range: 'bytes=-50' } });
    expect(tail.status).toBe(206);
    expect(tail.data).toEqual(whole.data.subarray(size - 50));

    const open = await fetchBuffer(url, { headers: { Range: `bytes=${size - 10}-` } });
    expect(open.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`);

    const beyond = await fetch(url, { headers: { Range: `bytes=${size + 10}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`);

    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(size));
    expect((await fetch(url, { headers: { 'If-None-Match': head.headers.get('etag')! } })).status).toBe(304);

    const epub = urls().signed('1/1001/book.epub');
    const epubPart = await fetch(epub, { headers: { Range: 'bytes=0-57' } });
    expect(epubPart.status).toBe(206);
    expect(
      Buffer.from(await epubPart.arrayBuffer())
        .subarray(30, 58)
        .toString(),
    ).toBe('mimetypeapplication/epub+zip');
  });
});
