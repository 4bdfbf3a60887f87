// Offline download of an issue.
import { later, route } from '../http/route.js';
import { DownloadRecord, issueIdParams } from './schemas.js';

export const contentRoutes = [
  route({
    method: 'get',
    path: '/api/v2/content/{issue_id}/download',
    tag: 'Reader',
    summary: 'Download record of an issue for offline reading',
    description: 'The client replaces file URLs with local paths; after `access_expires_at` it removes the content.',
    auth: 'jwt',
    tenant: 'single',
    params: issueIdParams,
    responses: { 200: { description: 'Download record', schema: DownloadRecord } },
    errors: { 403: 'No access to the issue' },
    handler: later('downloads', 'the reader release'),
  }),
];
