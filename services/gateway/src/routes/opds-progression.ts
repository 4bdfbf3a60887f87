// OPDS Progression 1.0 (opds-community/drafts, opds-progression-1.0.md) on
// the store host, beside the OPDS catalogs and signed in the same way: the
// reading position of an issue as OPDS 2 apps sync it across devices, found
// through the `http://opds-spec.org/progression` link of the shelf's
// publications. It is the user's one reading position (the API's
// last-location, KOReader's progress): reader maps it both ways and applies
// the API's rule, the newest position wins. A PUT older than the stored
// position is a stale write: 409 with the stored progression, which the app
// offers to jump to, as the draft has the server decide and answer a progression.
import { z } from 'zod';
import { DomainError } from '@folio/errors';
import type { reader } from '@folio/proto';
import { stateOf } from '../http/context.js';
import { route, type Reply, type RouteContext } from '../http/route.js';
import { authenticateReader } from '../opds/auth.js';
import { MEDIA_TYPE } from '../opds/model.js';
import { refusal } from './opds.js';
import { issueIdParams } from './schemas.js';

const uri = z
  .string()
  .min(1)
  .max(512)
  .refine((value) => URL.canParse(value), 'must be a URI (e.g. urn:uuid:...)');

/** The draft's Progression Document; its published schema (vendored in tests/e2e/fixtures/schemas) is what the e2e tests check answers with. */
export const ProgressionDocument = z
  .object({
    title: z.string().max(1024).optional().meta({ description: 'What the device calls the place (a chapter or track title)' }),
    modified: z.iso.datetime({ offset: true }).meta({ description: 'When the position was read (ISO 8601); never later than when it was saved' }),
    device: z.object({
      id: uri.meta({ description: 'The device: a URI, not shown to the user' }),
      name: z.string().min(1).max(256).meta({ description: 'The device name, shown to the user' }),
    }),
    progression: z.number().min(0).max(1).meta({ description: 'Share of the publication read' }),
    references: z
      .array(z.string().min(1).max(2048))
      .max(32)
      .optional()
      .meta({ description: 'URI references inside the publication: `chapter.xhtml#id`, `#page=12` (PDF), `#t=67.5` (seconds from the start of an audiobook)' }),
  })
  .meta({ id: 'OpdsProgression', description: 'OPDS Progression 1.0 document (https://github.com/opds-community/drafts, opds-progression-1.0.md)' });

/** A PUT body: the document, and `refs`, the draft schema's name for `references` (used only when `references` is absent). */
const ProgressionBody = ProgressionDocument.extend({
  refs: z.array(z.string().min(1).max(2048)).max(32).optional().meta({ description: "The draft schema's name for `references`" }),
});

const OpdsAuthentication = z.looseObject({}).meta({ id: 'OpdsAuthenticationDocument' });

type Document = z.output<typeof ProgressionDocument>;

function toWire(progression: reader.Progression): Document {
  return {
    ...(progression.title !== undefined && { title: progression.title }),
    modified: progression.modified,
    device: { id: progression.deviceId, name: progression.deviceName },
    progression: progression.progression,
    references: progression.references,
  };
}

function documentReply(status: number, progression: reader.Progression): Reply {
  return {
    status,
    binary: { contentType: MEDIA_TYPE.opdsProgression, data: Buffer.from(JSON.stringify(toWire(progression))) },
    headers: { 'Cache-Control': 'no-store' },
  };
}

/** The signed-in member, or the OPDS 2.0 refusal (401 with the Authentication for OPDS document, 403 for a non-member). */
async function signedIn(ctx: RouteContext<unknown, unknown, unknown>): Promise<{ userId: number } | Reply> {
  const auth = await authenticateReader(ctx.req, ctx.res, ctx.services, ctx.tenant);
  if ('refused' in auth) return refusal('v2', ctx, auth.refused);
  stateOf(ctx.res).context.userId = auth.user.id;
  return { userId: auth.user.id };
}

const common = {
  path: '/opds/v2/publications/{issue_id}/progression',
  tag: 'OPDS',
  auth: 'device-key',
  tenant: 'store',
  params: issueIdParams,
} as const;
const signIn = 'HTTP Basic with the e-mail and a device key, or a Bearer access token; the user must have an account in the store.';
const notSignedIn = {
  description: 'Not signed in: how to sign in (and a Basic challenge)',
  contentType: MEDIA_TYPE.opdsAuthentication,
  schema: OpdsAuthentication,
};
const errors = {
  403: 'No access to the issue, or a Bearer token of a user without an account in this store',
  404: 'Unknown issue',
  429: 'Too many failed sign-ins from this IP or for this e-mail',
};

export const opdsProgressionRoutes = [
  route({
    ...common,
    method: 'get',
    summary: 'OPDS Progression 1.0: the reading position of an issue',
    description:
      `The user's reading position, whoever saved it: an OPDS app (as it sent it, with its device), the API or KOReader ` +
      `(mapped, device "Folio", id \`urn:folio:api\`). 204 when none is stored. ${signIn}`,
    responses: {
      200: { description: 'The progression', contentType: MEDIA_TYPE.opdsProgression, schema: ProgressionDocument },
      204: { description: 'No reading position stored for this issue' },
      401: notSignedIn,
    },
    errors: { ...errors, 422: 'The issue has nothing to read (physical)' },
    handler: async (ctx) => {
      const user = await signedIn(ctx as never);
      if ('status' in user) return user;
      const found = await ctx.services.reader.getProgression({ tenantId: ctx.tenant.id, userId: user.userId, issueId: ctx.params.issue_id });
      if (!found.progression) return { status: 204, headers: { 'Cache-Control': 'no-store' } };
      return documentReply(200, found.progression);
    },
  }),
  route({
    ...common,
    method: 'put',
    summary: 'OPDS Progression 1.0: save the reading position of an issue',
    description:
      'The progression becomes the reading position (continue reading, the API, KOReader), mapped to the chapter its references ' +
      'name or at its share, the page of `#page=`, the track and seek of `#t=`; device and document are kept and answered as sent. ' +
      '`Content-Type` `application/opds-progression+json` or `application/json`. A `modified` in the future counts as now. ' +
      `A position read after \`modified\` is stored: 409 with that position's progression, nothing saved. ${signIn}`,
    body: ProgressionBody,
    responses: {
      200: { description: 'Saved: the stored progression', contentType: MEDIA_TYPE.opdsProgression, schema: ProgressionDocument },
      409: {
        description: 'Stale: a position read later is stored (its progression); nothing was saved',
        contentType: MEDIA_TYPE.opdsProgression,
        schema: ProgressionDocument,
      },
      401: notSignedIn,
    },
    errors,
    handler: async (ctx) => {
      const user = await signedIn(ctx as never);
      if ('status' in user) return user;
      const body = ctx.body;
      const result = await ctx.services.reader.saveProgression({
        tenantId: ctx.tenant.id,
        userId: user.userId,
        issueId: ctx.params.issue_id,
        progression: {
          modified: body.modified,
          deviceId: body.device.id,
          deviceName: body.device.name,
          progression: body.progression,
          references: body.references ?? body.refs ?? [],
          title: body.title,
        },
      });
      // Refused, and the position gone since (the account erased): nothing to offer instead.
      if (!result.progression) {
        throw new DomainError('FAILED_PRECONDITION', 'The reading position changed while saving; try again.', { reason: 'CHANGED_WHILE_SAVING' });
      }
      return documentReply(result.saved ? 200 : 409, result.progression);
    },
  }),
];
