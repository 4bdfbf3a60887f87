import { exportJWK, generateKeyPair, SignJWT, type KeyLike } from 'jose';
import { identity } from '@folio/proto';
import { uniqueEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimsOf, failureOf, json, startStandIn, startTestIdentity, type TestIdentity } from './support.js';

const { SOCIAL_PROVIDER_GOOGLE: GOOGLE, SOCIAL_PROVIDER_FACEBOOK: FACEBOOK, SOCIAL_PROVIDER_APPLE: APPLE } = identity.SocialProvider;

describe('social login', () => {
  let t: TestIdentity;
  let provider: Awaited<ReturnType<typeof startStandIn>>;
  /** What the stand-in answers per provider token. */
  const answers = new Map<string, { status: number; body?: unknown; hang?: boolean }>();
  let appleKey: KeyLike;
  let strangerKey: KeyLike;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    appleKey = pair.privateKey;
    ({ privateKey: strangerKey } = await generateKeyPair('ES256'));
    const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'apple-test', alg: 'ES256', use: 'sig' }] };

    provider = await startStandIn((req, res) => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      if (url.pathname === '/apple/keys') return json(res, 200, jwks);
      let token: string | null = null;
      if (url.pathname === '/google/userinfo') token = req.headers.authorization?.replace(/^Bearer /, '') ?? null;
      if (url.pathname === '/graph/me' && url.searchParams.get('fields') === 'id,email') token = url.searchParams.get('access_token');
      const answer = token ? answers.get(token) : undefined;
      if (!answer) return json(res, 401, { error: 'invalid_token' });
      if (answer.hang) return; // never answers: the service's timeout must fire
      json(res, answer.status, answer.body ?? {});
    });
    t = await startTestIdentity({
      GOOGLE_USERINFO_URL: `${provider.url}/google/userinfo`,
      FACEBOOK_GRAPH_URL: `${provider.url}/graph`,
      APPLE_JWKS_URL: `${provider.url}/apple/keys`,
      SOCIAL_TIMEOUT_MS: '500',
    });
  });
  afterAll(async () => {
    await t?.stop();
    await provider?.close();
  });

  const appleIdToken = (claims: Record<string, unknown>, options: { key?: KeyLike; audience?: string } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'apple-test' })
      .setIssuer('https://appleid.apple.com')
      .setAudience(options.audience ?? 'com.folio.reader')
      .setSubject('apple-user-1')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(options.key ?? appleKey);

  it('when Google vouches for a verified e-mail, then the user gets a token pair and an account in the app tenant', async () => {
    const email = uniqueEmail('google');
    answers.set('google-ok', { status: 200, body: { sub: 'g-1', email: email.toUpperCase(), email_verified: true } });

    const { tokens } = await t.client.socialLogin({ provider: GOOGLE, accessToken: 'google-ok', appTenantId: 3 });
    expect(tokens).toMatchObject({ tokenType: 'bearer', expiresIn: 3600 });
    expect(tokens!.refreshToken).toHaveLength(64);
    const claims = await claimsOf(t.client, t.config, tokens!.accessToken);
    expect(claims.email).toBe(email);

    const { user } = await t.client.getUser({ userId: Number(claims.sub) });
    expect(user!.tenants.map((tenant) => tenant.id)).toEqual([3]);
  });

  it('when Facebook answers with an e-mail, then an existing user logs in to the same account', async () => {
    answers.set('fb-ok', { status: 200, body: { id: 'fb-1', email: 'ana@example.com' } });
    const { tokens } = await t.client.socialLogin({ provider: FACEBOOK, accessToken: 'fb-ok', appTenantId: 0 });
    const claims = await claimsOf(t.client, t.config, tokens!.accessToken);
    expect(claims).toMatchObject({ sub: '1', email: 'ana@example.com' });
  });

  it('when Apple sends a valid id token, then it is verified against the JWKS and the user logs in', async () => {
    const email = uniqueEmail('apple');
    const idToken = await appleIdToken({ email, email_verified: 'true' });
    const { tokens } = await t.client.socialLogin({ provider: APPLE, accessToken: idToken, appTenantId: 1 });
    expect((await claimsOf(t.client, t.config, tokens!.accessToken)).email).toBe(email);
  });

  it('when the provider refuses the token, then the answer is 401 "Unauthorized."', async () => {
    answers.set('fb-bad', { status: 400, body: { error: { type: 'OAuthException', code: 190 } } });
    for (const [kind, token] of [
      [GOOGLE, 'google-declined'],
      [FACEBOOK, 'fb-bad'],
      [APPLE, await appleIdToken({ email: uniqueEmail('forged') }, { key: strangerKey })],
      [APPLE, await appleIdToken({ email: uniqueEmail('aud') }, { audience: 'com.someone.else' })],
      [APPLE, 'not-a-jwt'],
    ] as const) {
      const failure = await failureOf(t.client.socialLogin({ provider: kind, accessToken: token, appTenantId: 1 }));
      expect(failure).toMatchObject({ code: 'UNAUTHENTICATED', message: 'Unauthorized.' });
    }
  });

  it('when the provider shares no (verified) e-mail, then the request is invalid on email', async () => {
    answers.set('google-unverified', { status: 200, body: { sub: 'g-2', email: uniqueEmail('unverified'), email_verified: false } });
    answers.set('fb-no-email', { status: 200, body: { id: 'fb-2' } });
    for (const [kind, token] of [
      [GOOGLE, 'google-unverified'],
      [FACEBOOK, 'fb-no-email'],
      [APPLE, await appleIdToken({})],
    ] as const) {
      const failure = await failureOf(t.client.socialLogin({ provider: kind, accessToken: token, appTenantId: 1 }));
      expect(failure.code).toBe('INVALID_ARGUMENT');
      expect(Object.keys(failure.details.fieldErrors)).toEqual(['email']);
    }
  });

  it('when the provider fails or does not answer in time, then the service is unavailable', async () => {
    answers.set('google-down', { status: 503 });
    answers.set('google-hangs', { status: 200, hang: true });
    for (const token of ['google-down', 'google-hangs']) {
      const failure = await failureOf(t.client.socialLogin({ provider: GOOGLE, accessToken: token, appTenantId: 1 }));
      expect(failure.code).toBe('UNAVAILABLE');
    }
  });

  it('when the provider is not one of the three, then it is a bad request (400)', async () => {
    const failure = await failureOf(t.client.socialLogin({ provider: identity.SocialProvider.SOCIAL_PROVIDER_UNSPECIFIED, accessToken: 'x', appTenantId: 1 }));
    expect(failure.code).toBe('INVALID_ARGUMENT');
    expect(failure.details.reason).toBe('MALFORMED_REQUEST');
  });
});
