// An issue as a Readium Web Publication (GET /api/v2/reader/{issue_id}/manifest):
// what Readium-based readers (Thorium, the Readium toolkits) open without our
// own session format. Same access rules as opening a reader session: a
// preview is the tenant's preview share for anyone, otherwise the user needs
// access and every link is signed to end with it.
//
// By content type: EPUB chapters are read file by file from the package
// (signed package paths, so the relative links inside a chapter resolve; the
// whole package is an alternate link); PDF pages are the page images, in
// order, with their sizes (the Divina profile), and the PDF file itself as an
// alternate where it was kept at ingest; audiobook tracks carry their
// durations and media types.
//
// What the file says of itself (ingest's metadata) completes the store's
// metadata: its accessibility, layout and reading direction, its own
// identifiers, and every creator when the store's author is the file's first.
//
// Every link of one manifest is signed as of one second, `signedAt`: the
// positions list asked with that second (GET .../positions?signed_at=) has
// the very hrefs of the reading order, which is how Readium navigators match
// a position to its resource.
import { invalidArgument } from '@folio/errors';
import { mediaTypeOf } from '../media/types.js';
import type { ContentLinks } from './content.js';
import { audioPositions, epubPositions, pagePositions, type PositionLocator } from './position-list.js';
import type { IssueInfo, Peers } from './ports.js';
import type { ReaderSessions } from './sessions.js';
import type { ContentAccessibility, ContentManifest } from './repositories.js';
import { parseDateTime } from './time.js';

export interface PublicationLink {
  href: string;
  type: string;
  title?: string;
  /** Seconds, more than 0. */
  duration?: number;
  width?: number;
  height?: number;
  rel?: string[];
  children?: PublicationLink[];
}

export interface Publication {
  contentType: 'epub' | 'pdf' | 'audio';
  preview: boolean;
  /** `urn:folio:<tenant>:<issue>`: the issue's one identifier (OPDS entries and the seeded OPF carry it too). */
  identifier: string;
  /** Unix seconds the links were signed as of (the positions list signed as of the same second has the same hrefs). */
  signedAt: number;
  title: string;
  /** BCP 47; null when the issue has none. */
  language: string | null;
  authors: string[];
  /** The file's other creators and contributors, with their MARC relator role (`trl`, `edt`, `nrt`, ...). */
  contributors: { name: string; role: string }[];
  publisher: string | null;
  /** ISO 8601 date-time; null when catalog's date does not parse. */
  published: string | null;
  description: string | null;
  numberOfPages: number | null;
  /** Seconds (audiobooks). */
  duration: number | null;
  /** The file's own identifiers (`urn:isbn:...`, `urn:uuid:...`). */
  altIdentifiers: string[];
  /** What the file declares of its accessibility; null when nothing (or ingested before it was read). */
  accessibility: ContentAccessibility | null;
  /** `fixed` for PDF pages and fixed-layout EPUBs; null for audio. */
  layout: 'reflowable' | 'fixed' | null;
  /** Null when the file leaves it to the reading system. */
  readingProgression: 'ltr' | 'rtl' | null;
  readingOrder: PublicationLink[];
  resources: PublicationLink[];
  toc: PublicationLink[];
  /** Publication-level links besides `self` (the gateway's): the whole EPUB package. */
  links: PublicationLink[];
}

/** How far ahead of this replica's clock a `signedAt` may be (another replica signed the manifest). */
const CLOCK_SKEW_SECONDS = 60;

const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** An identifier Readium can take as `altIdentifier` (a URI: `urn:isbn:...`, `urn:uuid:...`, `https://...`). */
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;

const progressionOf = (value: string | undefined): 'ltr' | 'rtl' | null => (value === 'ltr' || value === 'rtl' ? value : null);

/**
 * The authors: the file's, in its order, when the store's author is the first of them or the store names
 * none (the store's metadata came from the file or agrees with it); otherwise the store's author alone, as
 * the publisher corrected it. The file's other creators come with it in either case.
 */
