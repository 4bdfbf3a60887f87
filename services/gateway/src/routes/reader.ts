// Reader sessions, reader settings, last location and in-issue text search (v2).
// Bodies are validated here (their shapes, the same schemas as the OpenAPI)
// and sent to reader typed; reader checks them against the issue's content
// and answers domain data, rendered in render/reader.ts.
import { z } from 'zod';
import { reader } from '@folio/proto';
import { route } from '../http/route.js';
import { textHitToWire } from '../render/v2/reader.js';
import {
  ErrorBody,
  inIssueSearch,
  issueIdParams,
  LastLocation,
  PositionList,
  queryInt,
  ReaderSession,
  ReaderSettings,
  TextSearchHit,
  UserReaderSettings,
  WebPublication,
} from './schemas.js';
import {
  lastLocationToProto,
  lastLocationToWire,
  POSITION_LIST_MEDIA_TYPE,
  positionListToWire,
  publicationToWire,
  readerSessionOf,
  readerSessionToWire,
  readerSettingsToWire,
  userSettingsToProto,
  userSettingsToWire,
  WEBPUB_MEDIA_TYPE,
} from '../render/reader.js';

/** Query booleans as the apps send them. */
const isTrue = (value: string | undefined) => value === 'true' || value === '1';

const STALE_POSITION = 'The reading position was saved elsewhere since you read it; the current position is in last_location.';
const POSITION_ETAG = {
  description: 'Version of the stored reading position (absent when there is none); send it as If-Match',
  schema: { type: 'string' as const },
};
const StalePosition = z.object({ message: z.string(), last_location: LastLocation.nullable() }).meta({ id: 'StalePosition' });

/** The ETag header of a stored position's version (none when there is no position). */
function etagOf(version: string | undefined): Record<string, string> | undefined {
  return version ? { ETag: `"${version}"` } : undefined;
}

/**
 * If-Match (RFC 9110 13.1.1) as the versions a save may replace: `*` is any
 * stored position; otherwise the strong entity tags listed (a weak tag never
 * matches, so a header without a strong one can only fail). Unset: no header.
 */
export function ifMatchOf(header: string | undefined): reader.ExpectedVersions | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return { versions: [], any: true };
  const versions = [...header.matchAll(/(W\/)?"([\x21\x23-\x7e]*)"/g)].filter((match) => !match[1]).map((match) => match[2]!);
  return { versions: versions.slice(0, 16), any: false };
}

