// The download record (GET /api/v2/content/{issue_id}/download): every field
// of the spec; file locations by type (EPUB packed_file_url + file_url, PDF
// files_urls, audio tracks), signed to expire no later than the access grant.
import { permissionDenied } from '@folio/errors';
import type { ContentLinks } from './content.js';
import type { Peers } from './ports.js';
import type { ReaderSessions } from './sessions.js';
import { storeUrl, type TocEntry } from './settings.js';
import { formatDateTime, parseDateTime } from './time.js';

/** The download record of an issue for a user. */
export interface DownloadView {
  id: number;
  name: string;
  description: string;
  slug: string;
  /** Unix seconds; 0 when the publication date does not parse. */
  publishedTimestamp: number;
  /** `YYYY-MM-DD hh:mm:ss` UTC (as catalog has it when it does not parse). */
  publishedDate: string;
  tableOfContents: TocEntry[];
  userCanRead: boolean;
  fileType: string;
  readerUrl: string;
  cover: string;
  thumbnail: string;
  url: string;
  /** EPUB: the signed file. */
  epubUrl: string | null;
  /** Audiobook: the signed tracks. */
  tracks: { title: string; url: string; duration: number }[] | null;
  /** PDF: the signed page images. */
  pageUrls: string[] | null;
  /** Currency code to the price the user would pay now. */
  prices: Record<string, number>;
  author: string;
  numberOfPages: number | null;
  externalId: string;
  /** `YYYY-MM-DD hh:mm:ss` UTC; null when the access does not end. */
  accessExpiresAt: string | null;
  requireLogin: boolean;
  free: boolean;
}

export class Downloads {
  constructor(
    private readonly deps: {
      sessions: ReaderSessions;
      peers: Peers;
      content: ContentLinks;
      storeUrlTemplate: string;
    },
  ) {}

  async get(input: { tenantId: number; userId: number; issueId: number }): Promise<DownloadView> {
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
    const tableOfContents: TocEntry[] =
      manifest.epub?.toc ?? manifest.pdf?.toc ?? manifest.audio?.tracks.map((track, index) => ({ title: track.title, track: index })) ?? [];
    return {
      id: issueId,
      name: issue.name,
      description: issue.description,
      slug: issue.slug,
      publishedTimestamp: published ? Math.floor(published.getTime() / 1000) : 0,
      publishedDate: published ? formatDateTime(published) : issue.publishedAt,
      tableOfContents,
      userCanRead: access.canRead,
      fileType: manifest.type,
      readerUrl: `${store}/reader/${issueId}`,
      cover: this.deps.content.cover(manifest),
      thumbnail: this.deps.content.thumbnail(manifest),
      url: `${store}/issues/${issueId}/${issue.slug}`,
      epubUrl: files.epub,
      tracks: files.tracks,
      pageUrls: files.pages,
      prices,
      author: issue.author,
      numberOfPages: pages ?? issue.numberOfPages,
      externalId: issue.externalId,
      accessExpiresAt: access.expiresAt ? formatDateTime(access.expiresAt) : null,
      requireLogin: !access.free,
      free: access.free,
    };
  }
}
