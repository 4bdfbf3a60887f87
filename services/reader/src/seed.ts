// Loads the demo dataset's content into reader: the dataset gives text, so
// the seed builds real files from it (an EPUB 3 per EPUB issue, a PDF per PDF
// issue, MP3 tracks spoken by espeak-ng and encoded by lame) and runs them
// through the same ingest as the CLI. Idempotent and quick on re-runs: an
// issue whose source (text, metadata, colors, builder version) hashes the
// same as at its last ingest, and whose files are still stored, is skipped.
//   node dist/seed.js            (FIXTURES_PATH overrides the dataset file)
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { connectMongo, type Connection } from '@folio/mongo';
import { speakToMp3 } from './build/audio.js';
import { buildEpub } from './build/epub.js';
import { buildPdf, pageTitle } from './build/pdf.js';
import { loadReaderConfig } from './config.js';
import { openReaderRepositories } from './data/index.js';
import type { ManifestDoc } from './data/schemas.js';
import { coverSvg } from './ingest/cover.js';
import { ingestIssue, registerPhysicalIssue, type IngestDeps } from './ingest/ingest.js';
import { TextIndexStore } from './search/index-store.js';
import type { ContentStorage } from './storage/storage.js';
import { contentStorageOf, describeStorage } from './storage/from-config.js';

/**
 * Bumped when the builders or the ingest change what they produce, so every issue is rebuilt once
 * (2: the OPF identifier `urn:folio:<tenant>:<issue>`, each chapter's byte length for the positions list).
 */
const BUILD_VERSION = 2;

export interface DatasetIssue {
  id: number;
  tenant_id: number;
  name: string;
  type: 'epub' | 'pdf' | 'audio' | 'physical';
  lang: string;
  author: string;
  publisher?: string;
  description?: string;
  content: {
    format?: string;
    chapters?: { title: string; text: string }[];
    pages?: { text: string }[];
    tracks?: { title: string; text: string }[];
  } | null;
}

export interface ReaderDataset {
  tenants: { id: number; colors?: { primary: string; secondary: string } }[];
  issues: DatasetIssue[];
}

export interface SeedSummary {
  built: number;
  unchanged: number;
  physical: number;
}

