// The ingest pipeline: reads a real EPUB, PDF or set of audio files, stores
// what clients fetch (the EPUB package, page images, tracks, covers), builds
// the text index, and records the issue's manifest. The CLI (ingest.ts at the
// top) and the seed both run through here.
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { DEFAULT_ARCHIVE_LIMITS, formatBytes, type ArchiveLimits } from '../archive/zip-reader.js';
import type { ContentManifest, ContentMetadata, ContentType, ManifestRepository, ValidationFinding } from '../domain/repositories.js';
import type { TextIndexStore } from '../search/index-store.js';
import { TextIndex } from '../search/text-index.js';
import type { ContentStorage } from '../storage/storage.js';
import { readAudioTrack } from './audio.js';
import { coverSvg, ownCoverSvgs, type CoverImage } from './cover.js';
import { InvalidContentError, readEpub } from './epub.js';
import { validateEpub } from './epubcheck.js';
import { audioFindings, audioMetadata, epubMetadata, pdfFindings, pdfMetadata } from './file-report.js';
import { partialMd5 } from './partial-md5.js';
import { readPdf } from './pdf.js';
import { formatDuration } from './tools.js';

export interface IngestDeps {
  storage: ContentStorage;
  manifests: ManifestRepository;
  indexes: TextIndexStore;
  /** How far one ingest may go (the service's config); the defaults otherwise. */
  bounds?: Partial<IngestBounds>;
}

export interface IngestBounds {
  /** Every EPUB is read within these (zip bombs, too many files, names outside the archive). */
  archive: ArchiveLimits;
  /** Reading and converting the files is aborted after this long, its child processes killed. */
  deadlineMs: number;
  /** One poppler run is killed after this long. */
  toolTimeoutMs: number;
  /** Address space of one poppler process. */
  toolMaxMemoryBytes: number;
  /** EPUBCheck is stopped after this long (its findings then say so; the ingest goes on). */
  epubcheckTimeoutMs: number;
  /** EPUBCheck's JVM heap. */
  epubcheckMaxHeapMb: number;
}

export const DEFAULT_INGEST_BOUNDS: IngestBounds = {
  archive: DEFAULT_ARCHIVE_LIMITS,
  deadlineMs: 900_000,
  toolTimeoutMs: 300_000,
  toolMaxMemoryBytes: 512 * 1024 * 1024,
  epubcheckTimeoutMs: 120_000,
  epubcheckMaxHeapMb: 384,
};

export interface IngestInput {
  tenantId: number;
  issueId: number;
  type: Exclude<ContentType, 'physical'>;
  /** The EPUB or PDF file, or the audio tracks in order. */
  files: string[];
  /** Overrides the title read from the file (cover, manifest). */
  title?: string;
  author?: string | null;
  /** Track titles when the files carry no title tag. */
  trackTitles?: string[];
  coverColors?: { primary: string; secondary: string } | null;
  sourceHash?: string | null;
  pdfPageWidth?: number;
  /** Stops the ingest (the CLI interrupted): like the deadline, child processes are killed and temporary files removed. */
  signal?: AbortSignal;
  /** Runs EPUBCheck on an EPUB (default true); the seed, whose EPUBs reader builds itself, skips its JVM. */
  validate?: boolean;
  /**
   * An upload's content version (publishing): its files go to their own folder (`keys`), the
   * live version's stay until the manifest names the new ones, and only this folder is cleared
   * first. Without it (the seed, the CLI) the issue's folder is replaced as a whole.
   */
  version?: string | null;
  /** Told what the ingest is doing (`reading`, `storing`, `indexing`) and how far it is, 0-100. */
  onProgress?: (step: string, progress: number) => void;
}

export interface IngestReport {
  manifest: ContentManifest;
  /** What the file says of itself (also in the manifest). */
  metadata: ContentMetadata;
  /** EPUBCheck's messages for an EPUB, reader's own checks for a PDF or audio; advice, never a refusal. */
  findings: ValidationFinding[];
  /** Milliseconds spent building the text index. */
  indexMs: number;
}

