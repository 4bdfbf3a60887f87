// KOReader progress sync (the kosync protocol) on the store host under
// /kosync: KOReader's "progress sync server" set to the store URL + /kosync,
// logged in with the e-mail and a device key (KOReader sends the key's MD5 hex
// in x-auth-key). Accounts are never created here. Reader keeps the records
// and maps documents to issues (ReaderSyncService).
import type { Request } from 'express';
import { z } from 'zod';
import { route, type Reply, type RouteContext } from '../http/route.js';
import { stateOf } from '../http/context.js';
import { verifyDeviceKey } from '../opds/auth.js';

const KOSYNC_TYPE = 'application/vnd.koreader.v1+json';

/** KOReader asks for its vendor type; other clients get plain JSON. */
function kosyncReply(req: Request, status: number, body: unknown): Reply {
  const type = (req.get('accept') ?? '').includes(KOSYNC_TYPE) ? KOSYNC_TYPE : 'application/json';
  return { status, binary: { contentType: type, data: Buffer.from(JSON.stringify(body)) } };
}

/** The kosync server's own refusal body (code 2001). */
const unauthorized = (req: Request) =>
  kosyncReply(req, 401, { code: 2001, message: 'Unauthorized: log in with your e-mail and a device key created in the app.' });

type KosyncUser = { id: number } | Reply;

async function kosyncUser(ctx: Pick<RouteContext<unknown, unknown, unknown>, 'req' | 'res' | 'services' | 'tenant'>): Promise<KosyncUser> {
  const email = ctx.req.get('x-auth-user')?.trim() ?? '';
  const key = ctx.req.get('x-auth-key')?.trim() ?? '';
  if (!email || !key) return unauthorized(ctx.req);
  const auth = await verifyDeviceKey(ctx.services, { email, secret: key, form: 'kosync-md5', tenant: ctx.tenant, clientIp: stateOf(ctx.res).clientIp });
  if (!('user' in auth)) return unauthorized(ctx.req);
  stateOf(ctx.res).context.userId = auth.user.id;
  return { id: auth.user.id };
}

const KosyncBody = z.looseObject({}).meta({ id: 'KosyncBody', description: 'kosync JSON' });
const authHeaders =
  'Headers `x-auth-user` (the e-mail) and `x-auth-key` (the lowercase MD5 hex of a device key, as KOReader sends it); ' +
  '401 `{"code": 2001, "message"}` otherwise. `Accept: application/vnd.koreader.v1+json` is answered with that type.';
const store = { tag: 'KOReader sync', auth: 'none', tenant: 'store' } as const;
const refusals = { 429: 'Too many failed sign-ins from this IP or for this e-mail' };
const document = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'The document must be 1-128 letters, digits, - or _.')
  .meta({ description: "KOReader's document hash (partial MD5 of the file)" });

export const kosyncRoutes = [
  route({
    ...store,
    method: 'post',
    path: '/kosync/users/create',
    summary: 'KOReader registration: refused, accounts are not created here',
    description: '402 with a message KOReader shows: create a device key in the app and log in with the e-mail and that key.',
    responses: { 402: { description: 'Refused: `{"code": 2005, "message"}` (KOReader shows the message)', schema: KosyncBody } },
    handler: async ({ req }) =>
      kosyncReply(req, 402, {
        code: 2005,
        message: 'Accounts are not created here. In the app, create a device key (Profile > Device keys), then log in with your e-mail and that key.',
      }),
  }),
  route({
    ...store,
    method: 'get',
    path: '/kosync/users/auth',
    summary: 'KOReader login check',
    description: authHeaders,
    responses: {
      200: { description: '`{"authorized": "OK"}`', schema: z.object({ authorized: z.literal('OK') }) },
      401: { description: 'Unknown e-mail or key, or no account in this store', schema: KosyncBody },
    },
    errors: refusals,
    handler: async (ctx) => {
      const user = await kosyncUser(ctx);
      if ('status' in user) return user;
      return kosyncReply(ctx.req, 200, { authorized: 'OK' });
    },
  }),
  route({
    ...store,
    method: 'put',
    path: '/kosync/syncs/progress',
    summary: 'KOReader progress push',
    description:
      `${authHeaders} A document that is the KOReader hash of an issue of this store also moves the user's reading position ` +
      '(continue reading), unless a later position is stored; any other document is kept for the user as it is.',
    body: z.object({
      document,
      progress: z
        .union([z.string().max(4096), z.number()])
        .transform(String)
        .meta({ description: 'KOReader position: xpointer or page' }),
      percentage: z.number().min(0).max(1),
      device: z.string().max(256).default(''),
      device_id: z.string().max(256).default(''),
    }),
    responses: {
      200: { description: '`{document, timestamp}` (Unix seconds)', schema: z.object({ document: z.string(), timestamp: z.number().int() }) },
      401: { description: 'Unknown e-mail or key, or no account in this store', schema: KosyncBody },
    },
    errors: refusals,
    handler: async (ctx) => {
      const user = await kosyncUser(ctx);
      if ('status' in user) return user;
      const saved = await ctx.services.readerSync.pushProgress({
        tenantId: ctx.tenant.id,
        userId: user.id,
        document: ctx.body.document,
        progress: ctx.body.progress,
        percentage: ctx.body.percentage,
        device: ctx.body.device,
        deviceId: ctx.body.device_id,
      });
      return kosyncReply(ctx.req, 200, { document: saved.document, timestamp: saved.timestamp });
    },
  }),
  route({
    ...store,
    method: 'get',
    path: '/kosync/syncs/progress/{document}',
    summary: 'KOReader progress pull',
    description: `${authHeaders} The newer of the last KOReader push and the position saved through the API (device "Folio"); \`{}\` when none.`,
    params: z.object({ document }),
    responses: {
      200: { description: '`{document, progress, percentage, device, device_id, timestamp}` or `{}`', schema: KosyncBody },
      401: { description: 'Unknown e-mail or key, or no account in this store', schema: KosyncBody },
    },
    errors: refusals,
    handler: async (ctx) => {
      const user = await kosyncUser(ctx);
      if ('status' in user) return user;
      const pulled = await ctx.services.readerSync.pullProgress({ tenantId: ctx.tenant.id, userId: user.id, document: ctx.params.document });
      const progress = pulled.progress;
      return kosyncReply(
        ctx.req,
        200,
        progress
          ? {
              document: progress.document,
              progress: progress.progress,
              percentage: progress.percentage,
              device: progress.device,
              device_id: progress.deviceId,
              timestamp: progress.timestamp,
            }
          : {},
      );
    },
  }),
];
