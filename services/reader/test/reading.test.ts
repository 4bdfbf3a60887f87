// Reading positions and their validation, continue reading across tenants,
// in-issue text search (v2 and v1) with its hits checked against
// the files themselves, the v1 bulk text records, and account erasure through
// a real account.deleted event.
import JSZip from 'jszip';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import { DOMParser } from '@xmldom/xmldom';
import { createEvent } from '@folio/messaging';
import { reader } from '@folio/proto';
import { testInfra, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionVersion as versionOf } from '../src/domain/positions.js';
import { contentOf, startReaderStack, USERS, type ReaderStack } from './support/stack.js';

let stack: ReaderStack;

beforeAll(async () => {
  // Positions are saved only for issues the user can read.
  stack = await startReaderStack({
    extraAccess: [
      { email: 'admin@example.com', issue_id: 1001 },
      { email: 'admin@example.com', issue_id: 1002 },
      { email: 'fabio@example.com', issue_id: 6001 },
      { email: 'fabio@example.com', issue_id: 4001 },
    ],
  });
});
afterAll(() => stack?.stop());

type Location = { chapterHref: string; cfi: string } | { page: number } | { currentSeek: number; currentTrack: number };

/** A position in reader's message form. */
const located = (location: Location | null): reader.LastLocation | undefined => {
  if (location === null) return undefined;
  if ('chapterHref' in location) return { epub: location };
  if ('page' in location) return { pdf: location };
  return { audio: location };
};

const save = (userId: number, tenantId: number, issueId: number, location: Location | null, expectedVersion?: string) =>
  stack.client.saveLastLocation({
    tenantId,
    userId,
    issueId,
    location: located(location),
    expected: expectedVersion === undefined ? undefined : { versions: [expectedVersion], any: false },
  });

const open = async (userId: number, issueId: number, tenantId = 1, preview = false) =>
  (await stack.client.createReaderSession({ tenantId, userId, issueId, preview })).readerToken;

/** The session of a reader-token, verified for the tenant as the gateway does before it searches. */
const sessionOf = async (readerToken: string, tenantId: number) => (await stack.client.verifyReaderToken({ readerToken, expectedTenantId: tenantId })).context;

/** A search of the session's issue, as the gateway asks it. */
const searchV2 = async (readerToken: string, search: string, tenantId = 1) =>
  stack.client.searchIssueText({ session: await sessionOf(readerToken, tenantId), search });

/** A search of a named issue, as v1 asks it. */
const searchV1 = async (readerToken: string, search: string, issueId: number, tenantId = 1) =>
  stack.client.searchIssueText({ session: await sessionOf(readerToken, tenantId), search, issueId });

/** The matched words of a hit, as its excerpt holds them. */
const matchedWords = (hit: reader.TextHit) => hit.excerpt!.matches.map(({ start, length }) => hit.excerpt!.text.slice(start, start + length));