export async function seedReader(
  deps: { connection: Connection; storage: ContentStorage; pdfPageWidth?: number; print?: (line: string) => void; only?: number[] },
  dataset: ReaderDataset,
): Promise<SeedSummary> {
  const store = await openReaderRepositories(deps.connection);
  const ingest: IngestDeps = { storage: deps.storage, manifests: store.manifests, indexes: new TextIndexStore(deps.storage, 16) };
  const print = deps.print ?? (() => {});
  const colors = new Map(dataset.tenants.map((tenant) => [tenant.id, tenant.colors ?? null]));
  const issues = deps.only ? dataset.issues.filter((issue) => deps.only!.includes(issue.id)) : dataset.issues;
  const summary: SeedSummary = { built: 0, unchanged: 0, physical: 0 };

  for (const [position, issue] of issues.entries()) {
    const label = `[${position + 1}/${issues.length}] issue ${issue.id} (${issue.type}) "${issue.name}"`;
    const started = performance.now();
    const coverColors = colors.get(issue.tenant_id) ?? null;
    const sourceHash = createHash('sha256')
      .update(JSON.stringify({ v: BUILD_VERSION, issue: { ...issue, description: issue.description ?? '' }, coverColors }))
      .digest('hex');
    const existing = await store.manifests.find({ tenantId: issue.tenant_id, issueId: issue.id });
    if (existing && existing.source_hash === sourceHash && (await filesPresent(deps.storage, existing))) {
      summary.unchanged += 1;
      print(`reader: ${label}: unchanged`);
      continue;
    }

    const hasContent = issue.content && (issue.content.chapters?.length || issue.content.pages?.length || issue.content.tracks?.length);
    if (issue.type === 'physical' || !hasContent) {
      await registerPhysicalIssue(ingest, { tenantId: issue.tenant_id, issueId: issue.id, title: issue.name, author: issue.author, coverColors, sourceHash });
      summary.physical += 1;
      print(`reader: ${label}: no digital content, cover only (${Math.round(performance.now() - started)} ms)`);
      continue;
    }

    const directory = await mkdtemp(join(tmpdir(), `reader-seed-${issue.id}-`));
    try {
      const files: string[] = [];
      let trackTitles: string[] | undefined;
      if (issue.type === 'epub') {
        const epub = await buildEpub({
          identifier: `urn:folio:${issue.tenant_id}:${issue.id}`,
          title: issue.name,
          lang: issue.lang,
          author: issue.author,
          publisher: issue.publisher ?? null,
          description: issue.description ?? null,
          chapters: issue.content!.chapters!,
          coverSvg: coverSvg({ title: issue.name, author: issue.author, colors: coverColors }),
        });
        files.push(join(directory, 'book.epub'));
        await writeFile(files[0]!, epub);
      } else if (issue.type === 'pdf') {
        const pdf = await buildPdf({
          title: issue.name,
          author: issue.author,
          pages: issue.content!.pages!.map((page) => ({ text: page.text, title: pageTitle(page.text) })),
        });
        files.push(join(directory, 'issue.pdf'));
        await writeFile(files[0]!, pdf);
      } else {
        const tracks = issue.content!.tracks!;
        trackTitles = tracks.map((track) => track.title);
        for (const [index, track] of tracks.entries()) {
          const mp3 = await speakToMp3({
            text: track.text,
            lang: issue.lang,
            title: track.title,
            artist: issue.author,
            album: issue.name,
            track: { number: index + 1, of: tracks.length },
          });
          const file = join(directory, `track-${index + 1}.mp3`);
          await writeFile(file, mp3);
          files.push(file);
        }
      }
      const { manifest } = await ingestIssue(ingest, {
        tenantId: issue.tenant_id,
        issueId: issue.id,
        type: issue.type,
        files,
        title: issue.name,
        author: issue.author,
        ...(trackTitles ? { trackTitles } : {}),
        coverColors,
        sourceHash,
        pdfPageWidth: deps.pdfPageWidth ?? 1200,
        // Our own demo books: EPUBCheck's findings would tell no publisher anything, and its JVM
        // start is most of a seeded EPUB's time.
        validate: false,
      });
      summary.built += 1;
      print(`reader: ${label}: built and ingested, ${describe(manifest)} (${Math.round(performance.now() - started)} ms)`);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }
  return summary;
}

async function filesPresent(storage: ContentStorage, manifest: ManifestDoc): Promise<boolean> {
  // Ingested before e-reader files were kept (the PDF itself, KOReader's document hash): build again.
  if ((manifest.type === 'epub' || manifest.type === 'pdf') && !manifest.document_hash) return false;
  if (manifest.type === 'pdf' && !manifest.pdf?.file_key) return false;
  const keys = [
    manifest.cover_key,
    manifest.epub?.file_key,
    manifest.pdf?.file_key,
    manifest.pdf?.pages.at(-1)?.key,
    manifest.audio?.tracks.at(-1)?.key,
    manifest.text_index_key,
  ].filter((key): key is string => typeof key === 'string');
  for (const key of keys) if (!(await storage.stat(key))) return false;
  return true;
}

function describe(manifest: ManifestDoc): string {
  if (manifest.epub) return `${manifest.epub.spine.length} chapters, ${manifest.epub.total_words} words`;
  if (manifest.pdf) return `${manifest.pdf.pages.length} pages`;
  if (manifest.audio) return `${manifest.audio.tracks.length} tracks, ${manifest.audio.tracks.map((t) => `${t.duration.toFixed(1)} s`).join(' + ')}`;
  return 'no content';
}

async function main(): Promise<void> {
  const config = loadReaderConfig();
  const path = config.FIXTURES_PATH ?? fileURLToPath(new URL('../../../fixtures/demo-dataset.json', import.meta.url));
  const dataset = JSON.parse(await readFile(path, 'utf8')) as ReaderDataset;
  const connection = await connectMongo(config.MONGO_URL);
  try {
    const started = performance.now();
    const summary = await seedReader(
      { connection, storage: contentStorageOf(config), pdfPageWidth: config.PDF_PAGE_WIDTH, print: (line) => console.log(line) },
      dataset,
    );
    console.log(
      `reader: seeded ${dataset.issues.length} issues from ${path} into ${describeStorage(config)}: ${summary.built} built, ` +
        `${summary.unchanged} unchanged, ${summary.physical} without digital content (${Math.round(performance.now() - started)} ms)`,
    );
  } finally {
    await connection.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`reader: seed failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
