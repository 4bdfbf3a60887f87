// KOReader progress sync (the kosync protocol) on the store host under
// /kosync: KOReader's "progress sync server" set to the store URL + /kosync,
// logged in with the e-mail and a device key (KOReader sends the key's MD5 hex
// in x-auth-key). Accounts are never created here. Reader keeps the records
// and maps documents to issues (ReaderSyncService).
//
// The protocol as koreader-sync-server speaks it: the version comes from the
// Accept header (`application/vnd.koreader.v2+json` is v2, anything else is
// v1); credentials are checked before the request is, and a bad request is
// refused with its 403 codes (2004 no usable document, 2007 a document the
// read route could not serve, 2003 anything else). v2 adds a document's other
// identifiers (`identifiers` in the body, `?ids=type:digest,...` on a read)
// and answers `match` / `progress_match`. The document a client sent is
// echoed exactly.
import type { Request } from 'express';
import { z } from 'zod';
import { route, type Reply, type RouteContext } from '../http/route.js';
import { stateOf } from '../http/context.js';
import { verifyDeviceKey } from '../opds/auth.js';

const KOSYNC_V1 = 'application/vnd.koreader.v1+json';
const KOSYNC_V2 = 'application/vnd.koreader.v2+json';

type Version = 1 | 2;
const versionOf = (req: Request): Version => ((req.get('accept') ?? '').toLowerCase().includes(KOSYNC_V2) ? 2 : 1);

/** KOReader asks for its vendor type (v1 or v2); other clients get plain JSON. */
function kosyncReply(req: Request, status: number, body: unknown): Reply {
  const accept = (req.get('accept') ?? '').toLowerCase();
  const type = accept.includes(KOSYNC_V2) ? KOSYNC_V2 : accept.includes(KOSYNC_V1) ? KOSYNC_V1 : 'application/json';
  return { status, binary: { contentType: type, data: Buffer.from(JSON.stringify(body)) } };
}

/** The kosync server's own refusal body (code 2001). */
const unauthorized = (req: Request) =>
  kosyncReply(req, 401, { code: 2001, message: 'Unauthorized: log in with your e-mail and a device key created in the app.' });

/** koreader-sync-server's refusals of a request (config/errors.lua), all 403; the messages say what to fix, KOReader shows them. */
const refused = {
  document: (req: Request) => kosyncReply(req, 403, { code: 2004, message: "Field 'document' not provided." }),
  unservable: (req: Request) =>
    kosyncReply(req, 403, { code: 2007, message: "Field 'document' must be 1-128 letters, digits or _: a document that cannot be read back is not stored." }),
  invalid: (req: Request, why: string) => kosyncReply(req, 403, { code: 2003, message: `Invalid request: ${why}` }),
};
type Refusal = { refusal: Reply };

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

/** What a stored document may be: what the read route serves (koreader-sync-server routes `:document` as [A-Za-z0-9_]+). */
const STORABLE_DOCUMENT = /^[A-Za-z0-9_]{1,128}$/;
/** What a read may name: also `-`, which records written before the rule above may carry. */
const READABLE_DOCUMENT = /^[A-Za-z0-9_-]{1,128}$/;
/** koreader-sync-server's identifier rules (lib/identifiers.lua). */
const IDENTIFIER = { maxCount: 8, type: /^[a-z][a-z0-9-]{0,31}$/, value: /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/ } as const;
/** Lua's tonumber of a decimal string, which is what the reference server applies to `percentage`. */
const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

type Identifier = { type: string; value: string };

/** The identifier list of a v2 request, in the client's order; its first entry must be the document. */
function identifierList(entries: unknown[], document: string, req: Request): Identifier[] | Refusal {
  if (entries.length === 0) return { refusal: refused.invalid(req, 'the identifiers may not be empty.') };
  if (entries.length > IDENTIFIER.maxCount) return { refusal: refused.invalid(req, `at most ${IDENTIFIER.maxCount} identifiers.`) };
  const list: Identifier[] = [];
  for (const entry of entries) {
    const { type, value } = (entry ?? {}) as { type?: unknown; value?: unknown };
    if (typeof type !== 'string' || typeof value !== 'string' || !IDENTIFIER.type.test(type) || !IDENTIFIER.value.test(value))
      return { refusal: refused.invalid(req, 'an identifier is a type (a-z, 0-9, -; at most 32) and a value (letters, digits, _ . -; at most 128).') };
    if (list.some((known) => known.type === type)) return { refusal: refused.invalid(req, `the identifier type ${type} appears twice.`) };
    list.push({ type, value });
  }
  if (list[0]!.value !== document) return { refusal: refused.invalid(req, 'the first identifier must be the document.') };
  return list;
}

