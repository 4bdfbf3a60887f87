// Device keys (multi-tenant, like /user): secrets for apps that cannot log in
// with e-mail codes, i.e. OPDS readers (HTTP Basic: e-mail and key) and
// KOReader's progress sync (x-auth-user / x-auth-key). Identity keeps only
// digests; the key is in the 201 answer and nowhere else.
import { z } from 'zod';
import type { identity } from '@folio/proto';
import { route } from '../http/route.js';

export const DeviceKeyObject = z
  .object({
    id: z.string().meta({ description: 'Opaque id (for DELETE)' }),
    label: z.string(),
    created_at: z.string().meta({ description: 'ISO 8601 UTC' }),
    last_used_at: z.string().nullable().meta({ description: 'ISO 8601 UTC of the last successful use (updated at most once a minute); null when never used' }),
  })
  .meta({ id: 'DeviceKey' });

const CreatedDeviceKey = DeviceKeyObject.extend({
  key: z.string().meta({ description: 'The secret: shown only in this response (32 base64url characters, 192 random bits)' }),
}).meta({ id: 'CreatedDeviceKey' });

const deviceKeyToWire = (key: identity.DeviceKey | undefined) => ({
  id: key?.id ?? '',
  label: key?.label ?? '',
  created_at: key?.createdAt ?? '',
  last_used_at: key?.lastUsedAt ?? null,
});

const multi = { tag: 'User', auth: 'jwt', tenant: 'multi' } as const;

export const deviceKeyRoutes = [
  route({
    ...multi,
    method: 'post',
    path: '/api/v2/user/device-keys',
    summary: 'Create a device key for an e-reader or reading app',
    description:
      'The key is in this response only (stored hashed). Use it as the password of HTTP Basic with your e-mail for the OPDS catalogs ' +
      '(`{store}/opds/v2/catalog`, `{store}/opds/v1.2/catalog`) and as the KOReader progress sync password (`{store}/kosync`). ' +
      'At most 50 keys per user.',
    body: z.object({
      label: z.string().trim().min(1, 'The label field is required.').max(100, 'The label may not be greater than 100 characters.').meta({
        description: 'What the key is for, e.g. "Kobo in the kitchen"',
      }),
    }),
    responses: { 201: { description: 'The new key, with its secret', schema: CreatedDeviceKey } },
    errors: { 409: 'The user already has 50 device keys' },
    handler: async ({ body, user, services }) => {
      const created = await services.identity.createDeviceKey({ userId: user.id, label: body.label });
      return { status: 201, body: { ...deviceKeyToWire(created.deviceKey), key: created.key } };
    },
  }),
  route({
    ...multi,
    method: 'get',
    path: '/api/v2/user/device-keys',
    summary: "The user's device keys, newest first (without the secrets)",
    responses: { 200: { description: 'Device keys', schema: z.object({ data: z.array(DeviceKeyObject) }) } },
    handler: async ({ user, services }) => {
      const listed = await services.identity.listDeviceKeys({ userId: user.id });
      return { status: 200, body: { data: listed.deviceKeys.map(deviceKeyToWire) } };
    },
  }),
  route({
    ...multi,
    method: 'delete',
    path: '/api/v2/user/device-keys/{id}',
    summary: 'Delete a device key: apps using it are refused from the next request on',
    params: z.object({ id: z.string().min(1).max(64).meta({ description: 'The `id` of the key' }) }),
    responses: { 204: { description: 'Deleted; empty body' } },
    errors: { 404: "No such key among the user's keys" },
    handler: async ({ params, user, services }) => {
      await services.identity.deleteDeviceKey({ userId: user.id, id: params.id });
      return { status: 204 };
    },
  }),
];
