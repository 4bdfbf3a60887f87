import { identity } from '@folio/proto';
import { emailsTo, uniqueEmail, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimsOf, failureOf, livenessOf, loginByEmail, observeEvents, startStandIn, startTestIdentity, json, type TestIdentity } from './support.js';

const ADMIN = 4;
const BRUNO = 2;

describe('help subjects, help requests and account deletion', () => {
  let t: TestIdentity;
  let engineering: Awaited<ReturnType<typeof startStandIn>>;
  const webhookCalls: Record<string, unknown>[] = [];
  const supportEmail = uniqueEmail('support');
  const messagingEmail = uniqueEmail('messaging');
  let events: Awaited<ReturnType<typeof observeEvents>>;

  beforeAll(async () => {
    engineering = await startStandIn((req, res, body) => {
      webhookCalls.push({ method: req.method, contentType: req.headers['content-type'], ...(JSON.parse(body) as object) });
      json(res, 204, {});
    });
    t = await startTestIdentity({
      SUPPORT_EMAIL: supportEmail,
      MESSAGING_EMAIL: messagingEmail,
      ENGINEERING_WEBHOOK_URL: `${engineering.url}/hooks/engineering`,
    });
    events = await observeEvents(t.config.EVENTS_EXCHANGE, ['help.requested', 'account.#']);
  });
  afterAll(async () => {
    await events?.close();
    await t?.stop();
    await engineering?.close();
  });

  const keysOf = async (appTenantId: number) => (await t.client.listHelpSubjects({ appTenantId })).subjects;
  const mailTo = (address: string, match: (subject: string) => boolean) =>
    waitFor(async () => (await emailsTo(address)).find((mail) => match(mail.subject)), { what: `mail to ${address}` });
  const submit = (request: Partial<identity.SubmitHelpRequestRequest>) =>
    t.client.submitHelpRequest({ userId: BRUNO, appTenantId: 1, subject: 'other', message: 'Something is not right here.', lang: 'en', ...request });

  it('when the generic app asks, then every subject comes in dataset order, missing-store included, with its stored labels', async () => {
    const subjects = await keysOf(1);
    expect(subjects.map((subject) => subject.key)).toEqual([
      'missing-issues',
      'missing-store',
      'cancel-subscription',
      'offline-not-working',
      'delete-account-and-data',
      'other',
    ]);
    expect(subjects[1]!.labels).toEqual({
      en: "I can't find my store",
      es: 'No encuentro mi tienda',
      pt: 'Não encontro minha loja',
      it: 'Non trovo il mio negozio',
    });
  });

  it('when a branded app asks, then its hidden subjects and generic-app-only ones are left out', async () => {
    const sur = await keysOf(2);
    expect(sur.map((subject) => subject.key)).toEqual(['missing-issues', 'offline-not-working', 'delete-account-and-data', 'other']);
    const atlantica = await keysOf(3);
    expect(atlantica.map((subject) => subject.key)).toEqual([
      'missing-issues',
      'cancel-subscription',
      'offline-not-working',
      'delete-account-and-data',
      'other',
    ]);
  });

  it('when a support subject is submitted, then support gets an e-mail with the message and device details', async () => {
    await submit({
      subject: 'missing-issues',
      message: 'My March issue disappeared from the shelf.',
      device: 'Pixel 8',
      so: 'Android 15',
      appVersion: '3.2.1',
      engineVersion: '2.4.0',
    });

    const mail = await mailTo(supportEmail, (subject) => subject.includes('missing-issues') && subject.includes('bruno@example.com'));
    expect(mail.text).toContain('My March issue disappeared from the shelf.');
    expect(mail.text).toContain('Pixel 8');
    expect(mail.text).toContain('Android 15');
    expect(mail.text).toContain('3.2.1');

    const event = await events.waitFor<Record<string, unknown>>('help.requested', (e) => e.payload.subject === 'missing-issues');
    expect(event).toMatchObject({ version: 1, tenant_id: 1, id: expect.any(String), occurred_at: expect.any(String) });
    expect(event.payload).toEqual({
      user_id: BRUNO,
      email: 'bruno@example.com',
      app_tenant_id: 1,
      subject: 'missing-issues',
      route: 'support',
      message: 'My March issue disappeared from the shelf.',
      lang: 'en',
      engine_version: '2.4.0',
      device: 'Pixel 8',
      so: 'Android 15',
      app_version: '3.2.1',
      app_base_version: null,
    });
  });

  it('when an engineering subject is submitted, then the engineering webhook receives it as JSON', async () => {
    await submit({ subject: 'offline-not-working', message: 'Downloads never finish on my tablet.', device: 'iPad Air', lang: 'es', appTenantId: 2 });
    const call = await waitFor(() => webhookCalls.find((c) => c.subject === 'offline-not-working'), { what: 'webhook call' });
    expect(call).toMatchObject({
      method: 'POST',
      contentType: 'application/json',
      route: 'engineering',
      email: 'bruno@example.com',
      message: 'Downloads never finish on my tablet.',
      device: 'iPad Air',
      lang: 'es',
      app_tenant_id: 2,
    });
  });

  it('when a messaging subject is submitted without a webhook, then the messaging inbox gets it', async () => {
    await submit({ subject: 'other', message: 'Could you add dark mode to the store?' });
    const mail = await mailTo(messagingEmail, (subject) => subject.includes('other'));
    expect(mail.text).toContain('Could you add dark mode to the store?');
  });

  it('when the message has a NUL character (storage refuses it), then the request is INVALID_ARGUMENT on message', async () => {
    const failure = await failureOf(submit({ message: 'Something is not \u0000 right here.' }));
    expect(failure.code).toBe('INVALID_ARGUMENT');
    expect(failure.details.fieldErrors).toEqual({ message: ['The message must not contain NUL characters.'] });
  });

  it('when the subject is not offered by the app or the message is short, then the request is invalid on those fields', async () => {
    const hidden = await failureOf(submit({ subject: 'cancel-subscription', appTenantId: 2 }));
    expect(hidden.code).toBe('INVALID_ARGUMENT');
    expect(Object.keys(hidden.details.fieldErrors)).toEqual(['subject']);
    expect(Object.keys((await failureOf(submit({ subject: 'missing-store', appTenantId: 3 }))).details.fieldErrors)).toEqual(['subject']);
    const both = await failureOf(submit({ subject: 'nope', message: 'too short' }));
    expect(Object.keys(both.details.fieldErrors).sort()).toEqual(['message', 'subject']);
  });

  it('when a normal user asks to delete the account, then everything identity holds about them is erased and account.deleted is published', async () => {
    const email = uniqueEmail('leaving');
    const tokens = await loginByEmail(t.client, email, { appTenantId: 2 });
    const claims = await claimsOf(t.client, t.config, tokens.accessToken);
    const userId = Number(claims.sub);
    await t.client.registerPushToken({
      userId,
      tenantId: 2,
      fcmToken: 'fcm-leaving',
      deviceToken: 'device-leaving',
      platform: identity.PushPlatform.PUSH_PLATFORM_IOS,
    });
    await t.client.ensureMembership({ userId, tenantId: 3 });

    await submit({ userId, appTenantId: 2, subject: 'delete-account-and-data', message: 'Please delete all my data.', lang: 'es' });

    const deleted = await events.waitFor<{ user_id: number; email: string }>('account.deleted', (e) => e.payload.user_id === userId);
    expect(deleted.payload).toEqual({ user_id: userId, email });
    expect(events.received.find((e) => e.type === 'account.deletion_requested' && (e.payload as { user_id: number }).user_id === userId)).toBeTruthy();

    expect(await failureOf(t.client.getUser({ userId }))).toMatchObject({ code: 'UNAUTHENTICATED', message: 'The given data was invalid.' });
    expect((await failureOf(t.client.checkSession({ jti: claims.jti!, userId, enforceLimit: false }))).code).toBe('UNAUTHENTICATED');
    // The gateway, which reads the session from Redis, refuses it too.
    expect((await livenessOf(t.config, claims.jti!)).value).toBe('-');
    expect((await failureOf(t.client.refreshToken({ refreshToken: tokens.refreshToken, appTenantId: 0 }))).code).toBe('UNAUTHENTICATED');
    for (const collection of ['push_registrations', 'memberships', 'sessions', 'refresh_tokens']) {
      expect(await t.db.collection(collection).countDocuments({ user_id: userId })).toBe(0);
    }
    expect(await t.db.collection('login_codes').countDocuments({ email })).toBe(0);
    // The request itself still reached support.
    await mailTo(supportEmail, (subject) => subject.includes('delete-account-and-data') && subject.includes(email));
  });

  it('when an admin asks to delete the account, then the request is routed as usual and nothing is erased', async () => {
    await submit({ userId: ADMIN, subject: 'delete-account-and-data', message: 'Testing the deletion flow as admin.' });
    await mailTo(supportEmail, (subject) => subject.includes('delete-account-and-data') && subject.includes('admin@example.com'));

    expect((await t.client.getUser({ userId: ADMIN })).user).toMatchObject({ email: 'admin@example.com', admin: true });
    expect(events.received.some((e) => e.type.startsWith('account.') && (e.payload as { user_id: number }).user_id === ADMIN)).toBe(false);
  });
});
