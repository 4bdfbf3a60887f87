// Reader sessions, reader settings, last location and in-issue text search (v2).
import { z } from 'zod';
import { later, route } from '../http/route.js';
import { issueIdParams, LastLocation, ReaderSession, ReaderSettings, TextSearchHit, UserReaderSettings } from './schemas.js';

const READER = 'the reader release';

export const readerRoutes = [
  route({
    method: 'post',
    path: '/api/v2/reader/{issue_id}/sessions',
    tag: 'Reader',
    summary: 'Open a reader session for an issue',
    description: 'Send `reader-token` to resume downloaded content. `preview=true` limits content to the tenant preview share.',
    auth: 'jwt',
    tenant: 'single',
    uses: ['optional-reader-token'],
    params: issueIdParams,
    query: z.object({ preview: z.enum(['true', 'false', '1', '0']).optional() }),
    responses: { 200: { description: 'Reader session by content type', schema: ReaderSession } },
    errors: { 403: 'No access to the issue, or a corrupt reader-token' },
    handler: later('reader sessions', READER),
  }),
  route({
    method: 'get',
    path: '/api/v2/reader/settings/{issue_id}',
    tag: 'Reader',
    summary: 'Reader engine settings for an issue',
    auth: 'jwt',
    tenant: 'single',
    uses: ['optional-reader-token'],
    params: issueIdParams,
    query: z.object({ location: z.string().max(1024).optional(), lang: z.string().max(16).optional() }),
    responses: { 200: { description: 'Reader settings', schema: ReaderSettings } },
    handler: later('reader settings', READER),
  }),
  route({
    method: 'put',
    path: '/api/v2/reader/settings',
    tag: 'Reader',
    summary: "Save the user's reader settings (all issues)",
    auth: 'jwt',
    tenant: 'single',
    body: z.object({ userReaderSettings: UserReaderSettings }),
    responses: { 200: { description: 'Saved settings', schema: z.object({ user_reader_settings: UserReaderSettings }) } },
    handler: later('reader settings', READER),
  }),
  route({
    method: 'put',
    path: '/api/v2/reader/{issue_id}/last-location',
    tag: 'Reader',
    summary: 'Save the reading position',
    auth: 'jwt',
    tenant: 'single',
    params: issueIdParams,
    body: z.object({ lastLocation: LastLocation }),
    responses: { 200: { description: 'Saved position', schema: z.object({ last_location: LastLocation }) } },
    handler: later('last location', READER),
  }),
  route({
    method: 'get',
    path: '/api/v2/reader/issue-text-content',
    tag: 'Reader',
    summary: 'Search the text of the issue of the reader session',
    auth: 'jwt+reader-token',
    tenant: 'single',
    query: z.object({ search: z.string().min(4).max(128) }),
    responses: { 200: { description: 'Up to 50 hits by relevance, matches in <mark>', schema: z.array(TextSearchHit) } },
    errors: { 404: 'The issue has no searchable text' },
    handler: later('in-issue text search', READER),
  }),
];
