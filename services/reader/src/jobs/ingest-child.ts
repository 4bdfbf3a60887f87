// The child process one ingest job runs in (jobs/child-runner.ts forks it
// with a bounded V8 heap and kills it after the job's wall clock): whatever a
// hostile file makes the parsers do, only this process runs out of memory or
// time. It reads the upload from storage, ingests it as its content version
// (the manifest switch included), and reports progress and its result to the
// parent over IPC, then exits.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { connectMongo } from '@folio/mongo';
import { ArchiveError, BoundedZip, type ArchiveLimits } from '../archive/zip-reader.js';
import { openReaderRepositories } from '../data/index.js';
import { InvalidContentError } from '../ingest/epub.js';
import { DEFAULT_INGEST_BOUNDS, ingestIssue, type IngestBounds } from '../ingest/ingest.js';
import { TextIndexStore } from '../search/index-store.js';
import { contentStorageOf, type StorageConfig } from '../storage/from-config.js';
import type { ContentStorage } from '../storage/storage.js';
import { pruneVersions } from './versions.js';

/** What the parent sends: the job and the config the child needs (it reads no environment). */
export interface ChildStart {
  type: 'start';
  job: {
    tenantId: number;
    issueId: number;
    issueType: 'epub' | 'pdf' | 'audio';
    mediaType: string;
    uploadKey: string;
    contentHash: string;
    title: string;
    authors: string[];
  };
  version: string;
  config: { mongoUrl: string; storage: StorageConfig; bounds: Partial<IngestBounds>; pdfPageWidth: number };
}

export type ChildMessage =
  | { type: 'progress'; step: string; progress: number }
  | { type: 'done'; ok: true; metadata: unknown; findings: unknown; numberOfPages: number | null }
  | { type: 'done'; ok: false; error: string; retryable: boolean };

const EXTENSIONS: Record<string, string> = {
  'application/epub+zip': 'epub',
  'application/pdf': 'pdf',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/ogg': 'ogg',
};

const send = (message: ChildMessage) => new Promise<void>((resolve) => process.send!(message, undefined, {}, () => resolve()));

/** Errors the file is not to blame for: the same job may succeed once the dependency is back. */
function isOutage(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return (
    (typeof name === 'string' && /^Mongo(Network|ServerSelection|NotConnected)?Error$|MongooseServerSelectionError/.test(name) && name !== 'MongoParseError') ||
    (typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'ENOSPC', 'EIO', 'EMFILE'].includes(code))
  );
}

/** The upload as files ingest reads: the file itself, or an archive's audio tracks in name order. */
async function materialize(storage: ContentStorage, start: ChildStart, work: string, limits: ArchiveLimits): Promise<string[]> {
  const { job } = start;
  if (job.mediaType !== 'application/zip') {
    const source = join(work, `upload.${EXTENSIONS[job.mediaType] ?? 'bin'}`);
    await pipeline(storage.stream(job.uploadKey), createWriteStream(source));
    return [source];
  }
  const stat = await storage.stat(job.uploadKey);
  if (!stat) throw new InvalidContentError('the upload is gone');
  // A track may be far larger than an EPUB entry; the ratio and total bounds still hold.
  const zip = await BoundedZip.fromSource(
    { size: stat.size, stream: (from, to) => storage.stream(job.uploadKey, { start: from, end: to }) },
    { ...limits, maxEntryBytes: Math.max(limits.maxEntryBytes, stat.size), maxTotalBytes: Math.max(limits.maxTotalBytes, stat.size * 2) },
    { label: 'the archive of audio tracks' },
  );
  const names = zip
    .names()
    .filter((name) => !name.endsWith('/') && !name.startsWith('__MACOSX/') && !name.split('/').at(-1)!.startsWith('.'))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (names.length === 0) throw new InvalidContentError('the archive holds no audio track');
  const files: string[] = [];
  for (const [i, name] of names.entries()) {
    const data = await zip.read(name, Math.max(limits.maxEntryBytes, stat.size));
    if (!data) continue;
    const file = join(
      work,
      `track-${String(i + 1).padStart(3, '0')}-${name
        .split('/')
        .at(-1)!
        .replace(/[^A-Za-z0-9._-]/g, '_')}`,
    );
    await writeFile(file, data);
    files.push(file);
  }
  return files;
}

async function run(start: ChildStart): Promise<ChildMessage> {
  const { job, version, config } = start;
  const connection = await connectMongo(config.mongoUrl);
  const work = await mkdtemp(join(tmpdir(), 'folio-ingest-'));
  try {
    const store = await openReaderRepositories(connection);
    const storage = contentStorageOf(config.storage);
    await pruneVersions(storage, await store.manifests.findSummary({ tenantId: job.tenantId, issueId: job.issueId }), job.tenantId, job.issueId, version);
    await send({ type: 'progress', step: 'reading', progress: 2 });
    const files = await materialize(storage, start, work, config.bounds.archive ?? DEFAULT_INGEST_BOUNDS.archive);
    const report = await ingestIssue(
      { storage, manifests: store.manifests, indexes: new TextIndexStore(storage, 64), bounds: config.bounds },
      {
        tenantId: job.tenantId,
        issueId: job.issueId,
        type: job.issueType,
        files,
        ...(job.title && { title: job.title }),
        ...(job.authors[0] && { author: job.authors[0] }),
        sourceHash: job.contentHash,
        version,
        pdfPageWidth: config.pdfPageWidth,
        onProgress: (step, progress) => void send({ type: 'progress', step, progress }),
      },
    );
    const { manifest } = report;
    return { type: 'done', ok: true, metadata: report.metadata, findings: report.findings, numberOfPages: manifest.pdf ? manifest.pdf.pages.length : null };
  } catch (error) {
    if (error instanceof InvalidContentError || error instanceof ArchiveError)
      return { type: 'done', ok: false, error: sentenceOf(error.message), retryable: false };
    if (isOutage(error)) return { type: 'done', ok: false, error: 'Storage or the database was unavailable while processing the file.', retryable: true };
    const message = error instanceof Error ? error.message : String(error);
    return { type: 'done', ok: false, error: sentenceOf(`the file could not be read (${message})`), retryable: false };
  } finally {
    await rm(work, { recursive: true, force: true });
    await connection.close().catch(() => {});
  }
}

/** A reason as a publisher reads it: a capital first letter and a full stop. */
const sentenceOf = (text: string) => {
  const trimmed = text.trim().replace(/[.\s]+$/, '');
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}.`;
};

process.once('message', (message: ChildStart) => {
  run(message)
    .then(send)
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
});
