// Device keys against the real identity service: created once with the
// secret, listed without it, verified by the plain key (HTTP Basic) and by
// its MD5 hex (KOReader), refused after deletion, erasure, outside the
// user's stores, and rate limited on failures per IP, per (e-mail, IP) and
// per e-mail, the last never refusing the owner's right key.
import { createHash } from 'node:crypto';
import { identity } from '@folio/proto';
import { uniqueEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimsOf, failureOf, loginByEmail, observeEvents, startTestIdentity, type TestIdentity } from './support.js';

const { SECRET_FORM_PLAIN: PLAIN, SECRET_FORM_KOSYNC_MD5: MD5 } = identity.SecretForm;
const ANA = { id: 1, email: 'ana@example.com' }; // tenants 1 and 2
const BRUNO = { id: 2, email: 'bruno@example.com' }; // tenant 1

const md5 = (value: string) => createHash('md5').update(value).digest('hex');
// Random per run: failure counters outlive a run in the shared Redis (up to 10 minutes).
const ipBase = `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
let ipCounter = 1;
const freshIp = () => `${ipBase}.${ipCounter++}`;

describe('device keys', () => {
  let t: TestIdentity;
  beforeAll(async () => {
    t = await startTestIdentity();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const verify = (request: Partial<identity.VerifyDeviceKeyRequest>) =>
    t.client.verifyDeviceKey({ email: ANA.email, tenantId: 1, secret: '', secretForm: PLAIN, clientIp: freshIp(), ...request });

  it('when a key is created, then the secret comes back once, 192 random bits, and only its digests are stored', async () => {
    const created = await t.client.createDeviceKey({ userId: ANA.id, label: '  Kobo Clara  ' });
    expect(created.key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(created.deviceKey).toMatchObject({ label: 'Kobo Clara', id: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/) });
    expect(created.deviceKey!.lastUsedAt).toBeUndefined();

    const stored = await t.db.collection('device_keys').findOne({ key_id: created.deviceKey!.id });
    expect(stored).toMatchObject({
      _id: createHash('sha256').update(created.key).digest('hex'),
      md5_digest: createHash('sha256').update(md5(created.key)).digest('hex'),
      user_id: ANA.id,
    });
    expect(JSON.stringify(stored)).not.toContain(created.key);

    const listed = await t.client.listDeviceKeys({ userId: ANA.id });
    expect(listed.deviceKeys.map((key) => key.id)).toContain(created.deviceKey!.id);
    expect(JSON.stringify(listed)).not.toContain(created.key);
  });

  it('when the label is empty or too long, then the request is invalid on label', async () => {
    for (const label of ['', '   ', 'x'.repeat(101), 'tab\there']) {
      const failure = await failureOf(t.client.createDeviceKey({ userId: ANA.id, label }));
      expect(failure.code).toBe('INVALID_ARGUMENT');
      expect(Object.keys(failure.details.fieldErrors)).toEqual(['label']);
    }
  });

  it('when the key or its MD5 hex is given with the right e-mail in a store of the user, then the user is verified and last use recorded', async () => {
    const { key, deviceKey } = await t.client.createDeviceKey({ userId: ANA.id, label: 'KOReader' });
    expect(await verify({ secret: key })).toEqual({ userId: ANA.id, email: ANA.email, admin: false, deviceKeyId: deviceKey!.id });
    expect(await verify({ secret: md5(key), secretForm: MD5, tenantId: 2, email: ' Ana@Example.com ' })).toMatchObject({ userId: ANA.id });
    expect(await verify({ secret: md5(key).toUpperCase(), secretForm: MD5 })).toMatchObject({ userId: ANA.id });

    const listed = (await t.client.listDeviceKeys({ userId: ANA.id })).deviceKeys.find((k) => k.id === deviceKey!.id);
    expect(Date.parse(listed!.lastUsedAt!)).toBeGreaterThan(Date.parse(listed!.createdAt) - 1);
  });

  it("when the e-mail is another user's, the store not one of the user's, or the form wrong, then the key is refused", async () => {
    const { key } = await t.client.createDeviceKey({ userId: ANA.id, label: 'refusals' });
    for (const request of [
      { secret: key, email: BRUNO.email },
      { secret: key, tenantId: 3 },
      { secret: key, tenantId: 999 },
      { secret: md5(key) },
      { secret: key, secretForm: MD5 },
      { secret: `${key}x` },
    ]) {
      expect(await failureOf(verify(request))).toMatchObject({ code: 'UNAUTHENTICATED', message: 'The e-mail or device key is not valid for this store.' });
    }
  });

  it('when a key is deleted, then it is refused; another user cannot delete it (not found)', async () => {
    const { key, deviceKey } = await t.client.createDeviceKey({ userId: ANA.id, label: 'to delete' });
    expect((await failureOf(t.client.deleteDeviceKey({ userId: BRUNO.id, id: deviceKey!.id }))).code).toBe('NOT_FOUND');
    expect(await verify({ secret: key })).toMatchObject({ userId: ANA.id });

    await t.client.deleteDeviceKey({ userId: ANA.id, id: deviceKey!.id });
    expect((await failureOf(verify({ secret: key }))).code).toBe('UNAUTHENTICATED');
    expect((await failureOf(t.client.deleteDeviceKey({ userId: ANA.id, id: deviceKey!.id }))).code).toBe('NOT_FOUND');
    expect((await t.client.listDeviceKeys({ userId: ANA.id })).deviceKeys.map((k) => k.id)).not.toContain(deviceKey!.id);
  });

  it('when one IP keeps failing, then after 20 failures even the right key is refused with a Retry-After; other IPs are not', async () => {
    const { key } = await t.client.createDeviceKey({ userId: BRUNO.id, label: 'limits' });
    const ip = freshIp();
    for (let i = 0; i < 20; i++) {
      expect((await failureOf(verify({ email: `guess-${i}@example.com`, secret: 'wrong', clientIp: ip }))).code).toBe('UNAUTHENTICATED');
    }
    const limited = await failureOf(verify({ email: BRUNO.email, secret: key, clientIp: ip }));
    expect(limited.code).toBe('RESOURCE_EXHAUSTED');
    expect(limited.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(await verify({ email: BRUNO.email, secret: key })).toMatchObject({ userId: BRUNO.id });
  });

  /** A user of its own: e-mail failure counters outlive a run. */
  const freshUser = async (name: string) => {
    const email = uniqueEmail(name);
    const tokens = await loginByEmail(t.client, email);
    const userId = Number((await claimsOf(t.client, t.config, tokens.accessToken)).sub);
    const { key } = await t.client.createDeviceKey({ userId, label: name });
    return { email, userId, key };
  };

  it("when one e-mail keeps failing from many IPs, then wrong keys are refused with RESOURCE_EXHAUSTED, but the owner's right key still verifies", async () => {
    const { email, userId, key } = await freshUser('limited');
    const home = freshIp();
    for (let i = 0; i < 30; i++) expect(await verify({ email, secret: key, clientIp: home })).toMatchObject({ userId });
    for (let i = 0; i < 20; i++) expect((await failureOf(verify({ email, secret: `wrong-${i}` }))).code).toBe('UNAUTHENTICATED');
    const over = await failureOf(verify({ email, secret: 'wrong-again' }));
    expect(over.code).toBe('RESOURCE_EXHAUSTED');
    expect(over.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(await verify({ email, secret: key, clientIp: home })).toMatchObject({ userId });
    expect(await verify({ email, secret: md5(key), secretForm: MD5 })).toMatchObject({ userId });
  });

  it('when one IP keeps failing for one e-mail, then after 10 failures that pair is refused, even the right key, and other addresses are not', async () => {
    const [{ email, userId, key }, other] = await Promise.all([freshUser('pair'), freshUser('pair-other')]);
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await failureOf(verify({ email, secret: `wrong-${i}`, clientIp: ip }))).code).toBe('UNAUTHENTICATED');
    expect((await failureOf(verify({ email, secret: key, clientIp: ip }))).code).toBe('RESOURCE_EXHAUSTED');
    expect(await verify({ email, secret: key })).toMatchObject({ userId });
    expect(await verify({ email: other.email, secret: other.key, clientIp: ip })).toMatchObject({ userId: other.userId });
  });

  it('when no client IP is given, then the e-mail limit refuses before the key is looked at', async () => {
    const { email, userId, key } = await freshUser('no-ip');
    for (let i = 0; i < 20; i++) expect((await failureOf(verify({ email, secret: `wrong-${i}`, clientIp: '' }))).code).toBe('UNAUTHENTICATED');
    expect((await failureOf(verify({ email, secret: key, clientIp: '' }))).code).toBe('RESOURCE_EXHAUSTED');
    expect(await verify({ email, secret: key })).toMatchObject({ userId });
  });

  it('when a key is deleted by an id with a NUL character, then it is INVALID_ARGUMENT on id (storage refuses NUL)', async () => {
    const failure = await failureOf(t.client.deleteDeviceKey({ userId: ANA.id, id: 'a\u0000b' }));
    expect({ code: failure.code, fieldErrors: failure.details.fieldErrors }).toEqual({
      code: 'INVALID_ARGUMENT',
      fieldErrors: { id: ['The id must not contain NUL characters.'] },
    });
  });

  it('when the account is erased, then its keys are deleted and refused', async () => {
    const events = await observeEvents(t.config.EVENTS_EXCHANGE, ['account.deleted']);
    try {
      const email = uniqueEmail('erased');
      const tokens = await loginByEmail(t.client, email);
      const userId = Number((await claimsOf(t.client, t.config, tokens.accessToken)).sub);
      const { key } = await t.client.createDeviceKey({ userId, label: 'erased' });
      expect(await verify({ email, secret: key })).toMatchObject({ userId });

      await t.client.submitHelpRequest({ userId, appTenantId: 1, subject: 'delete-account-and-data', message: 'Please delete all my data.', lang: 'en' });
      await events.waitFor('account.deleted', (e) => (e.payload as { user_id: number }).user_id === userId);

      expect(await t.db.collection('device_keys').countDocuments({ user_id: userId })).toBe(0);
      expect((await failureOf(verify({ email, secret: key }))).code).toBe('UNAUTHENTICATED');
    } finally {
      await events.close();
    }
  });
});
