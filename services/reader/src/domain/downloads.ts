// The download record (GET /api/v2/content/{issue_id}/download): every field
// of the spec; file locations by type (EPUB packed_file_url + file_url, PDF
// files_urls, audio tracks), signed to expire no later than the access grant.
import { permissionDenied } from '@folio/errors';
import type { ContentLinks } from './content.js';
import type { Peers } from './ports.js';
import type { ReaderSessions } from './sessions.js';
import { storeUrl } from './settings.js';
import { formatDateTime, parseDateTime } from './time.js';

export class Downloads {
  constructor(
    private readonly deps: {
      sessions: ReaderSessions;
      peers: Peers;
      content: ContentLinks;
      storeUrlTemplate: string;
    },
  ) {}

  async get(input: { tenantId: number; userId: number; issueId: number }): Promise<Record<string, unknown>> {
    const { tenantId, userId, issueId } = input;
    const manifest = await this.deps.sessions.readableManifest(tenantId, issueId);
    const [access, issue, tenant] = await Promise.all([
      this.deps.peers.access(tenantId, userId, issueId),
      this.deps.peers.issue(tenantId, issueId),
      this.deps.peers.tenant(tenantId),
    ]);
    if (!access.canRead) throw permissionDenied('You do not have access to this issue.');

    const files = this.deps.content.fileUrls(manifest, access.expiresAt);
    const published = parseDateTime(issue.publishedAt);
    const store = storeUrl(this.deps.storeUrlTemplate, tenant);
    const prices: Record<string, number> = {};
    // The price the user would pay now (a running promotion's, else the list price).
    for (const price of access.prices) prices[price.currency] = price.discount?.amount ?? price.amount;
    const pages = manifest.pdf ? manifest.pdf.pages.length : null;
    const tableOfContents = manifest.epub?.toc ?? manifest.pdf?.toc ?? manifest.audio?.tracks.map((track, index) => ({ title: track.title, track: index })) ?? [];
    return {
      id: issueId,
      name: issue.name,
      description: issue.description,
      slug: issue.slug,
      published_at: {
        timestamp: published ? Math.floor(published.getTime() / 1000) : 0,
        date: published ? formatDateTime(published) : issue.publishedAt,
        timezone: 'UTC',
      },
      table_of_contents: tableOfContents,
      user_can_read: access.canRead,
      file_type: manifest.type,
      reader_url: `${store}/reader/${issueId}`,
      cover: this.deps.content.cover(manifest),
      thumbnail: this.deps.content.thumbnail(manifest),
      url: `${store}/issues/${issueId}/${issue.slug}`,
      file_url: files.epub,
      packed_file_url: files.epub,
      tracks: files.tracks,
      files_urls: files.pages,
      articles: [],
      payment_links: null,
      prices,
      author: issue.author,
      pages: null,
      number_of_pages: pages ?? issue.numberOfPages,
      external_id: issue.externalId,
      private_material: null,
      access_expires_at: access.expiresAt ? formatDateTime(access.expiresAt) : null,
      require_login: access.free ? 0 : 1,
      free: access.free,
    };
  }
}
