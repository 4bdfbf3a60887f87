import { identity } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf, observeEvents, startTestIdentity, type TestIdentity } from './support.js';

const { PUSH_PLATFORM_IOS: IOS, PUSH_PLATFORM_ANDROID: ANDROID } = identity.PushPlatform;

describe('push registrations', () => {
  let t: TestIdentity;
  let events: Awaited<ReturnType<typeof observeEvents>>;
  beforeAll(async () => {
    t = await startTestIdentity();
    events = await observeEvents(t.config.EVENTS_EXCHANGE, ['push.*']);
  });
  afterAll(async () => {
    await events?.close();
    await t?.stop();
  });

  const registrations = (userId: number) =>
    t.db
      .collection('push_registrations')
      .find({ user_id: userId }, { sort: { tenant_id: 1, device_key: 1 } })
      .toArray();

  it('when the same device registers twice, then one registration is kept with the latest token', async () => {
    await t.client.registerPushToken({ userId: 1, tenantId: 1, fcmToken: 'fcm-old', deviceToken: 'device-a', platform: IOS });
    await t.client.registerPushToken({ userId: 1, tenantId: 1, fcmToken: 'fcm-new', deviceToken: 'device-a', platform: IOS });

    const saved = await registrations(1);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ tenant_id: 1, fcm_token: 'fcm-new', device_token: 'device-a', platform: 'ios', updated_at: expect.any(Date) });
    const registered = await events.waitFor<{ fcm_token: string }>('push.registered', (e) => e.payload.fcm_token === 'fcm-new');
    expect(registered).toMatchObject({ tenant_id: 1, payload: { user_id: 1, tenant_id: 1, device_token: 'device-a', platform: 'ios' } });
  });

  it('when a device without a device token registers, then its FCM token identifies it', async () => {
    await t.client.registerPushToken({ userId: 3, tenantId: 3, fcmToken: 'fcm-only', platform: ANDROID });
    await t.client.registerPushToken({ userId: 3, tenantId: 3, fcmToken: 'fcm-only', platform: ANDROID });
    expect(await registrations(3)).toMatchObject([{ device_key: 'fcm-only', device_token: null, platform: 'android' }]);
    expect(Object.keys((await failureOf(t.client.registerPushToken({ userId: 3, tenantId: 3, fcmToken: '', platform: IOS }))).details.fieldErrors)).toEqual([
      'fcm_token',
    ]);
    expect(Object.keys((await failureOf(t.client.registerPushToken({ userId: 3, tenantId: 404, fcmToken: 'x', platform: IOS }))).details.fieldErrors)).toEqual([
      'tenant',
    ]);
  });

  it('when a token has a NUL character (storage refuses it), then registration and unregistration are INVALID_ARGUMENT on it', async () => {
    const registered = await failureOf(t.client.registerPushToken({ userId: 3, tenantId: 3, fcmToken: 'fcm\u0000', deviceToken: 'd\u0000', platform: IOS }));
    expect(registered.details.fieldErrors).toEqual({
      fcm_token: ['The fcm token must not contain NUL characters.'],
      device_token: ['The device token must not contain NUL characters.'],
    });
    const unregistered = await failureOf(t.client.unregisterPushToken({ userId: 3, deviceToken: 'd\u0000', platform: IOS }));
    expect(unregistered.details.fieldErrors).toEqual({ device_token: ['The device token must not contain NUL characters.'] });
  });

  it('when a device is unregistered, then its registrations in every tenant go and the others stay', async () => {
    await t.client.registerPushToken({ userId: 2, tenantId: 1, fcmToken: 'fcm-1', deviceToken: 'phone', platform: IOS });
    await t.client.registerPushToken({ userId: 2, tenantId: 2, fcmToken: 'fcm-2', deviceToken: 'phone', platform: IOS });
    await t.client.registerPushToken({ userId: 2, tenantId: 1, fcmToken: 'fcm-3', deviceToken: 'tablet', platform: ANDROID });

    // A platform that does not match removes nothing.
    await t.client.unregisterPushToken({ userId: 2, deviceToken: 'phone', platform: ANDROID });
    expect(await registrations(2)).toHaveLength(3);

    await t.client.unregisterPushToken({ userId: 2, deviceToken: 'phone', platform: identity.PushPlatform.PUSH_PLATFORM_UNSPECIFIED });
    expect((await registrations(2)).map((r) => r.device_token)).toEqual(['tablet']);
    const unregistered = await events.waitFor<{ user_id: number }>('push.unregistered', (e) => e.payload.user_id === 2);
    expect(unregistered.payload).toEqual({ user_id: 2, device_token: 'phone', platform: null, tenant_ids: [1, 2] });
  });

  it('when no device token is given to unregister, then the request is invalid on device_token', async () => {
    const failure = await failureOf(t.client.unregisterPushToken({ userId: 2, platform: IOS }));
    expect(failure.code).toBe('INVALID_ARGUMENT');
    expect(Object.keys(failure.details.fieldErrors)).toEqual(['device_token']);
  });
});
