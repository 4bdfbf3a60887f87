// Push messaging registrations.
import { z } from 'zod';
import { identity } from '@folio/proto';
import { route } from '../http/route.js';

const platform = z.enum(['ios', 'android']);
const PLATFORMS = {
  ios: identity.PushPlatform.PUSH_PLATFORM_IOS,
  android: identity.PushPlatform.PUSH_PLATFORM_ANDROID,
} as const;
const platformOf = (value: z.infer<typeof platform> | undefined) => (value ? PLATFORMS[value] : identity.PushPlatform.PUSH_PLATFORM_UNSPECIFIED);

export const pushRoutes = [
  route({
    method: 'post',
    path: '/api/v2/user/push-notifications',
    tag: 'User',
    summary: 'Register a push messaging token for the app tenant',
    description: 'Registered per user and app tenant (X-CustomApp-Tenant-Id); re-send whenever the token refreshes.',
    auth: 'jwt',
    tenant: 'multi',
    uses: ['app-tenant'],
    body: z.object({
      fcm_token: z.string().min(1).max(4096),
      device_token: z.string().min(1).max(4096).optional(),
      platform: platform.optional(),
    }),
    responses: { 201: { description: 'Registered; empty body' } },
    handler: async ({ body, user, appTenantId, services }) => {
      await services.identity.registerPushToken({
        userId: user.id,
        tenantId: appTenantId,
        fcmToken: body.fcm_token,
        deviceToken: body.device_token,
        platform: platformOf(body.platform),
      });
      return { status: 201 };
    },
  }),
  route({
    method: 'delete',
    path: '/api/v2/user/push-notifications',
    tag: 'User',
    summary: "Remove the device's registration across all tenants",
    description: 'The spec does not say which fields are required; both are optional and an unknown device is a no-op.',
    auth: 'jwt',
    tenant: 'multi',
    body: z.object({ device_token: z.string().min(1).max(4096).optional(), platform: platform.optional() }),
    responses: { 204: { description: 'Removed; empty body' } },
    handler: async ({ body, user, services }) => {
      await services.identity.unregisterPushToken({
        userId: user.id,
        deviceToken: body.device_token,
        platform: platformOf(body.platform),
      });
      return { status: 204 };
    },
  }),
];