export const readerRoutes = [
  route({
    method: 'post',
    path: '/api/v2/reader/{issue_id}/sessions',
    tag: 'Reader',
    summary: 'Open a reader session for an issue',
    description:
      'Send `reader-token` to resume downloaded content (same tenant, user and issue; the same session and token come back). ' +
      '`preview=true` limits content to the tenant preview share (PDF: the first pages; EPUB: the first chapters; audio: the first tracks). ' +
      'The returned `token` is the `reader-token` of notes, text search and integrations. Content URLs are signed and expire.',
    auth: 'jwt',
    tenant: 'single',
    uses: ['optional-reader-token'],
    // A session is shown by nothing a cached read answers (those of a reader-token are keyed by the token).
    leavesCachedReads: true,
    params: issueIdParams,
    query: z.object({ preview: z.enum(['true', 'false', '1', '0']).optional() }),
    responses: { 200: { description: 'Reader session by content type', schema: ReaderSession } },
    errors: {
      403: 'No access to the issue, or a corrupt, expired or foreign reader-token',
      404: 'Unknown issue',
      422: 'Physical issue: nothing to read',
    },
    handler: async ({ params, query, user, tenant, readerToken, services }) => {
      const response = await services.reader.createReaderSession({
        tenantId: tenant.id,
        userId: user.id,
        issueId: params.issue_id,
        preview: isTrue(query.preview),
        resumeReaderToken: readerToken,
      });
      return { status: 200, body: readerSessionToWire(response) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/reader/{issue_id}/manifest',
    tag: 'Reader',
    summary: 'The issue as a Readium Web Publication Manifest',
    description:
      'For Readium-based readers (Thorium, the Readium toolkits): `readingOrder` holds the EPUB chapters (served one by one from the package), ' +
      'the PDF page images with their sizes, or the audio tracks with duration and media type; `toc`, `resources` (the cover) and the whole ' +
      'EPUB package (a preview: the preview package) or PDF file (not in a preview) as an `alternate` link. ' +
      'Access as for `POST /api/v2/reader/{issue_id}/sessions`: `preview=true` gives the tenant preview share to anyone; ' +
      'otherwise 403 without access. Links are signed and expire no later than the access. ' +
      'The `self` link has no query (navigators resolve against it); the positions list link ' +
      '(`application/vnd.readium.position-list+json`) carries `preview` and the signing time of the links.',
    auth: 'jwt',
    tenant: 'single',
    params: issueIdParams,
    query: z.object({ preview: z.enum(['true', 'false', '1', '0']).optional() }),
    responses: { 200: { description: 'Readium Web Publication Manifest', schema: WebPublication, contentType: WEBPUB_MEDIA_TYPE } },
    errors: { 403: 'No access to the issue (ask for preview=true)', 404: 'Unknown issue', 422: 'Physical issue: nothing to read' },
    handler: async ({ params, query, user, tenant, services, req }) => {
      const response = await services.reader.getPublicationManifest({
        tenantId: tenant.id,
        userId: user.id,
        issueId: params.issue_id,
        preview: isTrue(query.preview),
      });
      const gateway = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
      return {
        status: 200,
        body: publicationToWire(response.publication, gateway, params.issue_id),
        headers: { 'Content-Type': `${WEBPUB_MEDIA_TYPE}; charset=utf-8` },
      };
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/reader/{issue_id}/positions',
    tag: 'Reader',
    summary: 'The Readium positions list of the issue manifest',
    description:
      'The positions as the Readium toolkits count them: an EPUB chapter has one per 1024 bytes of its document (at least one), ' +
      'a PDF one per page, an audiobook one per track (its total progression by time). Each href is the manifest reading-order href. ' +
      'Follow the manifest link: its `signed_at` (the Unix time the manifest links were signed at) makes these hrefs equal to that ' +
      "manifest's; without it they are signed now. A `signed_at` in the future is 422. Access as for the manifest.",
    auth: 'jwt',
    tenant: 'single',
    params: issueIdParams,
    query: z.object({
      preview: z.enum(['true', 'false', '1', '0']).optional(),
      signed_at: queryInt({ min: 0, max: 99_999_999_999, description: 'Unix seconds: the signing time of the manifest links (from its link)' }).optional(),
    }),
    responses: { 200: { description: 'Readium positions list', schema: PositionList, contentType: POSITION_LIST_MEDIA_TYPE } },
    errors: {
      403: 'No access to the issue (ask for preview=true)',
      404: 'Unknown issue',
      422: 'Physical issue: nothing to read; or a signed_at in the future',
    },
    handler: async ({ params, query, user, tenant, services }) => {
      const response = await services.reader.getPositionList({
        tenantId: tenant.id,
        userId: user.id,
        issueId: params.issue_id,
        preview: isTrue(query.preview),
        signedAt: query.signed_at,
      });
      return { status: 200, body: positionListToWire(response), headers: { 'Content-Type': `${POSITION_LIST_MEDIA_TYPE}; charset=utf-8` } };
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/reader/settings/{issue_id}',
    tag: 'Reader',
    summary: 'Reader engine settings for an issue',
    description:
      '`token` is the encrypted settings token the reader engine exchanges at `POST {store}/api/v1/sessions` (valid 10 minutes). ' +
      'With `reader-token`, that exchange resumes the session of the token. `lang` overrides the tenant language; `lang` and `location` are passed to the engine URLs.',
    auth: 'jwt',
    tenant: 'single',
    cachePerUser: true,
    uses: ['optional-reader-token'],
    params: issueIdParams,
    query: z.object({ location: z.string().max(1024).optional(), lang: z.string().max(16).optional() }),
    responses: { 200: { description: 'Reader settings', schema: ReaderSettings, headers: { ETag: POSITION_ETAG } } },
    errors: { 403: 'A corrupt, expired or foreign reader-token', 404: 'Unknown issue' },
    handler: async ({ params, query, user, tenant, readerToken, services }) => {
      const response = await services.reader.getReaderSettings({
        tenantId: tenant.id,
        userId: user.id,
        issueId: params.issue_id,
        readerToken,
        location: query.location,
        lang: query.lang,
      });
      // The ETag names the stored position, not this body (its token is new every time): an
      // If-None-Match must not turn the answer into a 304 (express compares them when sending).
      return { status: 200, body: readerSettingsToWire(response.settings), headers: etagOf(response.positionVersion), unconditional: true };
    },
  }),
  route({
    method: 'put',
    path: '/api/v2/reader/settings',
    tag: 'Reader',
    summary: "Save the user's reader settings (all issues)",
    description:
      'All three keys are always sent (`epub` also for PDF issues). `pdf.layout`: `single`, `double`, `continuous` or null; `epub.zoom` 1-1000 or null.',
    auth: 'jwt',
    tenant: 'single',
    body: z.object({ userReaderSettings: UserReaderSettings }),
    responses: { 200: { description: 'Saved settings', schema: z.object({ user_reader_settings: UserReaderSettings }) } },
    handler: async ({ body, user, services }) => {
      const response = await services.reader.updateUserReaderSettings({ userId: user.id, settings: userSettingsToProto(body.userReaderSettings) });
      return { status: 200, body: { user_reader_settings: userSettingsToWire(response.settings) } };
    },
  }),
  route({
    method: 'put',
    path: '/api/v2/reader/{issue_id}/last-location',
    tag: 'Reader',
    summary: 'Save the reading position',
    description:
      'The shape must fit the issue: EPUB `{chapterHref, cfi}` (a spine href and an `epubcfi(...)`), PDF `{page}` (1..pages), ' +
      'audiobook `{currentSeek, currentTrack}` (a 0-based track, seconds within it); 422 otherwise. Feeds continue-reading. ' +
      "The newest save wins (KOReader sync follows the same rule). The answer's `ETag` names the stored position, as does the `ETag` of " +
      '`GET /api/v2/reader/settings/{issue_id}`. Send it back as `If-Match` to save only over the position you last saw: when another ' +
      'device saved since, the answer is 412 with the current position and its `ETag`, and nothing is saved. Without `If-Match` the save is unconditional.',
    auth: 'jwt',
    tenant: 'single',
    uses: ['if-match'],
    params: issueIdParams,
    body: z.object({ lastLocation: LastLocation }),
    responses: {
      200: { description: 'Saved position', schema: z.object({ last_location: LastLocation }), headers: { ETag: POSITION_ETAG } },
      412: {
        description:
          'If-Match names a position that is no longer the stored one (the current one is in the body and the ETag), ' +
          'or X-Svc-Tenant-Id is missing or unknown',
        schema: z.union([StalePosition, ErrorBody]),
      },
    },
    errors: { 403: 'No access to the issue', 404: 'Unknown issue' },
    handler: async ({ params, body, user, tenant, services, req }) => {
      const expected = ifMatchOf(req.get('if-match'));
      const response = await services.reader.saveLastLocation({
        tenantId: tenant.id,
        userId: user.id,
        issueId: params.issue_id,
        location: lastLocationToProto(body.lastLocation),
        expected,
      });
      const headers = etagOf(response.version || undefined);
      if (!response.saved && expected) {
        return { status: 412, body: { message: STALE_POSITION, last_location: lastLocationToWire(response.location) }, headers };
      }
      return { status: 200, body: { last_location: lastLocationToWire(response.location) }, headers };
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/reader/issue-text-content',
    tag: 'Reader',
    summary: 'Search the text of the issue of the reader session',
    description:
      'Up to 50 hits by relevance (diacritic- and case-insensitive, the last word also as a prefix). `location`: `page:<n>,offset:<c>` for PDF, ' +
      'a range CFI for EPUB; matched words in `<mark>`. A preview session searches only its share.',
    auth: 'jwt+reader-token',
    tenant: 'single',
    query: z.object({ search: inIssueSearch }),
    responses: { 200: { description: 'Up to 50 hits by relevance, matches in <mark>', schema: z.array(TextSearchHit) } },
    errors: { 403: 'A missing, corrupt, expired or foreign reader-token', 404: 'The issue has no searchable text' },
    handler: async ({ query, readerScope, services }) => {
      // The pipeline verified the token as this user's, for this tenant: reader searches in that session.
      const response = await services.reader.searchIssueText({ session: readerSessionOf(readerScope), search: query.search });
      return { status: 200, body: response.hits.map(textHitToWire) };
    },
  }),
];
