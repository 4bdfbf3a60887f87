// Offline download of an issue.
import { route } from '../http/route.js';
import { DownloadRecord, issueIdParams } from './schemas.js';
import { downloadToWire } from '../render/reader.js';

export const contentRoutes = [
  route({
    method: 'get',
    path: '/api/v2/content/{issue_id}/download',
    tag: 'Reader',
    summary: 'Download record of an issue for offline reading',
    description:
      'File locations by type: EPUB `packed_file_url` and `file_url`, PDF `files_urls`, audiobook `tracks`; signed URLs that expire no later than the grant. ' +
      'The client replaces file URLs with local paths; after `access_expires_at` (`YYYY-MM-DD hh:mm:ss` UTC, null when the access does not end) it removes the content.',
    auth: 'jwt',
    tenant: 'single',
    params: issueIdParams,
    responses: { 200: { description: 'Download record', schema: DownloadRecord } },
    errors: { 403: 'No access to the issue', 404: 'Unknown issue', 422: 'Physical issue: nothing to download' },
    handler: async ({ params, user, tenant, services }) => {
      const response = await services.reader.getDownload({ tenantId: tenant.id, userId: user.id, issueId: params.issue_id });
      return { status: 200, body: downloadToWire(response.download) };
    },
  }),
];
