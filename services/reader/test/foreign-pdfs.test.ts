// PDFs made by other tools: groff (gropdf) writes them, qpdf rewrites them the
// way other producers ship them: blank info fields, an owner password with
// copying and printing restricted, a page 3 pt wide and 14,400 pt long, a
// catalog /Lang (qpdf's QDF form edited as text, then fix-qdf). Each is
// ingested through the real ingest into a scratch database and storage and
// every page image read back. groff and qpdf are installed by ./dev; a missing
// one fails the test.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connectMongo, type Connection } from '@folio/mongo';
import { freshMongoUrl } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReaderRepositories } from '../src/data/index.js';
import { ingestIssue, type IngestDeps } from '../src/ingest/ingest.js';
import { infoFields, MAX_SIDE_FACTOR } from '../src/ingest/pdf.js';
import { pngSize } from '../src/ingest/tools.js';
import { TextIndexStore } from '../src/search/index-store.js';
import { LocalDiskStorage } from '../src/storage/local-disk.js';

const exec = promisify(execFile);
let directory: string;
let connection: Connection;
let storage: LocalDiskStorage;
let deps: IngestDeps;
let groffPdf: string;

const MS = `.pdfinfo /Author "Ana Autora"
.pdfbookmark 1 Primero
.NH
Primero
.PP
La primera página del texto.
.bp
.pdfbookmark 1 Segundo
.NH
Segundo
.PP
Palabras de la segunda página.
`;

async function groff(name: string, source: string): Promise<string> {
  await writeFile(join(directory, `${name}.ms`), source);
  const { stdout } = await exec('groff', ['-ms', '-mpdfmark', '-Tpdf', '-k', join(directory, `${name}.ms`)], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  const file = join(directory, `${name}.pdf`);
  await writeFile(file, stdout);
  return file;
}

/** The PDF rewritten by qpdf in its QDF form, edited as text (each `[from, to]` once, in order), then repaired by fix-qdf. */
async function edited(source: string, name: string, edits: [string, string, number?][]): Promise<string> {
  const qdf = join(directory, `${name}.qdf.pdf`);
  await exec('qpdf', ['--qdf', '--object-streams=disable', source, qdf]);
  let text = await readFile(qdf, 'latin1');
  for (const [from, to, occurrence = 1] of edits) {
    let at = -1;
    for (let i = 0; i < occurrence; i++) at = text.indexOf(from, at + 1);
    if (at === -1) throw new Error(`${name}: no ${from}`);
    text = text.slice(0, at) + to + text.slice(at + from.length);
  }
  await writeFile(qdf, text, 'latin1');
  const { stdout } = await exec('fix-qdf', [qdf], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  const file = join(directory, `${name}.pdf`);
  await writeFile(file, stdout);
  return file;
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'reader-foreign-pdfs-'));
  connection = await connectMongo(freshMongoUrl('reader_foreign_pdfs').url);
  const store = await openReaderRepositories(connection);
  storage = new LocalDiskStorage(join(directory, 'store'));
  deps = { storage, manifests: store.manifests, indexes: new TextIndexStore(storage, 8) };
  groffPdf = await groff('groff', MS);
});
afterAll(async () => {
  await connection?.dropDatabase().catch(() => {});
  await connection?.close();
  await rm(directory, { recursive: true, force: true });
});

let nextIssue = 9200;

async function ingestAndRead(file: string, pdfPageWidth = 300) {
  const issueId = nextIssue++;
  const { manifest } = await ingestIssue(deps, { tenantId: 9, issueId, type: 'pdf', files: [file], pdfPageWidth });
  const images = [];
  for (const page of manifest.pdf!.pages) {
    const image = await storage.get(page.key);
    expect(image, page.key).not.toBeNull();
    expect(pngSize(image!)).toEqual({ width: page.width, height: page.height });
    images.push(pngSize(image!));
  }
  return { manifest, images };
}

