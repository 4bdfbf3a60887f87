// OPDS Progression 1.0 against the real reader: a progression is the user's
// reading position (the API's, KOReader's), kept with the device that sent
// it; a stale one (a position read later is stored) is refused with the
// stored one; bad documents and foreign issues are refused by field and code.
import amqp from 'amqplib';
import { createEvent } from '@folio/messaging';
import { testInfra, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReaderStack, USERS, type ReaderStack } from './support/stack.js';

let stack: ReaderStack;
let spine: { href: string; title: string }[];

beforeAll(async () => {
  stack = await startReaderStack({ only: [1001, 1002, 1003, 1007] });
  const structure = await stack.db.collection('content_structures').findOne({ _id: '1:1001' as never });
  spine = (structure?.epub as { spine: { href: string; title: string }[] }).spine;
});
afterAll(async () => {
  await stack?.stop();
});

const device = { deviceId: 'urn:uuid:019c0047-cc8d-7ec4-a3c3-938ccadc020a', deviceName: 'Ebook Reader (Pixel 10 Pro)' };
const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
const positionOf = async (userId: number, issueId: number) =>
  (await stack.db.collection('reading_positions').findOne({ _id: `${userId}:1:${issueId}` as never }))?.location as Record<string, unknown> | undefined;

describe('OPDS progression', () => {
  it('when an app saves a progression, then GET answers it as sent with its device, and it is the reading position', async () => {
    expect(await stack.client.getProgression({ tenantId: 1, userId: USERS.ana, issueId: 1001 })).toEqual({ progression: undefined });
    const chapter = spine[1]!.href;
    const modified = secondsAgo(5);
    const sent = { ...device, modified, progression: 0.25, references: [`${chapter}#par36`], title: 'Chapter 2' };
    const saved = await stack.client.saveProgression({ tenantId: 1, userId: USERS.ana, issueId: 1001, progression: sent });
    expect(saved).toEqual({ saved: true, progression: { ...sent, modified: new Date(modified).toISOString() } });
    expect((await stack.client.getProgression({ tenantId: 1, userId: USERS.ana, issueId: 1001 })).progression).toEqual(saved.progression);

    expect(await positionOf(USERS.ana, 1001)).toEqual({ chapterHref: chapter, cfi: 'epubcfi(/6/4!/4/2)' });
    const listed = await stack.client.listContinueReading({ userId: USERS.ana, tenantIds: [1], page: 1, perPage: 6 });
    expect(listed.positions).toContainEqual({ tenantId: 1, issueId: 1001, readAt: new Date(modified).toISOString() });
  });

  it('when a position read later is stored, then the PUT is refused (saved = false) with the stored progression', async () => {
    const stored = await stack.client.getProgression({ tenantId: 1, userId: USERS.ana, issueId: 1001 });
    const stale = { deviceId: 'urn:uuid:other', deviceName: 'Old tablet', modified: secondsAgo(3600), progression: 0.9, references: [] };
    const refused = await stack.client.saveProgression({ tenantId: 1, userId: USERS.ana, issueId: 1001, progression: stale });
    expect(refused).toEqual({ saved: false, progression: stored.progression });
  });

  it('when the API saves the position, then GET maps it, device Folio; a future `modified` counts as now', async () => {
    await stack.client.saveLastLocation({
      tenantId: 1,
      userId: USERS.ana,
      issueId: 1001,
      location: { epub: { chapterHref: spine[0]!.href, cfi: 'epubcfi(/6/2!/4/8)' } },
      expected: undefined,
    });
    const mapped = (await stack.client.getProgression({ tenantId: 1, userId: USERS.ana, issueId: 1001 })).progression!;
    expect(mapped).toMatchObject({ deviceId: 'urn:folio:api', deviceName: 'Folio', progression: 0, references: [spine[0]!.href] });
    expect(Date.parse(mapped.modified)).toBeLessThanOrEqual(Date.now());

    const future = new Date(Date.now() + 86_400_000).toISOString();
    const saved = await stack.client.saveProgression({
      tenantId: 1,
      userId: USERS.ana,
      issueId: 1001,
      progression: { ...device, modified: future, progression: 0.5, references: [] },
    });
    expect(saved.saved).toBe(true);
    expect(Date.parse(saved.progression!.modified)).toBeLessThanOrEqual(Date.now());
  });

  it('when a PDF or an audiobook is saved by references, then the page or the track and seek', async () => {
    const pdf = await stack.client.saveProgression({
      tenantId: 1,
      userId: USERS.bruno,
      issueId: 1007,
      progression: { ...device, modified: secondsAgo(1), progression: 0.1, references: ['#page=2'] },
    });
    expect(pdf.saved).toBe(true);
    expect(await positionOf(USERS.bruno, 1007)).toEqual({ page: 2 });

    await stack.client.saveProgression({
      tenantId: 1,
      userId: USERS.ana,
      issueId: 1003,
      progression: { ...device, modified: secondsAgo(1), progression: 0, references: ['#t=1.5'] },
    });
    expect(await positionOf(USERS.ana, 1003)).toEqual({ currentTrack: 0, currentSeek: 1.5 });
  });

  it('when fields are bad or the issue is foreign or unknown, then refused by field and code', async () => {
    const bad = { deviceId: 'not a uri', deviceName: '', modified: 'yesterday', progression: 2, references: ['a\u0000b'] };
    await expect(stack.client.saveProgression({ tenantId: 1, userId: USERS.ana, issueId: 1001, progression: bad })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: {
        fieldErrors: {
          modified: [expect.any(String)],
          'device.id': ['must be a URI (e.g. urn:uuid:...)'],
          'device.name': ['is required'],
          progression: ['must be a number between 0 and 1'],
          'references.0': ['must not contain NUL characters'],
        },
      },
    });
    const good = { ...device, modified: secondsAgo(1), progression: 0.5, references: [] };
    await expect(stack.client.saveProgression({ tenantId: 1, userId: USERS.ana, issueId: 1002, progression: good })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await expect(stack.client.getProgression({ tenantId: 1, userId: USERS.ana, issueId: 1002 })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(stack.client.getProgression({ tenantId: 1, userId: USERS.ana, issueId: 4242 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("when account.deleted arrives, then the user's progression documents are erased", async () => {
    const userId = USERS.bruno;
    expect(await stack.db.collection('opds_progressions').countDocuments({ user_id: userId })).toBe(1);
    const connection = await amqp.connect(testInfra().amqpUrl);
    try {
      const channel = await connection.createConfirmChannel();
      const event = createEvent('account.deleted', { user_id: userId, email: 'bruno@example.com' });
      channel.publish(stack.identityExchange, 'account.deleted', Buffer.from(JSON.stringify(event)), { persistent: true, contentType: 'application/json' });
      await channel.waitForConfirms();
      await channel.close();
    } finally {
      await connection.close();
    }
    await waitFor(async () => ((await stack.db.collection('opds_progressions').countDocuments({ user_id: userId })) === 0 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'progression documents erased',
    });
  });
});