/** Where one version of an issue's files lives: `<tenant>/<issue>` (seeded), or `<tenant>/<issue>/v/<version>` (uploaded). */
export const contentFolder = (tenantId: number, issueId: number, version?: string | null) =>
  version ? `${tenantId}/${issueId}/v/${version}` : `${tenantId}/${issueId}`;

export const keys = {
  folder: (tenantId: number, issueId: number, version?: string | null) => contentFolder(tenantId, issueId, version),
  epub: (tenantId: number, issueId: number, version?: string | null) => `${contentFolder(tenantId, issueId, version)}/book.epub`,
  /** The PDF as ingested: what e-readers download (OPDS) and KOReader hashes. */
  pdf: (tenantId: number, issueId: number, version?: string | null) => `${contentFolder(tenantId, issueId, version)}/book.pdf`,
  previewEpub: (tenantId: number, issueId: number, chapters: number, version?: string | null) =>
    `${contentFolder(tenantId, issueId, version)}/preview-${chapters}.epub`,
  page: (tenantId: number, issueId: number, page: number, version?: string | null) =>
    `${contentFolder(tenantId, issueId, version)}/pages/${String(page).padStart(4, '0')}.png`,
  track: (tenantId: number, issueId: number, track: number, extension: string, version?: string | null) =>
    `${contentFolder(tenantId, issueId, version)}/tracks/${String(track).padStart(2, '0')}.${extension}`,
  cover: (tenantId: number, issueId: number, version?: string | null) => `${contentFolder(tenantId, issueId, version)}/cover.svg`,
  thumbnail: (tenantId: number, issueId: number, version?: string | null) => `${contentFolder(tenantId, issueId, version)}/thumbnail.svg`,
};

const indexFolder = (tenantId: number, issueId: number) => `_index/${tenantId}/${issueId}`;

function assertIds(tenantId: number, issueId: number): void {
  for (const [name, value] of [
    ['tenant', tenantId],
    ['issue', issueId],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) throw new InvalidContentError(`${name} id must be a positive integer`);
  }
}

export async function ingestIssue(deps: IngestDeps, input: IngestInput): Promise<IngestReport> {
  const { tenantId, issueId } = input;
  assertIds(tenantId, issueId);
  if (input.files.length === 0) throw new InvalidContentError('no file to ingest');
  const bounds = { ...DEFAULT_INGEST_BOUNDS, ...deps.bounds };
  // The deadline aborts the reading: archive reads stop, poppler processes are killed, and
  // nothing is written once it passed (the stored issue stays as it was).
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new InvalidContentError(`reading the file took longer than the ${formatDuration(bounds.deadlineMs)} allowed for one issue`)),
    bounds.deadlineMs,
  );
  // Work folders (a PDF's rendered pages, read one at a time when stored) go once the ingest ended.
  const cleanups: (() => Promise<void>)[] = [];
  try {
    return await ingestWithin(deps, input, bounds, input.signal ? AbortSignal.any([deadline.signal, input.signal]) : deadline.signal, cleanups);
  } finally {
    clearTimeout(timer);
    for (const cleanup of cleanups) await cleanup();
  }
}

