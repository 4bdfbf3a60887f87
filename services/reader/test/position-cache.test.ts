// Reader answers a user's positions and settings from memory
// (data/positions.ts, data/user-settings.ts, POSITION_CACHE_TTL_MS far
// longer than this test runs). A position saved
// through one replica must show at once on that replica and, through the
// user's version in Redis (data/user-versions.ts), on the next read of another
// one that had the old list cached; an ended session shows through sessions.ended.
import { createLogger } from '@folio/logger';
import { createPromiseClient } from '@folio/grpc';
import { reader } from '@folio/proto';
import { deleteTopology, failureOf, uniqueName, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReader, type RunningReader } from '../src/app.js';
import { loadReaderConfig } from '../src/config.js';
import { freePort, startReaderStack, USERS, type ReaderClient, type ReaderStack } from './support/stack.js';

describe('cached reading positions, reader settings and sessions on two replicas', () => {
  let stack: ReaderStack;
  let second: RunningReader;
  let other: ReaderClient;
  let queuePrefix = '';

  beforeAll(async () => {
    const cache = { POSITION_CACHE_TTL_MS: '600000', SESSION_CACHE_TTL_MS: '600000' };
    stack = await startReaderStack({ only: [1001, 1003], overrides: cache });
    // The same database, exchanges and keys: another pod of the same deployment.
    const env = Object.fromEntries(Object.entries(stack.config).map(([key, value]) => [key, String(value)]));
    const mediaPort = await freePort();
    const config = loadReaderConfig({ ...env, ...cache, GRPC_PORT: '0', MEDIA_PORT: String(mediaPort), QUEUE_PREFIX: (queuePrefix = uniqueName('reader2')) });
    second = await startReader(config, createLogger({ service: 'reader-2', level: 'silent' }));
    other = createPromiseClient(reader.ReaderServiceClient, `127.0.0.1:${second.grpcPort}`, { defaultDeadlineMs: 10_000 });
  });
  afterAll(async () => {
    other?.close();
    await second?.stop();
    await stack?.stop();
    await deleteTopology({ consumers: [`${queuePrefix}.account-eraser`] }).catch(() => {});
  });

  const shelf = async (client: ReaderClient) =>
    (await client.listContinueReading({ userId: USERS.ana, tenantIds: [1], page: 1, perPage: 6 })).positions.map((position) => position.issueId);
  const save = (client: ReaderClient, issueId: number, location: reader.LastLocation) =>
    client.saveLastLocation({ tenantId: 1, userId: USERS.ana, issueId, location, expected: undefined });

  it('when a position is saved through one replica, then both replicas list it on their next read', async () => {
    expect(await shelf(stack.client)).toEqual([]);
    expect(await shelf(other)).toEqual([]); // both have ana's (empty) list cached now

    await save(stack.client, 1003, { audio: { currentSeek: 1.5, currentTrack: 1 } });

    expect(await shelf(stack.client)).toEqual([1003]);
    expect(await shelf(other)).toEqual([1003]);
  });

  it('when a session is deleted through one replica, then the other refuses its reader-token too', async () => {
    const opened = await stack.client.createReaderSession({ tenantId: 1, userId: USERS.ana, issueId: 1003, preview: false });
    // Both replicas have the session cached now.
    await stack.client.verifyReaderToken({ readerToken: opened.readerToken, expectedTenantId: 1 });
    await other.verifyReaderToken({ readerToken: opened.readerToken, expectedTenantId: 1 });

    await stack.client.deleteReaderSession({ storeTenantId: 1, publicId: opened.publicId });

    expect((await failureOf(stack.client.verifyReaderToken({ readerToken: opened.readerToken, expectedTenantId: 1 }))).code).toBe('PERMISSION_DENIED');
    await waitFor(
      async () =>
        (await failureOf(other.verifyReaderToken({ readerToken: opened.readerToken, expectedTenantId: 1 })).catch(() => null))?.code === 'PERMISSION_DENIED'
          ? true
          : undefined,
      { what: 'the other replica refusing the ended session' },
    );
  });

  it("when the user's reader settings are saved through one replica, then both answer them on their next read", async () => {
    const userSettings = async (client: ReaderClient) =>
      (await client.getReaderSettings({ tenantId: 1, userId: USERS.ana, issueId: 1003 })).settings?.user?.theme;
    // Both replicas have ana's absence of settings cached now (most users never save any).
    expect(await userSettings(stack.client)).toBeUndefined();
    expect(await userSettings(other)).toBeUndefined();
    await stack.client.updateUserReaderSettings({ userId: USERS.ana, settings: { theme: 'sepia', epub: { zoom: 100 }, pdf: {} } });
    expect(await userSettings(stack.client)).toBe('sepia');
    expect(await userSettings(other)).toBe('sepia');

    await stack.client.updateUserReaderSettings({ userId: USERS.ana, settings: { theme: 'dark', epub: { zoom: 100 }, pdf: {} } });

    expect(await userSettings(stack.client)).toBe('dark');
    expect(await userSettings(other)).toBe('dark');
  });

  it('when another issue is read later through the other replica, then it comes first on both', async () => {
    await save(other, 1001, { epub: { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2!/4/2/1:0)' } });

    expect(await shelf(other)).toEqual([1001, 1003]);
    expect(await shelf(stack.client)).toEqual([1001, 1003]);
    const settings = await stack.client.getReaderSettings({ tenantId: 1, userId: USERS.ana, issueId: 1001 });
    expect(settings.settings?.issue?.lastLocation).toEqual({ epub: { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2!/4/2/1:0)' } });
  });
});
