// OPDS catalogs of a store, on the store host (like the purchase redirect):
// OPDS 2.0 (JSON) under /opds/v2, OPDS 1.2 (Atom) under /opds/v1.2 with an
// OpenSearch description, and the download route their acquisition links
// point at. Signed in with HTTP Basic (e-mail and device key) or a Bearer
// access token, as a member of the store; without it, 401 with an
// Authentication for OPDS document and a Basic challenge (the document
// covers OPDS 1.x catalogs too). A store with `opds_public_catalog` opens its
// start feed, publications, collections and search to visitors without
// credentials (no per-user state; free issues open-access, the rest for
// sale); the shelf and downloads still ask for credentials. Visitors are
// held to the gateway's per-IP limit; the OPDS routes keep no per-user answers.
// Errors answer what OPDS clients read rather than the API's JSON body:
// Problem Details (RFC 9457, application/problem+json, as Readium-based apps
// parse them) under /opds/v2, an Atom feed naming the problem under /opds/v1.2.
// Building the catalog is opds/catalog.ts, rendering opds/opds2.ts and opds1.ts.
import type { Request } from 'express';
import { z } from 'zod';
import { DomainError, httpBodyOf, httpStatusOf, notFound } from '@folio/errors';
import { stateOf } from '../http/context.js';
import { langOf } from '../render/lang.js';
import { route, type Reply, type RouteContext } from '../http/route.js';
import { authenticateReader, type ReaderAuth } from '../opds/auth.js';
import { navigationFeed, publicationsFeed, searchFeed, shelfFeed, type CatalogScope } from '../opds/catalog.js';
import { MEDIA_TYPE, type Feed } from '../opds/model.js';
import { opds1ErrorFeed, opds1Feed, opds1OpenSearch } from '../opds/opds1.js';
import { opds2Authentication, opds2Feed, problemDetails } from '../opds/opds2.js';
import { issueIdParams, queryInt } from './schemas.js';

type Version = 'v2' | 'v1.2';

const CONTENT_TYPE = {
  v2: MEDIA_TYPE.opds2,
  'v1.2': 'application/atom+xml;profile=opds-catalog',
} as const;

