// What a client gets to read of an issue: the reader session response by
// content type (spec table), with signed URLs that end no later than the
// user's access, and the preview share when the session is a preview.
import { failedPrecondition } from '@folio/errors';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from '../archive/zip-reader.js';
import { InvalidContentError } from '../ingest/epub.js';
import { buildPreviewEpub } from '../ingest/epub-preview.js';
import { keys } from '../ingest/ingest.js';
import type { MediaUrls } from '../media/signing.js';
import type { ContentStorage } from '../storage/storage.js';
import type { TocEntry } from './settings.js';
import type { ContentManifest } from './repositories.js';

export interface EpubSessionContent {
  /** Signed; null in a stored session record. */
  fileUrl: string | null;
  spine: { href: string; idref: string }[];
  totalWords: number;
}

export interface PdfSessionContent {
  /** The signed page images; null in a stored session record. */
  filesUrls: string[] | null;
  filesInfo: { width: number; height: number }[];
}

export interface AudioSessionContent {
  /** `url` is signed; null in a stored session record. Durations in whole seconds. */
  tracks: { title: string; url: string | null; duration: number }[];
}

/**
 * What a reader session shows of an issue: its cover and table of contents
 * and the content of its one type (the others null). How a client receives
 * it is the gateway's to render.
 */
export interface SessionContent {
  cover: string;
  tableOfContents: TocEntry[];
  /** The session shows the preview share only. */
  customPreview: boolean;
  epub: EpubSessionContent | null;
  pdf: PdfSessionContent | null;
  audio: AudioSessionContent | null;
  /** How the file is laid out: `fixed` for PDF pages and fixed-layout EPUBs; null for audio (and sessions stored before it was recorded). */
  layout: 'reflowable' | 'fixed' | null;
  /** The file's reading direction; null when it leaves it to the reader. */
  readingProgression: 'ltr' | 'rtl' | null;
}

/**
 * How much of an issue a preview shows, as the last page (PDF), chapter
 * (EPUB) or track (audio) included: PDF ceil(pages x pct / 100); EPUB the
 * first chapters whose words stay within that share of all words, at least
 * one; audio ceil(tracks x pct / 100).
 */
