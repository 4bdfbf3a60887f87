// Two replicas' repositories (each its own in-process cache) over the same
// real store and the same real Redis, and no positions.changed between them:
// the users' reading state versions alone (data/user-versions.ts) must make a
// write through one replica show on the other's very next read, and an
// unreachable Redis must send reads to the store, never to a cached entry.
import { createLogger, type Logger } from '@folio/logger';
import { ReferenceCache } from '@folio/messaging';
import { freshDatabase, startTcpProxy, testInfra, uniqueName, type TcpProxy } from '@folio/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReaderRepositories, type MongoReaderRepositories } from '../src/data/index.js';
import type { PositionDoc, UserSettingsDoc } from '../src/data/schemas.js';
import { RedisUserVersions } from '../src/data/user-versions.js';
import { positionIdOf } from '../src/domain/repositories.js';
import { freePort } from './support/stack.js';

/** Far longer than the file runs: whatever a replica answers fresh came through a version, not an expiry. */
const CACHE_TTL_MS = 600_000;
const logger = createLogger({ service: 'reader-test', level: 'silent' });

/** A logger whose lines the test reads back. */
function recordingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const destination = { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) };
  return { logger: createLogger({ service: 'reader-test', level: 'warn', destination }), warnings: () => lines.filter((line) => line.level === 40) };
}