/** The store as the client reached it: scheme and the Host header (already resolved to this tenant). */
export function storeUrlOf(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? ''}`;
}

/** OPDS clients send Accept-Language rather than X-App-Lang. */
const readerLangOf = (req: Request) => langOf(req.get('x-app-lang') ?? req.get('accept-language'));

function jsonReply(status: number, contentType: string, document: unknown, headers: Record<string, string> = {}): Reply {
  return { status, binary: { contentType, data: Buffer.from(JSON.stringify(document)) }, headers };
}

function xmlReply(status: number, contentType: string, xml: string, headers: Record<string, string> = {}): Reply {
  return { status, binary: { contentType, data: Buffer.from(xml) }, headers };
}

/** The 401 of both versions; a Bearer token of a non-member is a 403 instead (signing in again would not help). */
export function refusal(
  _version: Version,
  ctx: Pick<RouteContext<unknown, unknown, unknown>, 'req' | 'tenant'>,
  refused: 'missing' | 'invalid' | 'not-a-member',
): Reply {
  if (refused === 'not-a-member') throw new DomainError('PERMISSION_DENIED', 'You have no account in this store.');
  const challenge = { 'WWW-Authenticate': `Basic realm="${ctx.tenant.domain}", charset="UTF-8"` };
  // Authentication for OPDS 1.0 is for OPDS 1.x and 2.0 catalogs alike; 1.2 clients such as KOReader read the challenge.
  return jsonReply(401, MEDIA_TYPE.opdsAuthentication, opds2Authentication(storeUrlOf(ctx.req), ctx.tenant.name), challenge);
}

/**
 * The member the request signed in as; with `visitors` and a public catalog, a request without
 * credentials browses as a visitor (wrong credentials are still refused: the app should learn so).
 */
async function signedIn(version: Version, ctx: RouteContext<unknown, unknown, unknown>, { visitors = false } = {}): Promise<CatalogScope | Reply> {
  const auth: ReaderAuth = await authenticateReader(ctx.req, ctx.res, ctx.services, ctx.tenant);
  const common = { services: ctx.services, tenant: ctx.tenant, lang: readerLangOf(ctx.req), storeUrl: storeUrlOf(ctx.req) };
  if ('refused' in auth) {
    if (auth.refused === 'missing' && visitors && ctx.tenant.opdsPublicCatalog) return { ...common, userId: 0, visitor: true };
    return refusal(version, ctx, auth.refused);
  }
  stateOf(ctx.res).context.userId = auth.user.id;
  return { ...common, userId: auth.user.id };
}

/** An error as each version's clients read it: Problem Details (2.0), an Atom feed naming the problem (1.2). */
function errorReply(version: Version) {
  return (error: DomainError, req: Request): Reply => {
    const status = httpStatusOf(error);
    const body = httpBodyOf(error);
    const retryAfter = error.details.retryAfterSeconds ?? (status === 429 ? 60 : status === 503 ? 5 : undefined);
    const headers: Record<string, string> =
      retryAfter !== undefined && (status === 429 || status === 503) ? { 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))) } : {};
    if (version === 'v2') return jsonReply(status, MEDIA_TYPE.problem, problemDetails(status, body.message, body.errors), headers);
    return xmlReply(status, `${CONTENT_TYPE['v1.2']};kind=navigation`, opds1ErrorFeed(storeUrlOf(req), status, body.message, body.errors), headers);
  };
}

function render(version: Version, scope: CatalogScope, feed: Feed): Reply {
  if (version === 'v2') return jsonReply(200, MEDIA_TYPE.opds2, opds2Feed(scope.storeUrl, feed));
  const kind = feed.self.to === 'catalog' ? 'navigation' : 'acquisition';
  return xmlReply(200, `${CONTENT_TYPE['v1.2']};kind=${kind}`, opds1Feed(scope.storeUrl, feed));
}

const page = queryInt({ min: 1, max: 10_000, fallback: 1, description: 'Page, from 1' });
const collection = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,99}$/, 'The collection must be a collection slug.')
  .optional()
  .meta({ description: "A collection slug (from the catalog's navigation); absent: every issue, newest first" });
const searchQuery = z.string().meta({ description: '2-128 characters' });
const cursor = z.string().max(512).optional().meta({ description: 'Opaque: from the `next` / `previous` link' });

const OpdsDocument = z.looseObject({}).meta({ id: 'Opds2Feed', description: 'OPDS 2.0 feed (https://drafts.opds.io/opds-2.0)' });
const OpdsAuthentication = z
  .looseObject({})
  .meta({ id: 'OpdsAuthenticationDocument', description: 'Authentication for OPDS 1.0 document: HTTP Basic with e-mail and device key' });
const AtomFeed = z.string().meta({ id: 'OpdsAtomFeed', description: 'OPDS 1.2 Atom feed' });
const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional().meta({ description: 'Field name to reasons, on a request to change (422)' }),
  })
  .meta({ id: 'OpdsProblem', description: 'Problem Details for HTTP APIs (RFC 9457): what went wrong, for OPDS 2.0 clients' });

/** How each version's errors are documented and answered. */
function errorsOf(version: Version) {
  return {
    errorContent:
      version === 'v2' ? { contentType: MEDIA_TYPE.problem, schema: Problem } : { contentType: `${CONTENT_TYPE['v1.2']};kind=navigation`, schema: AtomFeed },
    errorReply: errorReply(version),
  };
}

function feedRoute<Q extends z.ZodObject<z.ZodRawShape>>(
  version: Version,
  spec: { path: string; summary: string; description?: string; query?: Q; errors?: Record<number, string>; visitors?: boolean },
  build: (scope: CatalogScope, query: z.output<Q>) => Promise<Feed>,
) {
  const v2 = version === 'v2';
  const visitors = spec.visitors === true;
  return route({
    method: 'get',
    path: `/opds/${version}/${spec.path}`,
    tag: 'OPDS',
    summary: spec.summary,
    description: [
      spec.description ?? '',
      'HTTP Basic with the e-mail and a device key, or a Bearer access token; the user must have an account in the store.',
      visitors ? 'A store whose catalog is public answers without credentials too, as to a visitor (free issues open-access, the rest for sale).' : '',
    ]
      .filter(Boolean)
      .join(' '),
    auth: 'device-key',
    tenant: 'store',
    ...(spec.query && { query: spec.query }),
    responses: {
      200: v2
        ? { description: 'OPDS 2.0 feed', contentType: MEDIA_TYPE.opds2, schema: OpdsDocument }
        : { description: 'OPDS 1.2 Atom feed', contentType: CONTENT_TYPE['v1.2'], schema: AtomFeed },
      401: { description: 'Not signed in: how to sign in (and a Basic challenge)', contentType: MEDIA_TYPE.opdsAuthentication, schema: OpdsAuthentication },
    },
    ...errorsOf(version),
    errors: {
      403: 'A Bearer token of a user without an account in this store',
      429: 'Too many failed sign-ins from this IP or for this e-mail',
      ...spec.errors,
    },
    handler: async (ctx) => {
      const scope = await signedIn(version, ctx as never, { visitors });
      if (!('storeUrl' in scope)) return scope;
      return render(version, scope, await build(scope, ctx.query as z.output<Q>));
    },
  });
}

function catalogRoutes(version: Version) {
  return [
    feedRoute(
      version,
      { path: 'catalog', summary: `OPDS ${version === 'v2' ? '2.0' : '1.2'}: the store's start feed (new issues, shelf, collections, search)`, visitors: true },
      (scope) => navigationFeed(scope),
    ),
    feedRoute(
      version,
      {
        path: 'publications',
        summary: `OPDS ${version === 'v2' ? '2.0' : '1.2'}: the store's publications, newest first, 20 a page`,
        description:
          'Acquisition links by access: open-access (free), acquisition (readable), buy with price and currency (the purchase redirect). ' +
          'Pay-per-use and physical issues are not listed.',
        query: z.object({ page, collection }),
        errors: { 404: 'Unknown collection' },
        visitors: true,
      },
      (scope, query) => publicationsFeed(scope, { page: query.page, ...(query.collection && { collection: query.collection }) }),
    ),
    feedRoute(
      version,
      {
        path: 'search',
        summary: `OPDS ${version === 'v2' ? '2.0' : '1.2'}: store search (storefront)`,
        description: '404 when the store has search turned off.',
        query: z.object({ query: searchQuery, page }),
        errors: { 404: 'The store has search turned off', 422: 'A query shorter than 2 characters (1 in scripts written without spaces) or over 128' },
        visitors: true,
      },
      async (scope, query) => {
        const feed = await searchFeed(scope, { query: query.query, page: query.page });
        if (!feed) throw notFound('This store has search turned off.');
        return feed;
      },
    ),
    feedRoute(
      version,
      {
        path: 'shelf',
        summary: `OPDS ${version === 'v2' ? '2.0' : '1.2'}: the issues the signed-in user can read in this store`,
        query: z.object({ cursor }),
        errors: { 422: 'A cursor that was not issued to this user' },
      },
      (scope, query) => shelfFeed(scope, query.cursor ? { cursor: query.cursor } : {}),
    ),
  ];
}