async function ingestWithin(
  deps: IngestDeps,
  input: IngestInput,
  bounds: IngestBounds,
  signal: AbortSignal,
  cleanups: (() => Promise<void>)[],
): Promise<IngestReport> {
  const { tenantId, issueId } = input;
  const version = input.version ?? null;
  const folder = keys.folder(tenantId, issueId, version);
  const base = {
    _id: `${tenantId}:${issueId}`,
    tenant_id: tenantId,
    issue_id: issueId,
    cover_key: keys.cover(tenantId, issueId, version),
    thumbnail_key: keys.thumbnail(tenantId, issueId, version),
    source_hash: input.sourceHash ?? null,
    content_version: version,
    epub: null,
    pdf: null,
    audio: null,
  };

  // Read everything first: a file that does not parse leaves the stored issue untouched.
  input.onProgress?.('reading', 5);
  let manifest: ContentManifest;
  let metadata: ContentMetadata;
  let findings: ValidationFinding[];
  /** The book's own cover image, which its cover and thumbnail show instead of the generated ones. */
  let ownCover: CoverImage | null = null;
  let index: TextIndex | null = null;
  let indexMs = 0;
  /** What is stored once everything is read: bytes, or a file on disk read when its turn comes. */
  const writes: [string, Buffer | { file: string }][] = [];
  if (input.type === 'epub') {
    if (input.files.length !== 1) throw new InvalidContentError('an EPUB issue is one file');
    // Refused before it is read into memory.
    const { size } = await stat(input.files[0]!);
    if (size > bounds.archive.maxArchiveBytes) {
      throw new InvalidContentError(`the EPUB is ${formatBytes(size)}, more than the ${formatBytes(bounds.archive.maxArchiveBytes)} allowed`);
    }
    const data = await readFile(input.files[0]!);
    const epub = await readEpub(data, { limits: bounds.archive, signal });
    const started = performance.now();
    index = TextIndex.build(epub.segments);
    indexMs = performance.now() - started;
    writes.push([keys.epub(tenantId, issueId, version), data]);
    manifest = {
      ...base,
      type: 'epub',
      title: input.title ?? epub.title,
      lang: epub.lang,
      text_index_key: null,
      document_hash: partialMd5(data),
      sections: epub.segments.length,
      epub: {
        file_key: keys.epub(tenantId, issueId, version),
        size: data.length,
        spine: epub.spine.map(({ href, idref, title, words, bytes }) => ({ href, idref, title, words, bytes })),
        toc: epub.toc,
        total_words: epub.totalWords,
      },
      ingested_at: new Date(),
    };
    input.author ??= epub.author;
    metadata = epubMetadata(epub);
    ownCover = epub.cover;
    // Only a file the bounded reader accepted reaches EPUBCheck (a bomb never does).
    findings =
      input.validate === false
        ? []
        : await validateEpub(input.files[0]!, { timeoutMs: bounds.epubcheckTimeoutMs, maxHeapMb: bounds.epubcheckMaxHeapMb, signal });
  } else if (input.type === 'pdf') {
    if (input.files.length !== 1) throw new InvalidContentError('a PDF issue is one file');
    const data = await readFile(input.files[0]!);
    const pdf = await readPdf(input.files[0]!, {
      pageWidth: input.pdfPageWidth ?? 1200,
      signal,
      toolTimeoutMs: bounds.toolTimeoutMs,
      toolMaxMemoryBytes: bounds.toolMaxMemoryBytes,
    });
    cleanups.push(pdf.dispose);
    const started = performance.now();
    index = TextIndex.build(pdf.segments);
    indexMs = performance.now() - started;
    pdf.pages.forEach((page, i) => writes.push([keys.page(tenantId, issueId, i + 1, version), { file: page.imageFile }]));
    writes.push([keys.pdf(tenantId, issueId, version), data]);
    manifest = {
      ...base,
      type: 'pdf',
      title: input.title ?? pdf.title ?? basename(input.files[0]!),
      lang: pdf.lang,
      text_index_key: null,
      document_hash: partialMd5(data),
      sections: pdf.segments.length,
      pdf: {
        file_key: keys.pdf(tenantId, issueId, version),
        size: data.length,
        pages: pdf.pages.map((page, i) => ({ key: keys.page(tenantId, issueId, i + 1, version), width: page.width, height: page.height, words: page.words })),
        toc: pdf.toc,
      },
      ingested_at: new Date(),
    };
    input.author ??= pdf.author;
    metadata = pdfMetadata(pdf);
    findings = pdfFindings(pdf, input.pdfPageWidth ?? 1200);
  } else {
    const tracks: NonNullable<ContentManifest['audio']>['tracks'] = [];
    const extracts: { extract: Awaited<ReturnType<typeof readAudioTrack>>; fileName: string }[] = [];
    let album: string | null = null;
    for (const [i, file] of input.files.entries()) {
      const data = await readFile(file);
      const track = await readAudioTrack(data, basename(file));
      extracts.push({ extract: track, fileName: basename(file) });
      album ??= track.album;
      input.author ??= track.artist;
      const key = keys.track(tenantId, issueId, i + 1, track.extension, version);
      writes.push([key, data]);
      tracks.push({
        title: input.trackTitles?.[i] ?? track.title ?? basename(file).replace(/\.[^.]+$/, ''),
        key,
        duration: track.duration,
        size: data.length,
        ...(track.chapters.length > 0 && { chapters: track.chapters }),
      });
    }
    manifest = {
      ...base,
      type: 'audio',
      title: input.title ?? album ?? tracks[0]!.title,
      lang: null,
      text_index_key: null,
      sections: 0,
      audio: { tracks },
      ingested_at: new Date(),
    };
    metadata = audioMetadata(extracts.map(({ extract }) => extract));
    findings = audioFindings(extracts);
  }
  manifest.metadata = metadata;

  signal.throwIfAborted();
  input.onProgress?.('storing', 60);
  await deps.storage.deletePrefix(folder);
  for (const [i, [key, data]] of writes.entries()) {
    await deps.storage.put(key, Buffer.isBuffer(data) ? data : await readFile(data.file));
    if (writes.length > 1) input.onProgress?.(`storing ${i + 1}/${writes.length}`, 60 + Math.floor((25 * (i + 1)) / writes.length));
  }
  await writeCovers(
    deps.storage,
    tenantId,
    issueId,
    { title: manifest.title, author: input.author ?? null, colors: input.coverColors ?? null },
    version,
    ownCover,
  );
  input.onProgress?.('indexing', 90);
  // A versioned ingest keeps the live version's index (its readers search it until the manifest switches).
  if (!version) await deps.storage.deletePrefix(indexFolder(tenantId, issueId));
  if (index) manifest.text_index_key = await deps.indexes.save(tenantId, issueId, index);
  // The switch: readers that open the issue from now on get the new files.
  await deps.manifests.save(manifest);
  return { manifest, metadata, findings, indexMs };
}

