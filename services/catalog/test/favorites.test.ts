// Favorites (GET state, POST toggle) and their erasure on account.deleted.
import { createLogger } from '@folio/logger';
import { Broker, createEvent } from '@folio/messaging';
import { testInfra, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANA, BRUNO, CARLA } from './support/dataset.js';
import { startTestCatalog, type TestCatalog } from './support/harness.js';

describe('favorites', () => {
  let t: TestCatalog;
  const key = (tenantId: number, userId: number, issueId: number) => ({ tenantId, userId, issueId });

  beforeAll(async () => {
    // Flags stay cached far longer than this test runs: every change must drop them.
    t = await startTestCatalog({ env: { FAVORITE_CACHE_TTL_MS: '600000' } });
  });
  afterAll(() => t?.stop());

  it('when another replica changes a favorite and announces it, then this one answers the new flag', async () => {
    // First in the file, and for a user no other test here writes for: an announcement of an earlier
    // write (they leave up to ANNOUNCE_WINDOW_MS after it) that arrived while the flag below was
    // loading would keep it from being cached, and the "still cached" step would read the store.
    expect(await t.client.getFavorite(key(1, CARLA, 1004))).toEqual({ isFavorite: false }); // cached "no"
    // Another replica's write: the document, then favorites.changed on catalog's exchange.
    await t.db.collection('favorites').insertOne({ _id: `1:${CARLA}:1004` as never, tenant_id: 1, user_id: CARLA, issue_id: 1004, created_at: new Date() });
    expect(await t.client.getFavorite(key(1, CARLA, 1004))).toEqual({ isFavorite: false }); // still the cached flag
    const broker = await Broker.connect(testInfra().amqpUrl, { logger: createLogger({ service: 'test', level: 'silent' }) });
    try {
      await broker.publish(t.config.EVENTS_EXCHANGE, createEvent('favorites.changed', { user_id: CARLA }));
    } finally {
      await broker.close();
    }
    await waitFor(async () => ((await t.client.getFavorite(key(1, CARLA, 1004))).isFavorite ? true : undefined), { what: 'the announced favorite' });
  });

  it('when an issue was never toggled, then it is not a favorite', async () => {
    expect(await t.client.getFavorite(key(1, ANA, 1002))).toEqual({ isFavorite: false });
  });

  it('when toggled twice, then it becomes a favorite and then not', async () => {
    expect(await t.client.toggleFavorite(key(1, ANA, 1001))).toEqual({ isFavorite: true });
    expect(await t.client.getFavorite(key(1, ANA, 1001))).toEqual({ isFavorite: true });
    expect(await t.client.toggleFavorite(key(1, ANA, 1001))).toEqual({ isFavorite: false });
    expect(await t.client.getFavorite(key(1, ANA, 1001))).toEqual({ isFavorite: false });
  });

  it('when one user favorites an issue, then another user does not see it as a favorite', async () => {
    await t.client.toggleFavorite(key(1, ANA, 1003));
    expect(await t.client.getFavorite(key(1, BRUNO, 1003))).toEqual({ isFavorite: false });
  });

  it('when the issue is unknown or belongs to another tenant, then it is NOT_FOUND', async () => {
    await expect(t.client.getFavorite(key(1, ANA, 999_999))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(t.client.toggleFavorite(key(1, ANA, 2001))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('when 10 toggles of one favorite race, then they serialize: 5 say true, 5 say false, and it ends as it began', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => t.client.toggleFavorite(key(1, ANA, 1009))));
    expect(results.filter((result) => result.isFavorite)).toHaveLength(5);
    expect(await t.client.getFavorite(key(1, ANA, 1009))).toEqual({ isFavorite: false });
  });

  it('when 7 toggles race, then it ends as a favorite', async () => {
    await Promise.all(Array.from({ length: 7 }, () => t.client.toggleFavorite(key(1, ANA, 1006))));
    expect(await t.client.getFavorite(key(1, ANA, 1006))).toEqual({ isFavorite: true });
  });

  it('when an id is missing, then it is INVALID_ARGUMENT', async () => {
    await expect(t.client.getFavorite(key(1, 0, 1001))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it("when account.deleted arrives for bruno, then all of bruno's favorites go and ana's stay", async () => {
    await t.client.toggleFavorite(key(1, BRUNO, 1001));
    await t.client.toggleFavorite(key(1, BRUNO, 1002));
    await t.client.toggleFavorite(key(1, ANA, 1002));

    const broker = await Broker.connect(testInfra().amqpUrl, { logger: createLogger({ service: 'test', level: 'silent' }) });
    try {
      await broker.publish(t.config.IDENTITY_EVENTS_EXCHANGE, createEvent('account.deleted', { user_id: BRUNO, email: 'bruno@example.com' }));
    } finally {
      await broker.close();
    }

    // waitFor polls until the probe returns something other than undefined.
    const erased = async () => !(await t.client.getFavorite(key(1, BRUNO, 1001))).isFavorite && !(await t.client.getFavorite(key(1, BRUNO, 1002))).isFavorite;
    await waitFor(async () => ((await erased()) ? true : undefined), {
      timeoutMs: 10_000,
      what: "bruno's favorites erased",
    });
    expect(await t.client.getFavorite(key(1, ANA, 1002))).toEqual({ isFavorite: true });
  });
});