export function previewLimit(manifest: ContentManifest, percentage: number): number {
  const share = Math.min(100, Math.max(0, percentage)) / 100;
  if (manifest.pdf) return clamp(Math.ceil(manifest.pdf.pages.length * share), 1, manifest.pdf.pages.length);
  if (manifest.audio) return clamp(Math.ceil(manifest.audio.tracks.length * share), 1, manifest.audio.tracks.length);
  if (manifest.epub) {
    const allowed = manifest.epub.total_words * share;
    let words = 0;
    let chapters = 0;
    for (const chapter of manifest.epub.spine) {
      if (words + chapter.words > allowed) break;
      words += chapter.words;
      chapters += 1;
    }
    return clamp(chapters, 1, manifest.epub.spine.length);
  }
  return 0;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

export class ContentLinks {
  constructor(
    private readonly storage: ContentStorage,
    private readonly urls: MediaUrls,
    private readonly archiveLimits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
  ) {}

  cover(manifest: ContentManifest): string {
    return this.urls.public(manifest.cover_key);
  }

  thumbnail(manifest: ContentManifest): string {
    return this.urls.public(manifest.thumbnail_key);
  }

  /**
   * The session content; `limit` (from previewLimit) cuts it to the preview share.
   * Signed URLs expire after the configured lifetime or at `notAfter`, whichever is first.
   */
  async sessionContent(manifest: ContentManifest, options: { limit: number | null; notAfter: Date | null; now?: Date }): Promise<SessionContent> {
    const sign = (key: string) => this.urls.signed(key, { notAfter: options.notAfter, now: options.now });
    const limit = options.limit;
    const content: SessionContent = {
      cover: this.cover(manifest),
      tableOfContents: [],
      customPreview: limit !== null,
      epub: null,
      pdf: null,
      audio: null,
      layout: manifest.pdf ? 'fixed' : manifest.epub ? (manifest.metadata?.layout ?? 'reflowable') : null,
      readingProgression:
        manifest.metadata?.reading_progression === 'ltr' || manifest.metadata?.reading_progression === 'rtl' ? manifest.metadata.reading_progression : null,
    };
    if (manifest.epub) {
      const spine = limit === null ? manifest.epub.spine : manifest.epub.spine.slice(0, limit);
      const inPreview = new Set(spine.map((chapter) => chapter.href));
      const fileKey = await this.epubKey(manifest, limit);
      content.epub = {
        fileUrl: sign(fileKey),
        spine: spine.map(({ href, idref }) => ({ href, idref })),
        totalWords: spine.reduce((sum, chapter) => sum + chapter.words, 0),
      };
      content.tableOfContents = manifest.epub.toc.filter((entry) => inPreview.has(entry.href.split('#')[0]!));
    } else if (manifest.pdf) {
      const pages = limit === null ? manifest.pdf.pages : manifest.pdf.pages.slice(0, limit);
      content.pdf = { filesUrls: pages.map((page) => sign(page.key)), filesInfo: pages.map(({ width, height }) => ({ width, height })) };
      content.tableOfContents = manifest.pdf.toc.filter((entry) => entry.page <= pages.length);
    } else if (manifest.audio) {
      const tracks = limit === null ? manifest.audio.tracks : manifest.audio.tracks.slice(0, limit);
      content.audio = { tracks: tracks.map((track) => ({ title: track.title, url: sign(track.key), duration: Math.round(track.duration) })) };
      content.tableOfContents = tracks.map((track, index) => ({ title: track.title, track: index }));
    }
    return content;
  }

  /** Signed URLs of every file of the issue (download record). */
  fileUrls(manifest: ContentManifest, notAfter: Date | null, now?: Date) {
    const sign = (key: string) => this.urls.signed(key, { notAfter, now });
    return {
      epub: manifest.epub ? sign(manifest.epub.file_key) : null,
      pages: manifest.pdf ? manifest.pdf.pages.map((page) => sign(page.key)) : null,
      tracks: manifest.audio
        ? manifest.audio.tracks.map((track) => ({ title: track.title, url: sign(track.key), duration: Math.round(track.duration) }))
        : null,
    };
  }

  /** The EPUB a session of this preview share reads: the whole package, or the preview package of the first `limit` chapters. */
  async epubKey(manifest: ContentManifest, limit: number | null): Promise<string> {
    if (!manifest.epub) throw new Error(`issue ${manifest.issue_id} has no EPUB`);
    return limit === null || limit >= manifest.epub.spine.length ? manifest.epub.file_key : this.previewEpub(manifest, limit);
  }

  /** A signed URL of a stored file, expiring at `notAfter` at the latest. */
  signed(key: string, notAfter: Date | null, now?: Date): string {
    return this.urls.signed(key, { notAfter, now });
  }

  /** The signed base URL of the files inside an EPUB package (paths relative to its package document follow). */
  packagePrefix(epubKey: string, notAfter: Date | null, now?: Date): string {
    return this.urls.signedPackagePrefix(epubKey, { notAfter, now });
  }

  /** The preview package with the first `chapters` chapters, built once and stored. */
  private async previewEpub(manifest: ContentManifest, chapters: number): Promise<string> {
    // Beside the package it is cut from: a new content version gets its own previews.
    const key = keys.previewEpub(manifest.tenant_id, manifest.issue_id, chapters, manifest.content_version);
    if (await this.storage.stat(key)) return key;
    const fileKey = manifest.epub!.file_key;
    const info = await this.storage.stat(fileKey);
    if (!info) throw new Error(`stored EPUB ${fileKey} is missing`);
    const source = { size: info.size, stream: (start: number, end: number) => this.storage.stream(fileKey, { start, end }) };
    let preview: Buffer;
    try {
      preview = await buildPreviewEpub(source, chapters, this.archiveLimits);
    } catch (error) {
      // A stored package that breaks the archive limits (stored before they held) is refused, not inflated.
      if (error instanceof InvalidContentError) throw failedPrecondition(`The preview of this issue cannot be built: ${error.message}.`, 'CONTENT_INVALID');
      throw error;
    }
    await this.storage.put(key, preview);
    return key;
  }
}
