import { decodeProtectedHeader } from 'jose';
import { uniqueEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimsOf, failureOf, loginByEmail, startTestIdentity, verifyAccessToken, type TestIdentity } from './support.js';

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
  const check = async (accessToken: string, enforceLimit = false) =>
    t.client.checkSession({ ...(await sessionOf(accessToken)), enforceLimit });

  it('when 20 refreshes race with one token, then exactly one succeeds and the old access token stops working', async () => {
    const tokens = await loginByEmail(t.client, uniqueEmail('race'));
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => t.client.refreshToken({ refreshToken: tokens.refreshToken, appTenantId: 0 })),
    );
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

    const { jwksJson } = await t.client.getJwks({});
    const jwks = JSON.parse(jwksJson) as { keys: { kid: string; alg: string; use: string; kty: string; d?: string }[] };
    expect(jwks.keys.map((key) => key.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
    for (const key of jwks.keys) {
      expect(key).toMatchObject({ alg: 'ES256', use: 'sig', kty: 'EC' });
      expect(key.d).toBeUndefined();
    }

    await expect(verifyAccessToken(t.client, t.config, before.accessToken)).resolves.toBeTruthy();
    const after = await loginByEmail(t.client, uniqueEmail('rotated'));
    expect(decodeProtectedHeader(after.accessToken).kid).toBe(newKid);
    await expect(verifyAccessToken(t.client, t.config, after.accessToken)).resolves.toBeTruthy();
  });
});