describe("a user's positions and settings cached on two replicas", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  const prefix = uniqueName('rver');
  const clients: Redis[] = [];
  const proxies: TcpProxy[] = [];

  const redisAt = (url: string) => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 1_000, commandTimeout: 1_000, enableAutoPipelining: true });
    redis.on('error', () => {}); // a closed port's refusals, expected
    clients.push(redis);
    return redis;
  };
  const versionsOf = (redis: Redis, aggregate: string, log: Logger) => new RedisUserVersions(redis, log, { prefix, aggregate, cacheTtlMs: CACHE_TTL_MS });
  /** One replica's store: its own caches, the shared store and Redis; no broadcast. */
  const replicaOn = (redis: Redis, log: Logger = logger): Promise<MongoReaderRepositories> =>
    openReaderRepositories(db.connection, {
      positions: { entries: new ReferenceCache({ ttlMs: CACHE_TTL_MS, maxEntries: 100 }), versions: versionsOf(redis, 'positions', log), changed: () => {} },
      settings: { entries: new ReferenceCache({ ttlMs: CACHE_TTL_MS, maxEntries: 100 }), versions: versionsOf(redis, 'settings', log), changed: () => {} },
    });
  const ready = async (redis: Redis) => {
    await redis.ping();
    return redis;
  };

  let first: MongoReaderRepositories;
  let second: MongoReaderRepositories;
  beforeAll(async () => {
    db = await freshDatabase('reader-versions');
    first = await replicaOn(await ready(redisAt(testInfra().redisUrl)));
    second = await replicaOn(await ready(redisAt(testInfra().redisUrl)));
  });
  afterAll(async () => {
    for (const redis of clients) redis.disconnect();
    for (const proxy of proxies) await proxy.close();
    await db.drop();
  });

  const position = (userId: number, issueId: number, readAt: Date): PositionDoc => ({
    _id: positionIdOf({ userId, tenantId: 1, issueId }),
    user_id: userId,
    tenant_id: 1,
    issue_id: issueId,
    location: { epub: { chapterHref: `text/chapter-${issueId}.xhtml` } },
    read_at: readAt,
  });
  const settings = (userId: number, theme: string): UserSettingsDoc => ({
    _id: userId,
    theme,
    epub: { zoom: 100, layout: null },
    pdf: { layout: null },
    updated_at: new Date(),
  });
  const shelf = async (store: MongoReaderRepositories, userId: number) =>
    (await store.positions.recent({ userId, tenantIds: [1] }, 0, 10)).positions.map((saved) => saved.issue_id);

  it('when a position is saved through one replica, then the other answers it on its very next read', async () => {
    const userId = 101;
    expect(await shelf(first, userId)).toEqual([]);
    expect(await shelf(second, userId)).toEqual([]); // both have the empty list cached now

    await first.positions.saveIfNewer(position(userId, 1001, new Date('2026-12-01T10:00:00Z')));

    expect(await shelf(second, userId)).toEqual([1001]);
    expect((await second.positions.find({ userId, tenantId: 1, issueId: 1001 }))?.read_at).toEqual(new Date('2026-12-01T10:00:00Z'));

    await second.positions.saveIfNewer(position(userId, 1001, new Date('2026-12-01T11:00:00Z')));
    await second.positions.save(position(userId, 1003, new Date('2026-12-01T12:00:00Z')));

    expect(await shelf(first, userId)).toEqual([1003, 1001]);
    expect((await first.positions.find({ userId, tenantId: 1, issueId: 1001 }))?.read_at).toEqual(new Date('2026-12-01T11:00:00Z'));

    await first.positions.deleteAllOf(userId);

    expect(await shelf(second, userId)).toEqual([]);
  });

  it("when the user's settings are saved or deleted through one replica, then the other answers that on its very next read", async () => {
    const userId = 102;
    expect(await first.settings.find(userId)).toBeNull();
    expect(await second.settings.find(userId)).toBeNull(); // the absence is cached on both

    await first.settings.save(settings(userId, 'sepia'));
    expect((await second.settings.find(userId))?.theme).toBe('sepia');

    await second.settings.save(settings(userId, 'dark'));
    expect((await first.settings.find(userId))?.theme).toBe('dark');

    await second.settings.delete(userId);
    expect(await first.settings.find(userId)).toBeNull();
  });

  it('when a version key expired or Redis lost it after a write, then a replica that cached before still reloads', async () => {
    const userId = 103;
    const redis = clients[0]!;
    expect(await shelf(second, userId)).toEqual([]);
    await first.positions.save(position(userId, 1001, new Date('2026-12-01T10:00:00Z')));

    await redis.del(`${prefix}:positions:${userId}`);

    expect(await shelf(second, userId)).toEqual([1001]);
  });

  it('when a version is written, then its key expires, later than the cache entries loaded at it', async () => {
    const userId = 104;
    await first.settings.save(settings(userId, 'sepia'));
    const ttl = await clients[0]!.pttl(`${prefix}:settings:${userId}`);
    expect(ttl).toBeGreaterThan(CACHE_TTL_MS);
  });

  it('when Redis cannot be reached at all, then reads and writes answer from the store', async () => {
    const userId = 105;
    const unreachable = await replicaOn(redisAt(`redis://127.0.0.1:${await freePort()}`));

    await unreachable.positions.saveIfNewer(position(userId, 1001, new Date('2026-12-01T10:00:00Z')));
    await unreachable.settings.save(settings(userId, 'sepia'));
    expect(await shelf(unreachable, userId)).toEqual([1001]);
    expect((await unreachable.settings.find(userId))?.theme).toBe('sepia');

    await first.positions.save(position(userId, 1003, new Date('2026-12-01T11:00:00Z')));
    await first.settings.save(settings(userId, 'dark'));

    expect(await shelf(unreachable, userId)).toEqual([1003, 1001]);
    expect((await unreachable.settings.find(userId))?.theme).toBe('dark');
  });

  it('when Redis goes away after a replica cached a user, then that replica reads the store, not its entry', async () => {
    const userId = 106;
    const { port } = new URL(testInfra().redisUrl);
    const proxy = await startTcpProxy('127.0.0.1', Number(port || 6379));
    proxies.push(proxy);
    const cut = await replicaOn(await ready(redisAt(`redis://127.0.0.1:${proxy.port}`)));
    expect(await shelf(cut, userId)).toEqual([]);
    expect(await cut.settings.find(userId)).toBeNull();

    await proxy.cut();
    await first.positions.save(position(userId, 1001, new Date('2026-12-01T10:00:00Z')));
    await first.settings.save(settings(userId, 'sepia'));

    expect(await shelf(cut, userId)).toEqual([1001]);
    expect((await cut.settings.find(userId))?.theme).toBe('sepia');
  });

  it('when Redis stops answering, then reads and writes answer from the store after at most one command timeout, with one warning', async () => {
    const userId = 107;
    const { port } = new URL(testInfra().redisUrl);
    const proxy = await startTcpProxy('127.0.0.1', Number(port || 6379));
    proxies.push(proxy);
    const { logger: recording, warnings } = recordingLogger();
    const hung = await replicaOn(await ready(redisAt(`redis://127.0.0.1:${proxy.port}`)), recording);
    expect(await shelf(hung, userId)).toEqual([]);

    proxy.hold();
    await first.positions.save(position(userId, 1001, new Date('2026-12-01T10:00:00Z')));
    const started = Date.now();

    expect(await shelf(hung, userId)).toEqual([1001]); // waited for the GET's timeout, then the store
    await hung.positions.save(position(userId, 1003, new Date('2026-12-01T11:00:00Z'))); // its version write times out too
    for (let read = 0; read < 20; read++) expect(await shelf(hung, userId)).toEqual([1003, 1001]);

    expect(Date.now() - started).toBeLessThan(5_000);
    expect(warnings().length).toBe(1);
    proxy.release();
  });
});