/**
 * A Readium audiobook manifest of the signed tracks: what an OPDS client plays. Its identifier is the
 * issue's one (`urn:folio:<tenant>:<issue>`, as in the feeds and the reader manifest).
 */
function audiobookManifest(
  selfHref: string,
  identifier: string,
  file: { title: string; files: { url: string; mediaType: string; duration: number; title: string }[] },
) {
  const duration = file.files.reduce((sum, track) => sum + track.duration, 0);
  return {
    '@context': 'https://readium.org/webpub-manifest/context.jsonld',
    metadata: {
      '@type': 'http://schema.org/Audiobook',
      conformsTo: 'https://readium.org/webpub-manifest/profiles/audiobook',
      identifier,
      title: file.title,
      ...(duration > 0 && { duration }),
    },
    links: [{ rel: 'self', href: selfHref, type: MEDIA_TYPE.audiobook }],
    readingOrder: file.files.map((track) => ({
      href: track.url,
      type: track.mediaType,
      title: track.title,
      ...(track.duration > 0 && { duration: track.duration }),
    })),
  };
}

export const opdsRoutes = [
  ...catalogRoutes('v2'),
  ...catalogRoutes('v1.2'),
  route({
    method: 'get',
    path: '/opds/v2/authentication',
    tag: 'OPDS',
    summary: "Authentication for OPDS 1.0: how to sign in to this store's catalogs",
    auth: 'none',
    tenant: 'store',
    responses: { 200: { description: 'HTTP Basic with e-mail and device key', contentType: MEDIA_TYPE.opdsAuthentication, schema: OpdsAuthentication } },
    ...errorsOf('v2'),
    handler: async ({ req, tenant }) => jsonReply(200, MEDIA_TYPE.opdsAuthentication, opds2Authentication(storeUrlOf(req), tenant.name)),
  }),
  route({
    method: 'get',
    path: '/opds/v1.2/opensearch.xml',
    tag: 'OPDS',
    summary: 'OpenSearch description of the OPDS 1.2 store search',
    auth: 'none',
    tenant: 'store',
    responses: { 200: { description: 'OpenSearch 1.1 description', contentType: MEDIA_TYPE.opensearch, schema: z.string() } },
    errors: { 404: 'The store has search turned off' },
    ...errorsOf('v1.2'),
    handler: async ({ req, tenant }) => {
      if (!tenant.features?.storefrontSearch) throw notFound('This store has search turned off.');
      return xmlReply(200, MEDIA_TYPE.opensearch, opds1OpenSearch(storeUrlOf(req), tenant.name));
    },
  }),
  route({
    method: 'get',
    path: '/opds/download/{issue_id}',
    tag: 'OPDS',
    summary: 'Download an issue from an OPDS acquisition link',
    description:
      "EPUB and PDF: 302 to the signed file (the same file a reader session serves; the URL expires like the download record's). " +
      'Audiobook: a Readium audiobook manifest of the signed tracks. Same sign-in as the catalogs.',
    auth: 'device-key',
    tenant: 'store',
    params: issueIdParams,
    responses: {
      302: { description: 'To the signed EPUB or PDF file', headers: { Location: { description: 'Signed media URL', schema: { type: 'string' } } } },
      200: { description: 'Audiobook: Readium audiobook manifest', contentType: MEDIA_TYPE.audiobook, schema: OpdsDocument },
      401: { description: 'Not signed in: how to sign in (and a Basic challenge)', contentType: MEDIA_TYPE.opdsAuthentication, schema: OpdsAuthentication },
    },
    errors: {
      403: 'No access to the issue, or no account in this store',
      404: 'Unknown issue',
      422: 'Nothing to download (physical issue)',
      429: 'Too many failed sign-ins',
    },
    ...errorsOf('v2'),
    handler: async (ctx) => {
      const scope = await signedIn('v2', ctx as never);
      if (!('storeUrl' in scope)) return scope;
      const found = await ctx.services.readerSync.getPublicationFile({ tenantId: ctx.tenant.id, userId: scope.userId, issueId: ctx.params.issue_id });
      if (found.contentType === 'audio') {
        const self = `${scope.storeUrl}/opds/download/${ctx.params.issue_id}`;
        return jsonReply(200, MEDIA_TYPE.audiobook, audiobookManifest(self, `urn:folio:${ctx.tenant.id}:${ctx.params.issue_id}`, found));
      }
      const file = found.files[0];
      if (!file) throw new DomainError('FAILED_PRECONDITION', 'This issue has no file to download.', { reason: 'NO_DIGITAL_CONTENT' });
      return { status: 302, headers: { Location: file.url, 'Cache-Control': 'no-store' } };
    },
  }),
];
