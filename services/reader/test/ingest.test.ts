// The ingest pipeline on real files: an EPUB 3, a PDF and an MP3 built the
// way the seed builds them are ingested and parsed back by independent tools
// (the epub2 library, poppler's pdftotext, music-metadata), and the CLI runs.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { EPub } from 'epub2';
import JSZip from 'jszip';
import { parseBuffer } from 'music-metadata';
import { connectMongo, type Connection } from '@folio/mongo';
import { freshMongoUrl } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speakToMp3 } from '../src/build/audio.js';
import { buildEpub } from '../src/build/epub.js';
import { buildPdf } from '../src/build/pdf.js';
import { openReaderRepositories } from '../src/data/index.js';
import type { ReaderRepositories } from '../src/domain/repositories.js';
import { InvalidContentError, readEpub } from '../src/ingest/epub.js';
import { ingestIssue, type IngestDeps } from '../src/ingest/ingest.js';
import { TextIndexStore } from '../src/search/index-store.js';
import { LocalDiskStorage } from '../src/storage/local-disk.js';

const run = promisify(execFile);
let directory: string;
let mongo: { url: string };
let connection: Connection;
let store: ReaderRepositories;
let deps: IngestDeps;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'reader-ingest-'));
  mongo = freshMongoUrl('reader_ingest');
  connection = await connectMongo(mongo.url);
  store = await openReaderRepositories(connection);
  const storage = new LocalDiskStorage(join(directory, 'store'));
  deps = { storage, manifests: store.manifests, indexes: new TextIndexStore(storage, 8) };
});
afterAll(async () => {
  await connection?.dropDatabase().catch(() => {});
  await connection?.close();
  await rm(directory, { recursive: true, force: true });
});

const chapters = [
  { title: 'Capítulo 1: Niebla', text: 'El río amaneció cubierto de niebla.\n\nLos pescadores esperaron en la orilla & no hablaron.' },
  { title: 'Capítulo 2: La cuerda', text: 'La cuerda azul era de la fábrica de velas.' },
];

