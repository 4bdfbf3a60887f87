import { decodeProtectedHeader } from 'jose';
import { Redis } from 'ioredis';
import { testInfra, uniqueEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimsOf, dropLiveness, failureOf, livenessOf, loginByEmail, startTestIdentity, verifyAccessToken, type TestIdentity } from './support.js';

describe('sessions, refresh tokens and signing keys', () => {
  let t: TestIdentity;
  beforeAll(async () => {
    t = await startTestIdentity({ REFRESH_REUSE_GRACE_SECONDS: '1', SESSION_LIMIT: '2' });
  });
  afterAll(() => t?.stop());

  const sessionOf = async (accessToken: string) => {
    const claims = await claimsOf(t.client, t.config, accessToken);
    return { jti: claims.jti!, userId: Number(claims.sub) };
  };
  const check = async (accessToken: string, enforceLimit = false) => t.client.checkSession({ ...(await sessionOf(accessToken)), enforceLimit });

  it('when 20 refreshes race with one token, then exactly one succeeds and the old access token stops working', async () => {
    const tokens = await loginByEmail(t.client, uniqueEmail('race'));
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => t.client.refreshToken({ refreshToken: tokens.refreshToken, appTenantId: 0 })));
    const winners = results.filter((result) => result.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect((result.reason as { code: string }).code).toBe('UNAUTHENTICATED');
    }
    const renewed = (winners[0] as PromiseFulfilledResult<{ tokens: { accessToken: string; refreshToken: string } }>).value.tokens;
    expect(renewed.refreshToken).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(renewed.refreshToken).not.toBe(tokens.refreshToken);

    await expect(check(renewed.accessToken)).resolves.toHaveProperty('email');
    expect((await failureOf(check(tokens.accessToken))).code).toBe('UNAUTHENTICATED');
  });

  it('when 100 refreshes race with one token, then exactly one succeeds and the others are refused as unauthenticated', async () => {
    const tokens = await loginByEmail(t.client, uniqueEmail('race100'));
    const results = await Promise.allSettled(Array.from({ length: 100 }, () => t.client.refreshToken({ refreshToken: tokens.refreshToken, appTenantId: 0 })));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect((result.reason as { code: string }).code).toBe('UNAUTHENTICATED');
    }
    // The losers never reached the store: one successor token, the family alive.
    const { userId } = await sessionOf(tokens.accessToken);
    expect(await t.db.collection('refresh_tokens').countDocuments({ user_id: userId })).toBe(2);
  });

  it('when a rotated token is reused within the grace window, then only that call fails and the family lives on', async () => {
    const tokens = await loginByEmail(t.client, uniqueEmail('grace'));
    const { tokens: second } = await t.client.refreshToken({ refreshToken: tokens.refreshToken, appTenantId: 0 });

    const reuse = await failureOf(t.client.refreshToken({ refreshToken: tokens.refreshToken, appTenantId: 0 }));
    expect(reuse.code).toBe('UNAUTHENTICATED');

    await expect(check(second!.accessToken)).resolves.toHaveProperty('email');
    const { tokens: third } = await t.client.refreshToken({ refreshToken: second!.refreshToken, appTenantId: 0 });
    await expect(check(third!.accessToken)).resolves.toHaveProperty('email');
  });

  it('when a rotated token is reused after the grace window, then the whole family is revoked', async () => {
    const tokens = await loginByEmail(t.client, uniqueEmail('replay'));
    const { tokens: newest } = await t.client.refreshToken({ refreshToken: tokens.refreshToken, appTenantId: 0 });
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // the grace window is the point

    const replay = await failureOf(t.client.refreshToken({ refreshToken: tokens.refreshToken, appTenantId: 0 }));
    expect(replay.code).toBe('UNAUTHENTICATED');

    expect((await failureOf(check(newest!.accessToken))).code).toBe('UNAUTHENTICATED');
    expect((await failureOf(t.client.refreshToken({ refreshToken: newest!.refreshToken, appTenantId: 0 }))).code).toBe('UNAUTHENTICATED');
  });

  it('when a refresh token is unknown or missing, then it is refused (401 / 422)', async () => {
    const unknown = await failureOf(t.client.refreshToken({ refreshToken: 'x'.repeat(64), appTenantId: 0 }));
    expect(unknown).toMatchObject({ code: 'UNAUTHENTICATED', message: 'The given data was invalid.' });
    const missing = await failureOf(t.client.refreshToken({ refreshToken: '', appTenantId: 0 }));
    expect(missing.code).toBe('INVALID_ARGUMENT');
    expect(Object.keys(missing.details.fieldErrors)).toEqual(['refresh_token']);
  });

  it('when the user logs out, then the session check fails and the refresh token is dead', async () => {
    const tokens = await loginByEmail(t.client, uniqueEmail('logout'));
    await expect(check(tokens.accessToken)).resolves.toHaveProperty('email');

    await t.client.logout({ jti: (await sessionOf(tokens.accessToken)).jti });

    expect((await failureOf(check(tokens.accessToken))).code).toBe('UNAUTHENTICATED');
    expect((await failureOf(t.client.refreshToken({ refreshToken: tokens.refreshToken, appTenantId: 0 }))).code).toBe('UNAUTHENTICATED');
  });

  it('when a third login exceeds the limit of 2, then the oldest session answers 409 on validate and 401 elsewhere', async () => {
    const email = uniqueEmail('limit');
    const first = await loginByEmail(t.client, email);
    const second = await loginByEmail(t.client, email);
    const third = await loginByEmail(t.client, email);

    const enforced = await failureOf(check(first.accessToken, true));
    expect(enforced).toMatchObject({ code: 'ABORTED', message: 'Session limit reached.' });
    expect((await failureOf(check(first.accessToken, false))).code).toBe('UNAUTHENTICATED');
    await expect(check(second.accessToken, true)).resolves.toHaveProperty('email', email);
    await expect(check(third.accessToken, true)).resolves.toHaveProperty('email', email);
    // The evicted device cannot come back by refreshing.
    expect((await failureOf(t.client.refreshToken({ refreshToken: first.refreshToken, appTenantId: 0 }))).code).toBe('UNAUTHENTICATED');
  });

  describe('session liveness in Redis (what the gateway reads instead of calling CheckSession)', () => {
    const liveness = async (accessToken: string) => livenessOf(t.config, (await sessionOf(accessToken)).jti);

    it('when a user logs in, then the key holds the user and lives as long as the access token', async () => {
      const email = uniqueEmail('live');
      const tokens = await loginByEmail(t.client, email);
      const { value, ttlMs } = await liveness(tokens.accessToken);
      expect(JSON.parse(value!)).toEqual({ u: (await sessionOf(tokens.accessToken)).userId, e: email, a: false });
      expect(ttlMs).toBeGreaterThan(0);
      expect(ttlMs).toBeLessThanOrEqual(t.config.ACCESS_TOKEN_TTL_SECONDS * 1000);
    });

    it('when the user logs out, then the key becomes a tombstone', async () => {
      const tokens = await loginByEmail(t.client, uniqueEmail('live-logout'));
      await t.client.logout({ jti: (await sessionOf(tokens.accessToken)).jti });
      expect((await liveness(tokens.accessToken)).value).toBe('-');
    });

    it('when a token is refreshed, then the old session is a tombstone and the new one is live', async () => {
      const tokens = await loginByEmail(t.client, uniqueEmail('live-rotate'));
      const { tokens: renewed } = await t.client.refreshToken({ refreshToken: tokens.refreshToken, appTenantId: 0 });
      expect((await liveness(tokens.accessToken)).value).toBe('-');
      expect(JSON.parse((await liveness(renewed!.accessToken)).value!)).toHaveProperty('u');
    });

    it('when a login evicts the oldest session, then its key becomes a tombstone', async () => {
      const email = uniqueEmail('live-evict');
      const first = await loginByEmail(t.client, email);
      await loginByEmail(t.client, email);
      const third = await loginByEmail(t.client, email);
      expect((await liveness(first.accessToken)).value).toBe('-');
      expect((await liveness(third.accessToken)).value).not.toBe('-');
    });

    it('when the key is missing, then CheckSession answers from the store and writes it again', async () => {
      const tokens = await loginByEmail(t.client, uniqueEmail('live-miss'));
      await dropLiveness(t.config, (await sessionOf(tokens.accessToken)).jti);
      expect((await liveness(tokens.accessToken)).value).toBeNull();
      await expect(check(tokens.accessToken)).resolves.toHaveProperty('email');
      expect(JSON.parse((await liveness(tokens.accessToken)).value!)).toHaveProperty('u');
    });

    it('when a session ended while a CheckSession was reading it, then the check does not bring its key back', async () => {
      const tokens = await loginByEmail(t.client, uniqueEmail('live-race'));
      const { jti } = await sessionOf(tokens.accessToken);
      // The tombstone lands first, as if a logout finished between the check's read and its write.
      const redis = new Redis(testInfra().redisUrl);
      await redis.set(`${t.config.SESSION_LIVENESS_PREFIX}:${jti}`, '-', 'PX', 60_000);
      await redis.quit();
      await check(tokens.accessToken);
      expect((await liveness(tokens.accessToken)).value).toBe('-');
    });
  });

  it('when a session belongs to another user or does not exist, then the check fails', async () => {
    const tokens = await loginByEmail(t.client, uniqueEmail('other'));
    const { jti, userId } = await sessionOf(tokens.accessToken);
    expect((await failureOf(t.client.checkSession({ jti, userId: userId + 1000, enforceLimit: false }))).code).toBe('UNAUTHENTICATED');
    expect((await failureOf(t.client.checkSession({ jti: 'no-such-jti', userId, enforceLimit: false }))).code).toBe('UNAUTHENTICATED');
  });

  it('when the signing key is rotated, then old tokens still verify and new tokens carry the new kid', async () => {
    const before = await loginByEmail(t.client, uniqueEmail('rotate'));
    const oldKid = decodeProtectedHeader(before.accessToken).kid;

    const newKid = await t.service.rotateSigningKey();
    expect(newKid).not.toBe(oldKid);

    const { keys } = await t.client.getJwks({});
    expect(keys.map((key) => key.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
    for (const key of keys) {
      expect(key).toMatchObject({ alg: 'ES256', use: 'sig', kty: 'EC', crv: 'P-256' });
      expect(key.x).toMatch(/^[\w-]{43}$/);
      expect(key.y).toMatch(/^[\w-]{43}$/);
    }

    await expect(verifyAccessToken(t.client, t.config, before.accessToken)).resolves.toBeTruthy();
    const after = await loginByEmail(t.client, uniqueEmail('rotated'));
    expect(decodeProtectedHeader(after.accessToken).kid).toBe(newKid);
    await expect(verifyAccessToken(t.client, t.config, after.accessToken)).resolves.toBeTruthy();
  });
});