function creatorsOf(issue: IssueInfo, manifest: ContentManifest): Pick<Publication, 'authors' | 'contributors'> {
  const file = manifest.metadata;
  const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' }) === 0;
  const fileAuthors = file?.authors ?? [];
  const authors = !issue.author
    ? fileAuthors
    : fileAuthors[0] !== undefined && same(fileAuthors[0], issue.author)
      ? [issue.author, ...fileAuthors.slice(1)]
      : [issue.author];
  return { authors, contributors: (file?.contributors ?? []).filter((contributor) => !authors.some((author) => same(author, contributor.name))) };
}

export class Publications {
  constructor(
    private readonly deps: {
      sessions: ReaderSessions;
      peers: Peers;
      content: ContentLinks;
    },
  ) {}

  async manifest(input: { tenantId: number; userId: number; issueId: number; preview: boolean }): Promise<Publication> {
    return (await this.build(input, Math.floor(Date.now() / 1000))).publication;
  }

  /**
   * The positions list of the manifest signed as of `signedAt` (now when
   * unset): the same access rules, and hrefs equal to its reading order's.
   * A time in the future would stretch the links' lifetime: refused.
   */
  async positions(input: { tenantId: number; userId: number; issueId: number; preview: boolean; signedAt?: number }): Promise<PositionLocator[]> {
    const now = Math.floor(Date.now() / 1000);
    if (input.signedAt !== undefined && input.signedAt > now + CLOCK_SKEW_SECONDS)
      throw invalidArgument('The given data was invalid.', { signed_at: ['is in the future: use the link of a manifest'] });
    const { publication, manifest } = await this.build(input, input.signedAt ?? now);
    const order = publication.readingOrder;
    if (manifest.epub) return epubPositions(order.map((link, index) => ({ ...link, bytes: manifest.epub!.spine[index]?.bytes })));
    if (manifest.pdf) return pagePositions(order);
    return audioPositions(order);
  }

  private async build(
    input: { tenantId: number; userId: number; issueId: number; preview: boolean },
    signedAt: number,
  ): Promise<{ publication: Publication; manifest: ContentManifest }> {
    const manifest = await this.deps.sessions.readableManifest(input.tenantId, input.issueId);
    const { limit, notAfter } = await this.deps.sessions.grant(manifest, input.userId, input.preview);
    const issue = await this.deps.peers.issue(input.tenantId, input.issueId);
    const published = parseDateTime(issue.publishedAt);
    const language = [issue.lang, manifest.lang].find((lang): lang is string => typeof lang === 'string' && LANGUAGE.test(lang)) ?? null;
    const base = {
      preview: input.preview,
      identifier: `urn:folio:${manifest.tenant_id}:${manifest.issue_id}`,
      signedAt,
      title: issue.name || manifest.title,
      language,
      ...creatorsOf(issue, manifest),
      // The store's metadata first (the publisher's word), the file's where the store has none.
      publisher: issue.publisher || manifest.metadata?.publisher || null,
      published: published ? published.toISOString() : null,
      description: issue.description || manifest.metadata?.description || null,
      altIdentifiers: (manifest.metadata?.identifiers ?? []).filter((identifier) => URI.test(identifier)),
      accessibility: manifest.metadata?.accessibility ?? null,
      layout: manifest.pdf ? ('fixed' as const) : manifest.epub ? (manifest.metadata?.layout ?? 'reflowable') : null,
      readingProgression: progressionOf(manifest.metadata?.reading_progression),
      resources: [{ href: this.deps.content.cover(manifest), type: 'image/svg+xml', rel: ['cover'] }],
    };
    const body = await this.body(manifest, issue, limit, notAfter, new Date(signedAt * 1000));
    return { publication: { ...base, ...body, resources: [...base.resources, ...body.resources] }, manifest };
  }