describe('EPUB ingest', () => {
  it('when a built EPUB 3 is ingested, then epub2 reads it back and the manifest has spine, contents, words and text', async () => {
    const file = join(directory, 'book.epub');
    const data = await buildEpub({
      identifier: 'urn:test:1',
      title: 'Crónicas',
      lang: 'es',
      author: 'Ana Autora',
      chapters,
      coverSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
    await writeFile(file, data);
    // The OCF container: `mimetype` is the first entry, stored uncompressed.
    expect(data.subarray(30, 58).toString()).toBe('mimetypeapplication/epub+zip');
    expect(data.readUInt16LE(8)).toBe(0);

    const book = await EPub.createAsync(file);
    expect(book.metadata.title).toBe('Crónicas');
    expect(book.metadata.language).toBe('es');
    expect(book.flow.map((item: { id?: string }) => item.id)).toEqual(['chapter-1', 'chapter-2']);
    expect(book.toc.map((item: { title?: string }) => item.title)).toEqual(['Capítulo 1: Niebla', 'Capítulo 2: La cuerda']);
    expect(await book.getChapterAsync('chapter-1')).toContain('orilla &amp; no hablaron');

    const { manifest } = await ingestIssue(deps, { tenantId: 7, issueId: 7001, type: 'epub', files: [file] });
    expect(manifest.epub).toMatchObject({
      spine: [
        { href: 'text/chapter-1.xhtml', idref: 'chapter-1', title: 'Capítulo 1: Niebla' },
        { href: 'text/chapter-2.xhtml', idref: 'chapter-2', title: 'Capítulo 2: La cuerda' },
      ],
      toc: [
        { title: 'Capítulo 1: Niebla', href: 'text/chapter-1.xhtml' },
        { title: 'Capítulo 2: La cuerda', href: 'text/chapter-2.xhtml' },
      ],
    });
    // Words of headings and paragraphs: 3 + 6 + 8 + 4 + 9.
    expect(manifest.epub!.total_words).toBe(30);
    expect(manifest).toMatchObject({ type: 'epub', title: 'Crónicas', lang: 'es', sections: 5 });
    expect(await deps.storage.get(manifest.epub!.file_key)).toEqual(data);
    // Each chapter's length in the package, as JSZip inflates it: the Readium positions count a position per 1024 bytes.
    const zip = await JSZip.loadAsync(data);
    for (const chapter of manifest.epub!.spine) {
      const [entry] = zip.file(new RegExp(`(^|/)${chapter.href.replace(/[.]/g, '\\.')}$`));
      expect(chapter.bytes).toBe((await entry!.async('uint8array')).length);
    }

    const extract = await readEpub(data);
    expect(extract.segments.map((s) => [s.page, s.section, s.text])).toEqual([
      [1, 1, 'Capítulo 1: Niebla'],
      [1, 2, 'El río amaneció cubierto de niebla.'],
      [1, 3, 'Los pescadores esperaron en la orilla & no hablaron.'],
      [2, 1, 'Capítulo 2: La cuerda'],
      [2, 2, 'La cuerda azul era de la fábrica de velas.'],
    ]);
    // html > body (/4) > p (2nd element after h1: /4) > text (/1), in the chapter's spine slot /6/2[chapter-1].
    expect(extract.segments[1]!.cfi).toEqual({ doc: '/6/2[chapter-1]', runs: [{ at: 0, path: [4, 4, 1], base: 0 }] });
  });

  it('when the file is not an EPUB, then ingest refuses it and keeps what was stored', async () => {
    const file = join(directory, 'bogus.epub');
    await writeFile(file, 'not a zip');
    await expect(ingestIssue(deps, { tenantId: 7, issueId: 7001, type: 'epub', files: [file] })).rejects.toBeInstanceOf(InvalidContentError);
    expect((await store.manifests.find({ tenantId: 7, issueId: 7001 }))?.type).toBe('epub');
  });
});

describe('PDF ingest', () => {
  it('when a built PDF is ingested, then pdftotext reads each page back and page images have the fixed width', async () => {
    const pages = [
      { text: 'Revista Pampa N° 12. Especial cosecha: el trigo creció.\n\nSegundo párrafo — con “comillas”.', title: 'Especial cosecha' },
      { text: 'Crónica: un viaje en tren de Bahía Blanca.', title: 'Crónica' },
      { text: 'Recetas de otoño: guiso de lentejas.' },
    ];
    const file = join(directory, 'issue.pdf');
    await writeFile(file, await buildPdf({ title: 'Revista', author: 'Redacción', pages }));
    for (const [index, page] of pages.entries()) {
      const { stdout } = await run('pdftotext', ['-layout', '-f', String(index + 1), '-l', String(index + 1), file, '-']);
      expect(stdout.replace(/\s+/g, ' ').trim()).toBe(page.text.replace(/\s+/g, ' ').trim());
    }

    const { manifest } = await ingestIssue(deps, { tenantId: 7, issueId: 7002, type: 'pdf', files: [file], pdfPageWidth: 300 });
    expect(manifest.pdf!.pages).toHaveLength(3);
    for (const page of manifest.pdf!.pages) {
      expect(page.width).toBe(300);
      expect(Math.abs(page.height - (300 * 841.89) / 595.28)).toBeLessThanOrEqual(1);
      const png = (await deps.storage.get(page.key))!;
      expect(png.readUInt32BE(16)).toBe(300);
    }
    expect(manifest.pdf!.toc).toEqual([
      { title: 'Especial cosecha', page: 1 },
      { title: 'Crónica', page: 2 },
    ]);
    expect(manifest).toMatchObject({ type: 'pdf', title: 'Revista', sections: 4 });
    const index = (await deps.indexes.load(manifest.text_index_key!))!;
    expect(index.segments.map((s) => [s.page, s.section, s.pageOffset])).toEqual([
      [1, 1, 0],
      [1, 2, 'Revista Pampa N° 12. Especial cosecha: el trigo creció.'.length + 2],
      [2, 1, 0],
      [3, 1, 0],
    ]);
    expect(index.search('comillas')[0]!.segment.text).toBe('Segundo párrafo — con “comillas”.');
  });

  it('when the file is not a PDF, then ingest refuses it', async () => {
    const file = join(directory, 'bogus.pdf');
    await writeFile(file, 'hello');
    await expect(ingestIssue(deps, { tenantId: 7, issueId: 7009, type: 'pdf', files: [file] })).rejects.toBeInstanceOf(InvalidContentError);
  });
});

describe('audio ingest', () => {
  it('when spoken MP3 tracks are ingested, then music-metadata reads their real durations and tags', async () => {
    const texts = ['The tide goes out quietly before dawn.', 'The night ferry crosses the strait in forty minutes, and the passengers stay on deck.'];
    const files: string[] = [];
    for (const [index, text] of texts.entries()) {
      const mp3 = await speakToMp3({
        text,
        lang: 'en',
        title: `Track ${index + 1}`,
        artist: 'Narrador Ñandú',
        album: 'Tides',
        track: { number: index + 1, of: 2 },
      });
      const metadata = await parseBuffer(mp3, { mimeType: 'audio/mpeg' }, { duration: true });
      expect(metadata.format.container).toBe('MPEG');
      expect(metadata.common.title).toBe(`Track ${index + 1}`);
      expect(metadata.common.artist).toBe('Narrador Ñandú');
      expect(metadata.format.duration).toBeGreaterThan(1);
      files.push(join(directory, `track-${index + 1}.mp3`));
      await writeFile(files[index]!, mp3);
    }
    const { manifest } = await ingestIssue(deps, { tenantId: 7, issueId: 7003, type: 'audio', files });
    expect(manifest).toMatchObject({ type: 'audio', title: 'Tides', text_index_key: null });
    expect(manifest.audio!.tracks.map((t) => t.title)).toEqual(['Track 1', 'Track 2']);
    for (const [index, track] of manifest.audio!.tracks.entries()) {
      const metadata = await parseBuffer(await readFile(files[index]!), { mimeType: 'audio/mpeg' }, { duration: true });
      expect(track.duration).toBeCloseTo(metadata.format.duration!, 3);
    }
    // The longer text speaks longer.
    expect(manifest.audio!.tracks[1]!.duration).toBeGreaterThan(manifest.audio!.tracks[0]!.duration);
  });
});

describe('ingest CLI', () => {
  it('when run on a PDF, then it ingests it and prints a summary', async () => {
    const file = join(directory, 'cli.pdf');
    await writeFile(file, await buildPdf({ title: 'CLI issue', pages: [{ text: 'One page of text for the command line.' }] }));
    const cli = fileURLToPath(new URL('../dist/ingest.js', import.meta.url));
    const { stdout } = await run(process.execPath, [cli, file, '--tenant', '7', '--issue', '7004'], {
      env: { ...process.env, MONGO_URL: mongo.url, READER_STORAGE_DIR: join(directory, 'store'), PDF_PAGE_WIDTH: '200', LOG_LEVEL: 'silent' },
    });
    expect(stdout).toContain('ingested pdf "CLI issue" as tenant 7 issue 7004: 1 pages');
    expect((await store.manifests.find({ tenantId: 7, issueId: 7004 }))?.pdf?.pages[0]?.width).toBe(200);
    await expect(run(process.execPath, [cli, file, '--tenant', 'x'])).rejects.toMatchObject({ stderr: expect.stringContaining('usage:') });
  });
});