/** `?ids=type:digest,type:digest` (a GET has no body, and one parameter keeps the order). */
function idsParameter(ids: string, document: string, req: Request): Identifier[] | Refusal {
  if (ids === '') return { refusal: refused.invalid(req, 'ids is empty.') };
  const entries: unknown[] = [];
  for (const pair of ids.split(',')) {
    const parts = pair.split(':');
    if (parts.length !== 2) return { refusal: refused.invalid(req, 'ids is a list of type:digest, separated by commas.') };
    entries.push({ type: parts[0], value: parts[1] });
  }
  return identifierList(entries, document, req);
}

interface PushFields {
  document: string;
  identifiers: Identifier[] | undefined;
  progress: string;
  percentage: number;
  device: string;
  deviceId: string;
}

/** A push as koreader-sync-server checks it, in its order: the document, then (v2) the identifiers, then the progress fields. */
function pushFields(body: Record<string, unknown>, version: Version, req: Request): PushFields | Refusal {
  const { document, progress, percentage, device, device_id: deviceId } = body;
  if (typeof document !== 'string' || document === '' || document.includes(':')) return { refusal: refused.document(req) };
  if (!STORABLE_DOCUMENT.test(document)) return { refusal: refused.unservable(req) };
  let identifiers: Identifier[] | undefined;
  if (version === 2 && body.identifiers !== undefined) {
    if (!Array.isArray(body.identifiers)) return { refusal: refused.invalid(req, 'identifiers is a list of {type, value}.') };
    const list = identifierList(body.identifiers, document, req);
    if ('refusal' in list) return list;
    identifiers = list;
  }
  const share = typeof percentage === 'number' ? percentage : typeof percentage === 'string' && NUMERIC.test(percentage) ? Number(percentage) : NaN;
  if (!Number.isFinite(share) || share < 0 || share > 1)
    return { refusal: refused.invalid(req, 'percentage must be a number (or a numeric string) between 0 and 1.') };
  const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined);
  const position = text(progress);
  if (position === undefined || position.length > 4096)
    return { refusal: refused.invalid(req, 'progress must be the position as a string (an xpointer or a page), at most 4096 characters.') };
  const deviceName = text(device);
  if (deviceName === undefined || deviceName.length > 256) return { refusal: refused.invalid(req, 'device must be the device name, at most 256 characters.') };
  const deviceKey = deviceId === undefined || deviceId === null ? '' : text(deviceId);
  if (deviceKey === undefined || deviceKey.length > 256) return { refusal: refused.invalid(req, 'device_id must be a string of at most 256 characters.') };
  return { document, identifiers, progress: position, percentage: share, device: deviceName, deviceId: deviceKey };
}

const KosyncError = z.object({ code: z.number().int(), message: z.string() }).meta({
  id: 'KosyncError',
  description:
    "koreader-sync-server's error body: 2001 unauthorized, 2003 invalid request, 2004 no document, 2005 registration refused, 2007 a document that cannot be read back",
});
const KosyncPushed = z
  .object({
    document: z.string().meta({ description: 'v1: the document as sent; v2: the digest the record is stored under (a client can adopt it)' }),
    timestamp: z.number().int().meta({ description: 'Unix seconds' }),
    match: z.string().optional().meta({ description: 'v2: the type of the identifier that resolved the record, or `exact`' }),
  })
  .meta({ id: 'KosyncPushed' });
const KosyncPulled = z
  .object({
    document: z.string().optional(),
    progress: z.string().optional(),
    percentage: z.number().optional(),
    device: z.string().optional(),
    device_id: z.string().optional().meta({ description: 'Absent when the pushing client sent none' }),
    timestamp: z.number().int().optional(),
    match: z.string().optional().meta({ description: 'v2: the type of the identifier that found the record (`exact`: the document itself)' }),
    progress_match: z.string().optional().meta({
      description: 'v2: the strongest identifier shared with the client that wrote `progress` (whether its xpointer can be followed), or `none`',
    }),
  })
  .meta({ id: 'KosyncProgress', description: 'The stored progress, or `{}` when none' });
const KosyncBody = z.looseObject({}).meta({ id: 'KosyncBody', description: 'kosync JSON' });
/** One schema per media type the answer can carry (the one the Accept header asked for). */
const kosyncContent = (schema: z.ZodType) => ({ 'application/json': schema, [KOSYNC_V1]: schema, [KOSYNC_V2]: schema });

const authHeaders =
  'Headers `x-auth-user` (the e-mail) and `x-auth-key` (the lowercase MD5 hex of a device key, as KOReader sends it); ' +
  '401 `{"code": 2001, "message"}` otherwise, checked before the request itself. ' +
  `\`Accept: ${KOSYNC_V2}\` speaks protocol v2 and is answered with that type; \`${KOSYNC_V1}\` (or anything else) v1.`;
const store = { tag: 'KOReader sync', auth: 'none', tenant: 'store' } as const;
const refusals = { 429: 'Too many failed sign-ins from this IP or for this e-mail' };
const unauthorizedDoc = { description: 'Unknown e-mail or key, or no account in this store: `{"code": 2001, "message"}`', content: kosyncContent(KosyncError) };
const invalidDoc = (codes: string) => ({ description: `The request is refused: ${codes}`, content: kosyncContent(KosyncError) });
const anything = (description: string) => z.unknown().optional().meta({ description });

