// Reader sessions, reader settings, last location and in-issue text search (v2).
// Every answer is the reader service's `body_json`, sent unchanged; bodies
// from clients go to it raw (`request_json`), so that it validates them
// against the issue's content and names bad fields as the client sent them.
import { z } from 'zod';
import { reader } from '@folio/proto';
import { route } from '../http/route.js';
import { verifyReaderScope } from './notes.js';
import { issueIdParams, LastLocation, ReaderSession, ReaderSettings, TextSearchHit, UserReaderSettings } from './schemas.js';
import { readerBody } from './wire.js';

/** Query booleans as the apps send them. */
const isTrue = (value: string | undefined) => value === 'true' || value === '1';

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
      return { status: 200, body: readerBody(response.bodyJson, 'CreateReaderSession') };
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
    uses: ['optional-reader-token'],
    params: issueIdParams,
    query: z.object({ location: z.string().max(1024).optional(), lang: z.string().max(16).optional() }),
    responses: { 200: { description: 'Reader settings', schema: ReaderSettings } },
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
      return { status: 200, body: readerBody(response.bodyJson, 'GetReaderSettings') };
    },
  }),
  route({
    method: 'put',
    path: '/api/v2/reader/settings',
    tag: 'Reader',
    summary: "Save the user's reader settings (all issues)",
    description: 'All three keys are always sent (`epub` also for PDF issues). `pdf.layout`: `single`, `double`, `continuous` or null; `epub.zoom` 1-1000 or null.',
    auth: 'jwt',
    tenant: 'single',
    body: z.object({ userReaderSettings: UserReaderSettings }),
    responses: { 200: { description: 'Saved settings', schema: z.object({ user_reader_settings: UserReaderSettings }) } },
    handler: async ({ user, services, req }) => {
      const response = await services.reader.updateUserReaderSettings({ userId: user.id, requestJson: JSON.stringify(req.body ?? {}) });
      return { status: 200, body: readerBody(response.bodyJson, 'UpdateUserReaderSettings') };
    },
  }),
  route({
    method: 'put',
    path: '/api/v2/reader/{issue_id}/last-location',
    tag: 'Reader',
    summary: 'Save the reading position',
    description:
      'The shape must fit the issue: EPUB `{chapterHref, cfi}` (a spine href and an `epubcfi(...)`), PDF `{page}` (1..pages), ' +
      'audiobook `{currentSeek, currentTrack}` (a 0-based track, seconds within it); 422 otherwise. Last write wins; feeds continue-reading.',
    auth: 'jwt',
    tenant: 'single',
    params: issueIdParams,
    body: z.object({ lastLocation: LastLocation }),
    responses: { 200: { description: 'Saved position', schema: z.object({ last_location: LastLocation }) } },
    errors: { 403: 'No access to the issue', 404: 'Unknown issue' },
    handler: async ({ params, user, tenant, services, req }) => {
      const response = await services.reader.saveLastLocation({
        tenantId: tenant.id,
        userId: user.id,
        issueId: params.issue_id,
        requestJson: JSON.stringify(req.body ?? {}),
      });
      return { status: 200, body: readerBody(response.bodyJson, 'SaveLastLocation') };
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
    query: z.object({ search: z.string().min(4).max(128) }),
    responses: { 200: { description: 'Up to 50 hits by relevance, matches in <mark>', schema: z.array(TextSearchHit) } },
    errors: { 403: 'A missing, corrupt, expired or foreign reader-token', 404: 'The issue has no searchable text' },
    handler: async ({ query, user, tenant, readerToken, services }) => {
      // The token must be this user's, for this tenant (reader checks the tenant again with the search).
      const scope = await verifyReaderScope(services, readerToken, tenant.id, user.id);
      const response = await services.reader.searchIssueText({
        readerToken: scope.readerToken,
        expectedTenantId: tenant.id,
        search: query.search,
        api: reader.SearchApi.SEARCH_API_V2,
      });
      return { status: 200, body: response.hits.map(hitToWire) };
    },
  }),
];

export function hitToWire(hit: reader.TextHit): z.output<typeof TextSearchHit> {
  return { location: hit.location, snippet: hit.snippet, query_words: hit.queryWords };
}