/** An issue without readable content (physical): a manifest that says so, and its cover. */
export async function registerPhysicalIssue(
  deps: IngestDeps,
  input: {
    tenantId: number;
    issueId: number;
    title: string;
    author?: string | null;
    coverColors?: { primary: string; secondary: string } | null;
    sourceHash?: string | null;
  },
): Promise<ContentManifest> {
  assertIds(input.tenantId, input.issueId);
  await deps.storage.deletePrefix(keys.folder(input.tenantId, input.issueId));
  await deps.storage.deletePrefix(indexFolder(input.tenantId, input.issueId));
  await writeCovers(deps.storage, input.tenantId, input.issueId, { title: input.title, author: input.author ?? null, colors: input.coverColors ?? null });
  const manifest: ContentManifest = {
    _id: `${input.tenantId}:${input.issueId}`,
    tenant_id: input.tenantId,
    issue_id: input.issueId,
    type: 'physical',
    title: input.title,
    lang: null,
    cover_key: keys.cover(input.tenantId, input.issueId),
    thumbnail_key: keys.thumbnail(input.tenantId, input.issueId),
    source_hash: input.sourceHash ?? null,
    text_index_key: null,
    sections: 0,
    epub: null,
    pdf: null,
    audio: null,
    ingested_at: new Date(),
  };
  await deps.manifests.save(manifest);
  return manifest;
}

async function writeCovers(
  storage: ContentStorage,
  tenantId: number,
  issueId: number,
  cover: Parameters<typeof coverSvg>[0],
  version: string | null = null,
  image: CoverImage | null = null,
): Promise<void> {
  const own = image && (await ownCoverSvgs(image, cover.title));
  await storage.put(keys.cover(tenantId, issueId, version), own ? own.cover : coverSvg(cover));
  await storage.put(keys.thumbnail(tenantId, issueId, version), own ? own.thumbnail : coverSvg(cover, { width: 200, height: 300 }));
}
