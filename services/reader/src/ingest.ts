// Ingest CLI: stores an issue's content and records its manifest and text index.
//   node dist/ingest.js <file> --tenant <id> --issue <id> [--type epub|pdf|audio] [--title <t>] [--author <a>]
//   node dist/ingest.js track1.mp3 track2.mp3 --tenant 1 --issue 1003      (audio: the tracks in order)
// Prints what the file says of itself (its metadata, as JSON) and the validation findings (EPUBCheck's
// for an EPUB, skipped with --skip-epubcheck; reader's own for PDFs and audio), one a line.
// Reads MONGO_URL, the content storage (READER_STORAGE and its keys), PDF_PAGE_WIDTH and the archive and ingest bounds
// (ARCHIVE_*, INGEST_DEADLINE_SECONDS, PDF_TOOL_TIMEOUT_SECONDS, PDF_TOOL_MAX_MB) like the service. A file
// that cannot be read safely fails with the reason and exit status 1, nothing stored.
import { open } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { connectMongo } from '@folio/mongo';
import { archiveLimitsOf, loadReaderConfig } from './config.js';
import { openReaderRepositories } from './data/index.js';
import { audioContainerOf } from './ingest/audio.js';
import { ingestIssue } from './ingest/ingest.js';
import { TextIndexStore } from './search/index-store.js';
import { contentStorageOf } from './storage/from-config.js';

const TYPES: Record<string, 'epub' | 'pdf' | 'audio'> = {
  '.epub': 'epub',
  '.pdf': 'pdf',
  '.mp3': 'audio',
  '.m4a': 'audio',
  '.m4b': 'audio',
  '.mp4': 'audio',
  '.ogg': 'audio',
  '.oga': 'audio',
  '.opus': 'audio',
};

/** The content type from the file's first bytes, for a name that does not tell (audio is checked by content again). */
async function sniffType(file: string): Promise<'epub' | 'pdf' | 'audio' | undefined> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const bytes = head.subarray(0, bytesRead);
    if (bytes.toString('latin1', 0, 5) === '%PDF-') return 'pdf';
    if (bytes.toString('latin1', 0, 4) === 'PK\x03\x04' && bytes.includes('application/epub+zip')) return 'epub';
    return audioContainerOf(bytes) ? 'audio' : undefined;
  } finally {
    await handle.close();
  }
}
const USAGE =
  'usage: node dist/ingest.js <file...> --tenant <id> --issue <id> [--type epub|pdf|audio] [--title <title>] [--author <author>] [--skip-epubcheck]';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      tenant: { type: 'string' },
      issue: { type: 'string' },
      type: { type: 'string' },
      title: { type: 'string' },
      author: { type: 'string' },
      'skip-epubcheck': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const tenantId = Number(values.tenant);
  const issueId = Number(values.issue);
  if (positionals.length === 0 || !Number.isInteger(tenantId) || tenantId < 1 || !Number.isInteger(issueId) || issueId < 1) throw new Error(USAGE);
  const type =
    (values.type as 'epub' | 'pdf' | 'audio' | undefined) ?? TYPES[extname(positionals[0]!).toLowerCase()] ?? (await sniffType(resolve(positionals[0]!)));
  if (!type || !['epub', 'pdf', 'audio'].includes(type)) throw new Error(`cannot tell the content type of ${positionals[0]}; pass --type`);

  // Interrupted (Ctrl-C, a stopped job): the ingest stops, its poppler runs are killed and its temporary files
  // removed before the process exits.
  const interrupted = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => interrupted.abort(new Error(`interrupted (${signal})`)));
  }
  const config = loadReaderConfig();
  const connection = await connectMongo(config.MONGO_URL);
  try {
    const store = await openReaderRepositories(connection);
    const storage = contentStorageOf(config);
    const started = performance.now();
    const { manifest, metadata, findings, indexMs } = await ingestIssue(
      {
        storage,
        manifests: store.manifests,
        indexes: new TextIndexStore(storage, 64),
        bounds: {
          archive: archiveLimitsOf(config),
          deadlineMs: config.INGEST_DEADLINE_SECONDS * 1000,
          toolTimeoutMs: config.PDF_TOOL_TIMEOUT_SECONDS * 1000,
          toolMaxMemoryBytes: config.PDF_TOOL_MAX_MB * 1024 * 1024,
        },
      },
      {
        tenantId,
        issueId,
        type,
        files: positionals.map((file) => resolve(file)),
        ...(values.title ? { title: values.title } : {}),
        ...(values.author ? { author: values.author } : {}),
        pdfPageWidth: config.PDF_PAGE_WIDTH,
        signal: interrupted.signal,
        validate: !values['skip-epubcheck'],
      },
    );
    const parts = manifest.epub
      ? `${manifest.epub.spine.length} chapters, ${manifest.epub.total_words} words`
      : manifest.pdf
        ? `${manifest.pdf.pages.length} pages`
        : `${manifest.audio!.tracks.length} tracks, ${Math.round(manifest.audio!.tracks.reduce((s, t) => s + t.duration, 0))} s`;
    console.log(
      `reader: ingested ${type} "${manifest.title}" as tenant ${tenantId} issue ${issueId}: ${parts}, ${manifest.sections} text sections ` +
        `(index ${indexMs.toFixed(0)} ms, total ${(performance.now() - started).toFixed(0)} ms)`,
    );
    console.log(`metadata: ${JSON.stringify(metadata)}`);
    console.log(`findings: ${findings.length}`);
    for (const finding of findings) {
      console.log(`  ${finding.severity} ${finding.code}${finding.location ? ` ${finding.location}` : ''}: ${finding.message}`);
    }
  } finally {
    await connection.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`reader: ingest failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