describe('PDFs from groff and qpdf', () => {
  it('when groff writes a PDF with bookmarks, then pages, text, outline and author are read', async () => {
    const { manifest, images } = await ingestAndRead(groffPdf);
    expect(images).toEqual([
      { width: 300, height: 425 },
      { width: 300, height: 425 },
    ]);
    expect(manifest.pdf!.toc).toEqual([
      { title: 'Primero', page: 1 },
      { title: 'Segundo', page: 2 },
    ]);
    expect(manifest.title).toBe('groff.pdf');
    expect(manifest.lang).toBeNull();
  });

  it('when the info fields are blank, then the title is the file name and the author none, not the next field', async () => {
    const file = await edited(groffPdf, 'blank-info', [['  /Author (Ana Autora)', '  /Title ()\n  /Author ()\n  /Subject ()\n  /Keywords ()']]);
    expect((await exec('pdfinfo', [file])).stdout).toMatch(/^Title:\s*\nSubject:/m);
    const { manifest } = await ingestAndRead(file);
    expect(manifest.title).toBe('blank-info.pdf');
    expect((await deps.manifests.find({ tenantId: 9, issueId: nextIssue - 1 }))?.title).toBe('blank-info.pdf');
    expect(infoFields('Title:           \nSubject:        \nAuthor:   Ana\nPage size: 3 x 4 pts')).toEqual(
      new Map([
        ['Title', ''],
        ['Subject', ''],
        ['Author', 'Ana'],
        ['Page size', '3 x 4 pts'],
      ]),
    );
  });

  it('when the PDF has only an owner password restricting copying and printing, then it is read like any other', async () => {
    const file = join(directory, 'owner-password.pdf');
    await exec('qpdf', ['--encrypt', '', 'owner-secret', '256', '--print=none', '--extract=n', '--modify=none', '--', groffPdf, file]);
    expect((await exec('pdfinfo', [file])).stdout).toMatch(/^Encrypted:\s+yes/m);
    const { manifest } = await ingestAndRead(file);
    expect(manifest.pdf!.pages).toHaveLength(2);
    expect(manifest.pdf!.toc.map((entry) => entry.title)).toEqual(['Primero', 'Segundo']);
    expect(manifest.sections).toBeGreaterThanOrEqual(2);
  });

  it('when a page is 3 x 14,400 pt, then its image is bounded by its longer side, and the other pages keep the width', async () => {
    const file = await edited(groffPdf, 'strip', [['  /Type /Page\n', '  /MediaBox [0 0 3 14400]\n  /Type /Page\n', 2]]);
    expect((await exec('pdfinfo', ['-f', '2', '-l', '2', file])).stdout).toMatch(/Page\s+2 size:\s+3 x 14400 pts/);
    const { images } = await ingestAndRead(file, 300);
    expect(images[0]).toEqual({ width: 300, height: 425 });
    expect(images[1]!.height).toBe(300 * MAX_SIDE_FACTOR);
    expect(images[1]!.width).toBeGreaterThanOrEqual(1);
    expect(images[1]!.width).toBeLessThanOrEqual(2);
  });

  it('when the catalog names a language, then the manifest has it', async () => {
    const file = await edited(groffPdf, 'lang', [['  /Type /Catalog', '  /Lang (es-ES)\n  /Type /Catalog']]);
    const { manifest } = await ingestAndRead(file);
    expect(manifest.lang).toBe('es-ES');
  });

  it('when the ingest is stopped while pages render, then no temporary page image is left behind', async () => {
    const pages = Array.from({ length: 120 }, (_, i) => `.NH\nPágina ${i + 1}\n.PP\nTexto de la página ${i + 1}.\n.bp\n`).join('');
    const file = await groff('long', pages);
    const scratch = join(directory, 'tmp');
    await rm(scratch, { recursive: true, force: true });
    await exec('mkdir', ['-p', scratch]);
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    const stop = new AbortController();
    try {
      const ingest = ingestIssue(deps, { tenantId: 9, issueId: nextIssue++, type: 'pdf', files: [file], pdfPageWidth: 1200, signal: stop.signal });
      let settled = false;
      ingest.then(
        () => (settled = true),
        () => (settled = true),
      );
      // Stopped once the first page image is on disk (an ingest that ended first fails the expectation below).
      while (!settled) {
        const folders = await readdir(scratch);
        const images = (await Promise.all(folders.map((folder) => readdir(join(scratch, folder)).catch(() => [])))).flat();
        if (images.some((name) => name.endsWith('.png'))) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      stop.abort(new Error('stopped by the test'));
      await expect(ingest).rejects.toThrow('stopped by the test');
      expect(await readdir(scratch)).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
  });
});