export const kosyncRoutes = [
  route({
    ...store,
    method: 'get',
    path: '/kosync/healthcheck',
    summary: 'KOReader sync server health check',
    description: 'As koreader-sync-server answers it: `{"state": "OK"}`.',
    responses: { 200: { description: '`{"state": "OK"}`', content: kosyncContent(z.object({ state: z.literal('OK') })) } },
    handler: async ({ req }) => kosyncReply(req, 200, { state: 'OK' }),
  }),
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
      '(continue reading), unless a later position is stored; any other document is kept for the user as it is. ' +
      'v2: `identifiers` (`[{type, value}]`, strongest first, the first being the document, at most 8) find a record the ' +
      'document is also known by; the others become aliases of the record. Answered `{document, match, timestamp}`.',
    body: z
      .looseObject({
        document: anything("KOReader's document hash (partial MD5 of the file): 1-128 letters, digits or _ (403 code 2004 or 2007 otherwise)"),
        progress: anything('KOReader position: xpointer or page (a string or a number)'),
        percentage: anything('0..1, a number or a numeric string'),
        device: anything('The device name (required)'),
        device_id: anything('Optional device id'),
        identifiers: anything('v2 only: `[{type, value}]` in the order of preference; ignored in v1'),
      })
      .meta({ id: 'KosyncPush' }),
    responses: {
      200: { description: '`{document, timestamp}` (Unix seconds); v2 adds `match`', content: kosyncContent(KosyncPushed) },
      401: unauthorizedDoc,
      403: invalidDoc('2004 no document, 2007 a document that cannot be read back, 2003 anything else'),
    },
    errors: refusals,
    handler: async (ctx) => {
      const user = await kosyncUser(ctx);
      if ('status' in user) return user;
      const version = versionOf(ctx.req);
      const fields = pushFields(ctx.body as Record<string, unknown>, version, ctx.req);
      if ('refusal' in fields) return fields.refusal;
      const saved = await ctx.services.readerSync.pushProgress({
        tenantId: ctx.tenant.id,
        userId: user.id,
        document: fields.document,
        progress: fields.progress,
        percentage: fields.percentage,
        device: fields.device,
        deviceId: fields.deviceId,
        identifiers: fields.identifiers ?? [],
        matchIdentifiers: version === 2,
      });
      const answer =
        version === 2 ? { document: saved.document, match: saved.match, timestamp: saved.timestamp } : { document: saved.document, timestamp: saved.timestamp };
      return kosyncReply(ctx.req, 200, answer);
    },
  }),
  route({
    ...store,
    method: 'get',
    path: '/kosync/syncs/progress/{document}',
    summary: 'KOReader progress pull',
    description:
      `${authHeaders} The newer of the last KOReader push and the position saved through the API (device "Folio"); \`{}\` when none. ` +
      'v2 also finds the record through `ids` and the aliases, and adds `match` and `progress_match`.',
    params: z.object({ document: z.string().meta({ description: "KOReader's document hash (403 code 2004 when it is no letters, digits, _ or -)" }) }),
    query: z.object({
      ids: z
        .string()
        .optional()
        .meta({ description: 'v2 only: the identifiers as `type:digest,type:digest`, strongest first, the first being the document; ignored in v1' }),
    }),
    responses: {
      200: {
        description: '`{document, progress, percentage, device, device_id, timestamp}` (v2: `match`, `progress_match`) or `{}`',
        content: kosyncContent(KosyncPulled),
      },
      401: unauthorizedDoc,
      403: invalidDoc('2004 no usable document, 2003 a malformed `ids` (v2)'),
    },
    errors: refusals,
    handler: async (ctx) => {
      const user = await kosyncUser(ctx);
      if ('status' in user) return user;
      const version = versionOf(ctx.req);
      const document = ctx.params.document;
      if (!READABLE_DOCUMENT.test(document)) return refused.document(ctx.req);
      let identifiers: Identifier[] = [];
      if (version === 2 && ctx.query.ids !== undefined) {
        const list = idsParameter(ctx.query.ids, document, ctx.req);
        if ('refusal' in list) return list.refusal;
        identifiers = list;
      }
      const pulled = await ctx.services.readerSync.pullProgress({
        tenantId: ctx.tenant.id,
        userId: user.id,
        document,
        identifiers,
        matchIdentifiers: version === 2,
      });
      const progress = pulled.progress;
      if (!progress) return kosyncReply(ctx.req, 200, {});
      return kosyncReply(ctx.req, 200, {
        document: progress.document,
        progress: progress.progress,
        percentage: progress.percentage,
        device: progress.device,
        // As the reference server: absent when the pushing client sent none.
        ...(progress.deviceId && { device_id: progress.deviceId }),
        timestamp: progress.timestamp,
        ...(version === 2 && { match: progress.match, progress_match: progress.progressMatch }),
      });
    },
  }),
];