  private async body(
    manifest: ContentManifest,
    issue: IssueInfo,
    limit: number | null,
    notAfter: Date | null,
    now: Date,
  ): Promise<Pick<Publication, 'contentType' | 'numberOfPages' | 'duration' | 'readingOrder' | 'resources' | 'toc' | 'links'>> {
    const content = {
      signed: (key: string, notAfter: Date | null) => this.deps.content.signed(key, notAfter, now),
      packagePrefix: (key: string, notAfter: Date | null) => this.deps.content.packagePrefix(key, notAfter, now),
      epubKey: (manifest: ContentManifest, limit: number | null) => this.deps.content.epubKey(manifest, limit),
    };
    if (manifest.epub) {
      const fileKey = await content.epubKey(manifest, limit);
      const prefix = content.packagePrefix(fileKey, notAfter);
      const spine = limit === null ? manifest.epub.spine : manifest.epub.spine.slice(0, limit);
      const inShare = new Set(spine.map((chapter) => chapter.href));
      const href = (path: string) => prefix + path.split('/').map(encodeURIComponent).join('/').replace(/%23/g, '#');
      return {
        contentType: 'epub',
        numberOfPages: issue.numberOfPages,
        duration: null,
        readingOrder: spine.map((chapter) => ({ href: href(chapter.href), type: mediaTypeOf(chapter.href), ...(chapter.title && { title: chapter.title }) })),
        resources: [],
        toc: manifest.epub.toc
          .filter((entry) => inShare.has(entry.href.split('#')[0]!))
          .map((entry) => ({ href: href(entry.href), type: mediaTypeOf(entry.href.split('#')[0]!), title: entry.title })),
        links: [{ href: content.signed(fileKey, notAfter), type: 'application/epub+zip', rel: ['alternate'] }],
      };
    }
    if (manifest.pdf) {
      const pages = limit === null ? manifest.pdf.pages : manifest.pdf.pages.slice(0, limit);
      const links = pages.map((page, index) => ({
        href: content.signed(page.key, notAfter),
        type: mediaTypeOf(page.key),
        title: `Page ${index + 1}`,
        ...(page.width > 0 && page.height > 0 && { width: page.width, height: page.height }),
      }));
      return {
        contentType: 'pdf',
        numberOfPages: manifest.pdf.pages.length,
        duration: null,
        readingOrder: links,
        resources: [],
        toc: manifest.pdf.toc
          .filter((entry) => entry.page >= 1 && entry.page <= pages.length)
          .map((entry) => ({ ...links[entry.page - 1]!, title: entry.title })),
        // The PDF itself where it was kept at ingest; never for a preview, which is its first pages only.
        links:
          limit === null && manifest.pdf.file_key
            ? [{ href: content.signed(manifest.pdf.file_key, notAfter), type: 'application/pdf', rel: ['alternate'] }]
            : [],
      };
    }
    const tracks = manifest.audio ? (limit === null ? manifest.audio.tracks : manifest.audio.tracks.slice(0, limit)) : [];
    const links = tracks.map((track) => ({
      href: content.signed(track.key, notAfter),
      type: mediaTypeOf(track.key),
      title: track.title,
      ...(track.duration > 0 && { duration: track.duration }),
    }));
    const total = tracks.reduce((sum, track) => sum + track.duration, 0);
    return {
      contentType: 'audio',
      numberOfPages: null,
      duration: total > 0 ? total : null,
      readingOrder: links,
      resources: [],
      // A track's chapters (as its file marks them) are its entries, each a media fragment of the track.
      toc: links.map(({ href, type, title }, index) => {
        const chapters = tracks[index]!.chapters ?? [];
        const children = chapters.map((chapter) => ({ href: `${href}#t=${chapter.start}`, type, title: chapter.title }));
        return { href, type, title, ...(children.length > 0 && { children }) };
      }),
      links: [],
    };
  }
}
