// ReaderSyncService against the real reader (identity and commerce real,
// catalog a stand-in): the files e-readers download, KOReader progress sync
// (documents matched by the partial MD5 computed at ingest, the API's
// newest-wins rule) and the erasure of KOReader records on account.deleted.
import amqp from 'amqplib';
import { createPromiseClient, type PromiseClient } from '@folio/grpc';
import { createEvent } from '@folio/messaging';
import { readerSync } from '@folio/proto';
import { testInfra, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partialMd5 } from '../src/ingest/partial-md5.js';
import { startReaderStack, USERS, type ReaderStack } from './support/stack.js';

let stack: ReaderStack;
let sync: PromiseClient<readerSync.ReaderSyncServiceClient>;

beforeAll(async () => {
  stack = await startReaderStack({ only: [1001, 1002, 1003, 1007] });
  sync = createPromiseClient(readerSync.ReaderSyncServiceClient, `127.0.0.1:${stack.service.grpcPort}`, { defaultDeadlineMs: 10_000 });
});
afterAll(async () => {
  sync?.close();
  await stack?.stop();
});

/** A KOReader sync v1 request: the document as sent, no identifiers. */
const V1 = { identifiers: [], matchIdentifiers: false };
const fetchBytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
const manifest = (issueId: number) => stack.db.collection('content_manifests').findOne({ _id: `1:${issueId}` as never });

describe('files for e-readers', () => {
  it('when the EPUB is asked by a reader of it, then the signed book, whose KOReader hash is the one stored at ingest', async () => {
    const found = await sync.getPublicationFile({ tenantId: 1, userId: USERS.ana, issueId: 1001 });
    expect(found).toMatchObject({ contentType: 'epub', files: [{ mediaType: 'application/epub+zip', url: expect.stringContaining('sig=') }] });
    const bytes = await fetchBytes(found.files[0]!.url);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(found.files[0]!.size).toBe(bytes.length);
    expect((await manifest(1001))?.document_hash).toBe(partialMd5(bytes));
  });

  it('when the PDF is asked, then the PDF itself (kept at ingest); audio gives its tracks', async () => {
    const pdf = await sync.getPublicationFile({ tenantId: 1, userId: USERS.bruno, issueId: 1007 });
    const bytes = await fetchBytes(pdf.files[0]!.url);
    expect(pdf.files[0]!.mediaType).toBe('application/pdf');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await manifest(1007))?.document_hash).toBe(partialMd5(bytes));

    const audio = await sync.getPublicationFile({ tenantId: 1, userId: USERS.ana, issueId: 1003 });
    expect(audio.contentType).toBe('audio');
    expect(audio.files.length).toBeGreaterThan(0);
    for (const track of audio.files) expect(track).toMatchObject({ mediaType: 'audio/mpeg', duration: expect.any(Number) });
  });

  it('when the user cannot read the issue or it is unknown, then PERMISSION_DENIED / NOT_FOUND', async () => {
    await expect(sync.getPublicationFile({ tenantId: 1, userId: USERS.ana, issueId: 1002 })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(sync.getPublicationFile({ tenantId: 1, userId: USERS.ana, issueId: 4242 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('KOReader progress', () => {
  it('when a known document is pushed, then the reading position moves to its chapter; a later API position is what a pull answers', async () => {
    const document = (await manifest(1001))!.document_hash as string;
    const pushed = await sync.pushProgress({
      ...V1,
      tenantId: 1,
      userId: USERS.ana,
      document,
      progress: '/body/DocFragment[2]/body/p[1]',
      percentage: 0.5,
      device: 'Kobo',
      deviceId: 'k',
    });
    expect(pushed.document).toBe(document);
    const position = await stack.db.collection('reading_positions').findOne({ _id: `${USERS.ana}:1:1001` as never });
    const spine = (await stack.db.collection('content_structures').findOne({ _id: '1:1001' as never }))!.epub.spine as { href: string }[];
    expect(position?.location).toMatchObject({ chapterHref: spine[1]!.href });
    expect((await sync.pullProgress({ ...V1, tenantId: 1, userId: USERS.ana, document })).progress).toMatchObject({
      progress: '/body/DocFragment[2]/body/p[1]',
      device: 'Kobo',
    });

    // A position saved through the API afterwards (a later read_at) wins the pull.
    await stack.client.saveLastLocation({
      tenantId: 1,
      userId: USERS.ana,
      issueId: 1001,
      location: { epub: { chapterHref: spine[2]!.href, cfi: 'epubcfi(/6/6!/4/2)' } },
      expected: undefined,
    });
    expect((await sync.pullProgress({ ...V1, tenantId: 1, userId: USERS.ana, document })).progress).toMatchObject({
      progress: '/body/DocFragment[3]/body',
      device: 'Folio',
    });
  });

  it('when an unknown document is pushed, then it is kept for that user only; a bad document is INVALID_ARGUMENT', async () => {
    const document = 'ab'.repeat(16);
    expect((await sync.pullProgress({ ...V1, tenantId: 1, userId: USERS.bruno, document })).progress).toBeUndefined();
    await sync.pushProgress({ ...V1, tenantId: 1, userId: USERS.bruno, document, progress: '12', percentage: 0.3, device: 'd', deviceId: 'i' });
    expect((await sync.pullProgress({ ...V1, tenantId: 1, userId: USERS.bruno, document })).progress).toMatchObject({
      document,
      progress: '12',
      percentage: 0.3,
    });
    expect((await sync.pullProgress({ ...V1, tenantId: 1, userId: USERS.ana, document })).progress).toBeUndefined();
    await expect(sync.pullProgress({ ...V1, tenantId: 1, userId: USERS.bruno, document: 'no such/thing' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(
      sync.pushProgress({ ...V1, tenantId: 1, userId: USERS.bruno, document, progress: '1', percentage: 3, device: '', deviceId: '' }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it("when account.deleted arrives, then the user's KOReader records and v2 aliases are erased", async () => {
    const userId = USERS.elena;
    await sync.pushProgress({ ...V1, tenantId: 6, userId, document: 'cd'.repeat(16), progress: '1', percentage: 0.1, device: 'd', deviceId: 'i' });
    const identifiers = [
      { type: 'content', value: 'C1' },
      { type: 'structure', value: 'S1' },
    ];
    await sync.pushProgress({
      tenantId: 6,
      userId,
      document: 'C1',
      identifiers,
      matchIdentifiers: true,
      progress: '1',
      percentage: 0.1,
      device: 'd',
      deviceId: '',
    });
    expect(await stack.db.collection('kosync_progress').countDocuments({ user_id: userId })).toBe(2);
    expect(await stack.db.collection('kosync_aliases').findOne({ user_id: userId })).toMatchObject({ digest: 'S1', type: 'structure', canonical: 'C1' });
    const connection = await amqp.connect(testInfra().amqpUrl);
    try {
      const channel = await connection.createConfirmChannel();
      const event = createEvent('account.deleted', { user_id: userId, email: 'elena@example.com' });
      channel.publish(stack.identityExchange, 'account.deleted', Buffer.from(JSON.stringify(event)), { persistent: true, contentType: 'application/json' });
      await channel.waitForConfirms();
      await channel.close();
    } finally {
      await connection.close();
    }
    await waitFor(async () => ((await stack.db.collection('kosync_progress').countDocuments({ user_id: userId })) === 0 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'KOReader records erased',
    });
    expect(await stack.db.collection('kosync_aliases').countDocuments({ user_id: userId })).toBe(0);
  });
});
