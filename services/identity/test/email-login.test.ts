import { decodeProtectedHeader } from 'jose';
import { emailsTo, loginCodeFrom, uniqueEmail, waitForEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimsOf, failureOf, startTestIdentity, type TestIdentity } from './support.js';

describe('e-mail code login', () => {
  let t: TestIdentity;
  beforeAll(async () => {
    t = await startTestIdentity();
  });
  afterAll(() => t?.stop());

  it('when a Spanish user asks for a code and sends it back, then a Spanish e-mail arrives and a verifiable token pair is issued', async () => {
    const email = uniqueEmail('es');
    await t.client.startEmailLogin({ email: `  ${email.toUpperCase()} `, lang: 'es', appTenantId: 2, clientIp: '198.51.100.1' });

    const mail = await waitForEmail(email);
    expect(mail.subject).toBe('Tu código de acceso a Editorial Sur');
    expect(mail.text).toContain('Usa este código para iniciar sesión');
    const runsOfEightDigits = mail.text.match(/\d{8,}/g) ?? [];
    expect(runsOfEightDigits).toHaveLength(1);
    expect(runsOfEightDigits[0]).toHaveLength(8);

    const { tokens } = await t.client.completeEmailLogin({ email, code: loginCodeFrom(mail), clientIp: '198.51.100.1' });
    expect(tokens).toMatchObject({ tokenType: 'bearer', expiresIn: 3600 });
    expect(tokens!.refreshToken).toMatch(/^[A-Za-z0-9_-]{64}$/);

    const header = decodeProtectedHeader(tokens!.accessToken);
    expect(header).toMatchObject({ alg: 'ES256' });
    expect(header.kid).toEqual(expect.any(String));
    const claims = await claimsOf(t.client, t.config, tokens!.accessToken);
    expect(claims.email).toBe(email);
    expect(claims.jti).toEqual(expect.any(String));
    expect(claims.sub).toMatch(/^\d+$/);
    expect(claims.exp! - claims.iat!).toBe(3600);

    // The user now exists with an account in the app's tenant.
    const { user } = await t.client.getUser({ userId: Number(claims.sub) });
    expect(user).toMatchObject({ email, admin: false });
    expect(user!.tenants.map((tenant) => tenant.id)).toEqual([2]);
    // ...and the session of the token is alive.
    await expect(t.client.checkSession({ jti: claims.jti!, userId: Number(claims.sub), enforceLimit: true })).resolves.toMatchObject({
      email,
    });
  });

  it('when no language or an unknown one is asked for, then the e-mail is in English', async () => {
    const email = uniqueEmail('en');
    await t.client.startEmailLogin({ email, lang: 'xx', appTenantId: 0, clientIp: '' });
    const mail = await waitForEmail(email);
    expect(mail.subject).toBe('Your Northwind Reader login code');
  });

  it('when a code is used twice, then the second use is refused', async () => {
    const email = uniqueEmail('twice');
    await t.client.startEmailLogin({ email, lang: 'en', appTenantId: 1, clientIp: '' });
    const code = loginCodeFrom(await waitForEmail(email));
    await t.client.completeEmailLogin({ email, code, clientIp: '' });

    const failure = await failureOf(t.client.completeEmailLogin({ email, code, clientIp: '' }));
    expect(failure.code).toBe('INVALID_ARGUMENT');
    expect(failure.details.fieldErrors).toEqual({ code: ['The code is invalid or has expired.'] });
  });

  it('when the right code is sent several times at once, then exactly one login succeeds', async () => {
    const email = uniqueEmail('once');
    await t.client.startEmailLogin({ email, lang: 'en', appTenantId: 1, clientIp: '' });
    const code = loginCodeFrom(await waitForEmail(email));
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => t.client.completeEmailLogin({ email, code, clientIp: '' })));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
  });

  it('when a new code is requested, then the previous one no longer works', async () => {
    const email = uniqueEmail('replaced');
    await t.client.startEmailLogin({ email, lang: 'en', appTenantId: 1, clientIp: '' });
    const first = loginCodeFrom(await waitForEmail(email));
    await t.client.startEmailLogin({ email, lang: 'en', appTenantId: 1, clientIp: '' });
    const second = loginCodeFrom(await waitForEmail(email, { nth: 2 }));

    if (first !== second) {
      const failure = await failureOf(t.client.completeEmailLogin({ email, code: first, clientIp: '' }));
      expect(failure.code).toBe('INVALID_ARGUMENT');
    }
    await expect(t.client.completeEmailLogin({ email, code: second, clientIp: '' })).resolves.toHaveProperty('tokens');
  });

  it('when a wrong code is sent 5 times, then even the right code is refused and a new code is needed', async () => {
    const email = uniqueEmail('guess');
    await t.client.startEmailLogin({ email, lang: 'en', appTenantId: 1, clientIp: '' });
    const code = loginCodeFrom(await waitForEmail(email));
    const wrong = code === '00000000' ? '11111111' : '00000000';

    for (let i = 1; i <= 5; i++) {
      const failure = await failureOf(t.client.completeEmailLogin({ email, code: wrong, clientIp: '' }));
      expect(failure.code).toBe('INVALID_ARGUMENT');
    }
    const refused = await failureOf(t.client.completeEmailLogin({ email, code, clientIp: '' }));
    expect(refused.code).toBe('INVALID_ARGUMENT');
    expect(refused.message).toMatch(/too many attempts/i);
    expect(refused.details.fieldErrors.code[0]).toMatch(/request a new code/i);
  });

  it('when wrong codes are sent in parallel, then no more than 5 of them are ever checked', async () => {
    const email = uniqueEmail('parallel');
    await t.client.startEmailLogin({ email, lang: 'en', appTenantId: 1, clientIp: '' });
    const code = loginCodeFrom(await waitForEmail(email));
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + i + 1) % 100_000_000).padStart(8, '0'));
    const failures = await Promise.all(guesses.map((guess) => failureOf(t.client.completeEmailLogin({ email, code: guess, clientIp: '' }))));
    expect(failures.every((failure) => failure.code === 'INVALID_ARGUMENT')).toBe(true);
    const checked = failures.filter((failure) => !/too many attempts/i.test(failure.message));
    expect(checked.length).toBeLessThanOrEqual(5);
    await expect(failureOf(t.client.completeEmailLogin({ email, code, clientIp: '' }))).resolves.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('when first logins for one new address race, then exactly one user and one membership are created', async () => {
    const email = uniqueEmail('race');
    await Promise.all(Array.from({ length: 5 }, () => t.client.startEmailLogin({ email, lang: 'en', appTenantId: 6, clientIp: '' })));
    const users = await t.db.collection('users').find({ email }).toArray();
    expect(users).toHaveLength(1);
    expect(await t.db.collection('memberships').countDocuments({ user_id: users[0]!._id })).toBe(1);
    expect(await t.db.collection('login_codes').countDocuments({ email })).toBe(1);
  });

  it("when an existing user logs in through another store's app, then the user joins that store", async () => {
    const before = (await emailsTo('dario@example.com')).length;
    await t.client.startEmailLogin({ email: 'dario@example.com', lang: 'en', appTenantId: 4, clientIp: '' });
    const mail = await waitForEmail('dario@example.com', { nth: before + 1 });
    const { tokens } = await t.client.completeEmailLogin({ email: 'dario@example.com', code: loginCodeFrom(mail), clientIp: '' });
    const claims = await claimsOf(t.client, t.config, tokens!.accessToken);
    const { user } = await t.client.getUser({ userId: Number(claims.sub) });
    expect(user!.tenants.map((tenant) => tenant.id)).toEqual([4, 6]);
  });

  it('when one e-mail asks for a sixth code within 10 minutes, then it is throttled with a retry delay', async () => {
    const email = uniqueEmail('throttle');
    for (let i = 0; i < 5; i++) await t.client.startEmailLogin({ email, lang: 'en', appTenantId: 1, clientIp: `203.0.113.${i}` });
    const failure = await failureOf(t.client.startEmailLogin({ email, lang: 'en', appTenantId: 1, clientIp: '203.0.113.99' }));
    expect(failure.code).toBe('RESOURCE_EXHAUSTED');
    expect(failure.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(failure.details.retryAfterSeconds).toBeLessThanOrEqual(600);
    expect(await emailsTo(email)).toHaveLength(5);
  });

  it('when one IP validates more than 20 codes in a minute, then it is throttled', async () => {
    const ip = '192.0.2.77';
    const results = [];
    for (let i = 0; i < 21; i++) results.push(await failureOf(t.client.completeEmailLogin({ email: uniqueEmail('ip'), code: '12345678', clientIp: ip })));
    expect(results.slice(0, 20).every((failure) => failure.code === 'INVALID_ARGUMENT')).toBe(true);
    expect(results[20]!.code).toBe('RESOURCE_EXHAUSTED');
  });

  it('when the app tenant does not exist or the e-mail is malformed, then the request is invalid and nothing is sent', async () => {
    const email = uniqueEmail('nope');
    const unknownTenant = await failureOf(t.client.startEmailLogin({ email, lang: 'en', appTenantId: 999, clientIp: '' }));
    expect(unknownTenant.code).toBe('INVALID_ARGUMENT');
    expect(Object.keys(unknownTenant.details.fieldErrors)).toEqual(['tenant']);

    const malformed = await failureOf(t.client.startEmailLogin({ email: 'not-an-email', lang: 'en', appTenantId: 1, clientIp: '' }));
    expect(malformed.code).toBe('INVALID_ARGUMENT');
    expect(Object.keys(malformed.details.fieldErrors)).toEqual(['email']);
    expect(await emailsTo(email)).toHaveLength(0);
  });
});