describe('last location', () => {
  it('when a valid position is saved for each content type, then the same object comes back', async () => {
    const epub = { chapterHref: 'text/chapter-2.xhtml', cfi: 'epubcfi(/6/4[chapter-2]!/4/4/1:10)' };
    expect(await save(USERS.ana, 1, 1001, epub)).toMatchObject({ location: located(epub), saved: true, version: expect.any(String) });
    expect(await save(USERS.admin, 1, 1002, { page: 4 })).toMatchObject({ location: { pdf: { page: 4 } }, saved: true });
    expect(await save(USERS.bruno, 1, 1003, { currentSeek: 3.25, currentTrack: 1 })).toMatchObject({
      location: { audio: { currentSeek: 3.25, currentTrack: 1 } },
      saved: true,
    });
  });

  it.each([
    ['EPUB chapter not in the spine', 1001, { chapterHref: 'text/chapter-9.xhtml', cfi: 'epubcfi(/6/2!/4/2)' }, 'lastLocation.chapterHref'],
    ['EPUB cfi that is not a CFI', 1001, { chapterHref: 'text/chapter-1.xhtml', cfi: 'page 3' }, 'lastLocation.cfi'],
    ['EPUB with a PDF shape', 1001, { page: 1 }, 'lastLocation.chapterHref'],
    ['PDF page 0', 1002, { page: 0 }, 'lastLocation.page'],
    ['PDF page past the end', 1002, { page: 5 }, 'lastLocation.page'],
    ['PDF with an audio shape', 1002, { currentSeek: 1, currentTrack: 0 }, 'lastLocation.page'],
    ['audio track past the last', 1003, { currentSeek: 1, currentTrack: 2 }, 'lastLocation.currentTrack'],
    ['audio negative seek', 1003, { currentSeek: -1, currentTrack: 0 }, 'lastLocation.currentSeek'],
    ['audio seek past the duration', 1003, { currentSeek: 600, currentTrack: 0 }, 'lastLocation.currentSeek'],
    ['audio with an EPUB shape', 1003, { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2!/4/2)' }, 'lastLocation.currentTrack'],
    ['no lastLocation', 1002, null, 'lastLocation'],
  ] as [string, number, Location | null, string][])(
    'when the position is invalid (%s), then INVALID_ARGUMENT names the field',
    async (_case, issueId, location, field) => {
      const error = await save(USERS.admin, 1, issueId, location).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
      expect(Object.keys((error as { details: { fieldErrors: object } }).details.fieldErrors)).toContain(field);
    },
  );

  it('when the user cannot read the issue, then PERMISSION_DENIED, and it does not show in continue reading', async () => {
    await expect(save(USERS.elena, 1, 1002, { page: 1 })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    const listed = await stack.client.listContinueReading({ userId: USERS.elena, tenantIds: [1], page: 1, perPage: 6 });
    expect(listed.positions.map((position) => position.issueId)).not.toContain(1002);
  });

  it('when the issue is physical or unknown, then 422 or 404', async () => {
    await expect(save(USERS.ana, 1, 1005, { page: 1 })).rejects.toMatchObject({ code: 'FAILED_PRECONDITION', details: { reason: 'NO_DIGITAL_CONTENT' } });
    await expect(save(USERS.ana, 1, 424242, { page: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('when a position is saved twice, then the last write wins', async () => {
    await save(USERS.carla, 3, 3001, { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2!/4/2/1:0)' });
    await save(USERS.carla, 3, 3001, { chapterHref: 'text/chapter-2.xhtml', cfi: 'epubcfi(/6/4!/4/4/1:5)' });
    const { settings } = await stack.client.getReaderSettings({ tenantId: 3, userId: USERS.carla, issueId: 3001 });
    expect(settings?.issue?.lastLocation).toEqual({ epub: { chapterHref: 'text/chapter-2.xhtml', cfi: 'epubcfi(/6/4!/4/4/1:5)' } });
    const listed = await stack.client.listContinueReading({ userId: USERS.carla, tenantIds: [3], page: 1, perPage: 6 });
    expect(listed.total).toBe(1);
  });

  it('when one device sends many saves at once, then each is saved in turn and the one saved last stays', async () => {
    const at = (offset: number) => ({ chapterHref: 'text/chapter-1.xhtml', cfi: `epubcfi(/6/2!/4/2/1:${offset})` });
    const offsets = Array.from({ length: 12 }, (_, index) => index);
    const since = Date.now();
    const results = await Promise.all(offsets.map((offset) => save(USERS.carla, 3, 3001, at(offset))));
    expect(results.map((result) => result.saved)).toEqual(offsets.map(() => true));

    // Each answer's version is a hash of its time and place: recover the time each save was stamped with.
    const until = Date.now();
    const stampOf = (location: Record<string, unknown>, version: string) => {
      for (let time = since; time <= until; time += 1) if (versionOf({ location, read_at: new Date(time) }) === version) return time;
      throw new Error(`no time between ${since} and ${until} gives version ${version}`);
    };
    const stamps = offsets.map((offset) => stampOf(at(offset), results[offset]!.version));
    // The stored position is the newest of them: saves that met in the store (read, then write) could leave an older one last.
    const { settings, positionVersion: stored } = await stack.client.getReaderSettings({ tenantId: 3, userId: USERS.carla, issueId: 3001 });
    const kept = results.findIndex((result) => result.version === stored);
    expect(stamps[kept]).toBe(Math.max(...stamps));
    expect(settings?.issue?.lastLocation).toEqual({ epub: at(kept) });
  });

  it('when a write names the stored version, then it is saved; when it names an older one, then nothing is saved and the current position comes back', async () => {
    const first = await save(USERS.carla, 3, 3001, { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2!/4/2/1:0)' });
    const second = await save(USERS.carla, 3, 3001, { chapterHref: 'text/chapter-2.xhtml', cfi: 'epubcfi(/6/4!/4/2/1:0)' }, first.version);
    expect(second).toMatchObject({ saved: true, location: { epub: { chapterHref: 'text/chapter-2.xhtml' } } });
    expect(second.version).not.toBe(first.version);

    // A device that still holds the first version is stale.
    const stale = await save(USERS.carla, 3, 3001, { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2!/4/8/1:0)' }, first.version);
    expect(stale).toEqual({ saved: false, version: second.version, location: second.location });
    const { settings, positionVersion } = await stack.client.getReaderSettings({ tenantId: 3, userId: USERS.carla, issueId: 3001 });
    expect(settings?.issue?.lastLocation).toEqual(second.location);
    expect(positionVersion).toBe(second.version);
  });

  it('when a version is named but no position is stored, then nothing is saved, not even for "any"', async () => {
    const location = { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2!/4/2/1:0)' };
    const refused = await save(USERS.admin, 1, 1001, location, 'no-such-version');
    expect(refused).toMatchObject({ saved: false, version: '', location: undefined });
    const any = await stack.client.saveLastLocation({
      tenantId: 1,
      userId: USERS.admin,
      issueId: 1001,
      location: located(location),
      expected: { versions: [], any: true },
    });
    expect(any.saved).toBe(false);
  });
});

describe('continue reading', () => {
  it('when fabio reads in two tenants, then positions come most recent first across them, paged', async () => {
    await save(USERS.fabio, 6, 6001, { page: 1 });
    await save(USERS.fabio, 4, 4001, { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2!/4/4/1:3)' });
    await save(USERS.fabio, 6, 6001, { page: 2 }); // read again: moves to the front
    await save(USERS.fabio, 1, 1003, { currentSeek: 1, currentTrack: 0 });

    const all = await stack.client.listContinueReading({ userId: USERS.fabio, tenantIds: [6, 4], page: 1, perPage: 6 });
    expect(all.positions.map((p) => [p.tenantId, p.issueId])).toEqual([
      [6, 6001],
      [4, 4001],
    ]);
    expect(all.total).toBe(2);
    expect(Date.parse(all.positions[0]!.readAt)).toBeGreaterThanOrEqual(Date.parse(all.positions[1]!.readAt));

    const second = await stack.client.listContinueReading({ userId: USERS.fabio, tenantIds: [6, 4, 1], page: 2, perPage: 2 });
    expect(second.positions.map((p) => p.issueId)).toEqual([4001]);
    expect(second.total).toBe(3);
    expect((await stack.client.listContinueReading({ userId: USERS.fabio, tenantIds: [], page: 1, perPage: 6 })).positions).toEqual([]);
  });
});

/** Resolves a range CFI of the form produced by reader against the EPUB and returns the characters it spans. */
async function textAtCfi(epubData: Buffer, cfi: string): Promise<{ chapter: string; text: string }> {
  const match = /^epubcfi\(\/6\/(\d+)\[([^\]]+)\]!((?:\/\d+)*),((?:\/\d+)*):(\d+),((?:\/\d+)*):(\d+)\)$/.exec(cfi);
  if (!match) throw new Error(`unexpected CFI form ${cfi}`);
  const [, , idref, parent, startPath, startOffset, endPath, endOffset] = match;
  const zip = await JSZip.loadAsync(epubData);
  const opf = await zip.file('OEBPS/package.opf')!.async('string');
  const href = new RegExp(`id="${idref}" href="([^"]+)"`).exec(opf)![1]!;
  const document = new DOMParser().parseFromString(await zip.file(`OEBPS/${href}`)!.async('string'), 'application/xhtml+xml');
  const step = (node: any, index: number) => {
    // Even: the (index/2)-th element child; odd: the text between elements.
    const kids = Array.from(node.childNodes as ArrayLike<any>);
    let elements = 0;
    for (const kid of kids) {
      if (kid.nodeType === 1) {
        elements += 1;
        if (index === elements * 2) return kid;
      } else if (kid.nodeType === 3 && index === elements * 2 + 1) return kid;
    }
    throw new Error(`no step ${index}`);
  };
  const walk = (path: string, from: any) => path.split('/').filter(Boolean).map(Number).reduce(step, from);
  const parentNode = walk(parent!, document.documentElement);
  const startNode = walk(startPath!, parentNode);
  const endNode = walk(endPath!, parentNode);
  expect(startNode).toBe(endNode);
  return { chapter: href, text: (startNode.data as string).slice(Number(startOffset), Number(endOffset)) };
}

describe('in-issue text search', () => {
  it('when an EPUB is searched, then hits are ranked, their matched words given, and their CFI points at the matched words', async () => {
    const token = await open(USERS.ana, 1001);
    const hits = (await searchV2(token, 'Atlas')).hits;
    expect(hits.length).toBeGreaterThanOrEqual(3);
    expect(hits.length).toBeLessThanOrEqual(50);
    // The chapter titled after the atlas and the chapter about it rank above a passing mention.
    expect(matchedWords(hits[0]!)).toContain('Atlas');
    for (const hit of hits) {
      expect(hit.queryWords).toEqual(['Atlas']);
      expect(matchedWords(hit).map((word) => word.toLowerCase())).toContain('atlas');
    }
    const session = contentOf(await stack.client.createReaderSession({ tenantId: 1, userId: USERS.ana, issueId: 1001, preview: false }));
    const epub = Buffer.from(await (await fetch(session.epub!.fileUrl!)).arrayBuffer());
    for (const hit of hits) {
      const { text } = await textAtCfi(epub, hit.cfi!);
      expect(text.toLowerCase()).toBe('atlas');
    }
    const phrase = (await searchV2(token, 'fishing boats returning')).hits;
    const found = await textAtCfi(epub, phrase[0]!.cfi!);
    expect(found).toEqual({ chapter: 'text/chapter-1.xhtml', text: 'fishing boats returning' });
    expect(phrase[0]!.excerpt!.text).toContain('the fishing boats returning, the gulls');
    expect(matchedWords(phrase[0]!)).toEqual(['fishing', 'boats', 'returning']);
  });

  it('when the query lacks the accents of the text, then it still matches (diacritic-insensitive), in the named issue too', async () => {
    const token = await open(USERS.ana, 2001, 2);
    const hits = (await searchV2(token, 'fabrica rio', 2)).hits;
    expect(matchedWords(hits[0]!)).toEqual(expect.arrayContaining(['fábrica', 'río']));
    expect(hits[0]!.cfi).toMatch(/^epubcfi\(\/6\/4\[chapter-2\]!/);
    const v1 = (await searchV1(token, 'cafe esquina', 2001, 2)).hits;
    expect(v1[0]).toMatchObject({ page: 2, section: 2, queryWords: ['cafe', 'esquina'] });
    expect(matchedWords(v1[0]!)).toContain('café');
  });

  it('when a PDF is searched, then a hit gives its page, section and offset into the page text, and no CFI', async () => {
    const token = await open(USERS.ana, 2002, 2);
    const hits = (await searchV2(token, 'tren Bahía', 2)).hits;
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ page: 2, section: 1, cfi: undefined });
    const records = (await stack.client.listIssueTextContent({ storeTenantId: 2, issueId: 2002, page: 2 })).records;
    expect(records).toEqual([{ id: expect.any(Number), issueId: 2002, page: 2, section: 1, text: expect.stringContaining('Bahía Blanca') }]);
    const offset = hits[0]!.pageOffset;
    expect(records[0]!.text.slice(offset, offset + 'tren de Bahía'.length)).toBe('tren de Bahía');
    expect(matchedWords(hits[0]!)).toEqual(['tren', 'Bahía']);

    const v1 = (await searchV1(token, 'lentejas', 2002, 2)).hits;
    expect(v1).toMatchObject([{ page: 3, section: 1, queryWords: ['lentejas'] }]);
    expect(matchedWords(v1[0]!)).toEqual(['lentejas']);
  });

  it('when the last word is cut short, then it matches as a prefix', async () => {
    const token = await open(USERS.bruno, 1007);
    const hits = (await searchV2(token, 'public libr')).hits;
    expect(hits[0]).toMatchObject({ page: 1, cfi: undefined });
    expect(matchedWords(hits[0]!)).toEqual(['public', 'library']);
  });

  it('when the session is a preview, then only the preview pages are searched', async () => {
    const token = await open(USERS.bruno, 1002, 1, true);
    expect((await searchV2(token, 'sailmaker')).hits).toEqual([]);
    expect((await searchV2(token, 'ferry terminal')).hits).toHaveLength(1);
  });

  it('when search is shorter than 4 or longer than 128 characters, then INVALID_ARGUMENT on search', async () => {
    const token = await open(USERS.bruno, 1007);
    await expect(searchV2(token, 'abc')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { fieldErrors: { search: expect.any(Array) } } });
    await expect(searchV2(token, 'x'.repeat(129))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(searchV1(token, 'abc', 1007)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((await searchV2(token, 'x'.repeat(128))).hits).toEqual([]);
  });

  it('when the reader-token is corrupt or for another tenant, then PERMISSION_DENIED', async () => {
    const token = await open(USERS.bruno, 1007);
    await expect(searchV2(`${token}x`, 'harbor')).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(searchV2('', 'harbor')).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(searchV2(token, 'harbor', 2)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
  });

  it('when v1 names an issue of another tenant or one the user cannot read, then 403; an issue without text is 404', async () => {
    const token = await open(USERS.bruno, 1007);
    await expect(searchV1(token, 'cuerda azul', 2001)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(searchV1(token, 'sailmaker', 1002)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(searchV1(token, 'ferry', 1003)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const audio = await open(USERS.bruno, 1003);
    await expect(searchV2(audio, 'ferry crossing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await searchV1(token, 'interview', 1007)).hits[0]).toMatchObject({ page: 2, section: 1 });
  });

  it('when the bulk text of a page is asked at another store, or of an issue without text, then NOT_FOUND', async () => {
    await expect(stack.client.listIssueTextContent({ storeTenantId: 1, issueId: 2002, page: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(stack.client.listIssueTextContent({ storeTenantId: 1, issueId: 1003, page: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const chapter = (await stack.client.listIssueTextContent({ storeTenantId: 1, issueId: 1001, page: 2 })).records;
    expect(chapter.map((r) => [r.page, r.section])).toEqual([
      [2, 1],
      [2, 2],
    ]);
    expect(chapter[0]!.text).toBe('Chapter 2: The Atlas');
  });
});

describe('account deletion', () => {
  it('when account.deleted arrives, then the user’s sessions, settings and positions are erased and her reader-tokens stop working', async () => {
    const userId = USERS.elena;
    const token = await open(userId, 1003);
    const sessionId = Number((await sessionOf(token, 1))!.sessionId);
    await save(userId, 1, 1003, { currentSeek: 2, currentTrack: 0 });
    await stack.client.updateUserReaderSettings({ userId, settings: { theme: 'dark', epub: {}, pdf: {} } });
    const others = await open(USERS.bruno, 1003);

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

    await waitFor(async () => ((await stack.client.listContinueReading({ userId, tenantIds: [1], page: 1, perPage: 6 })).total === 0 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'positions erased',
    });
    await expect(stack.client.verifyReaderToken({ readerToken: token })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    const { settings } = await stack.client.getReaderSettings({ tenantId: 1, userId, issueId: 1003 });
    expect(settings?.user).toEqual({ epub: {}, pdf: {} });
    expect(settings?.issue?.lastLocation).toBeUndefined();
    expect(await stack.db.collection('reader_sessions').countDocuments({ user_id: userId })).toBe(0);
    // The gateway, which takes a token it verified before without asking, learns it from the session's tombstone.
    const redis = new Redis(testInfra().redisUrl);
    try {
      expect(await redis.get(`${stack.config.READER_SESSION_LIVENESS_PREFIX}:${sessionId}`)).toBe('-');
    } finally {
      await redis.quit();
    }
    // Other users keep theirs.
    expect((await stack.client.verifyReaderToken({ readerToken: others })).context?.userId).toBe(USERS.bruno);
  });
});
