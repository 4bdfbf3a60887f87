// EPUBs made by another tool (pandoc, EPUB 2 and 3), and rewritten with
// Python's zipfile into the shapes other tools produce: container.xml with
// single quotes, the package document in a nested folder linking `../`,
// percent-encoded and non-ASCII file names, the navigation document in the
// spine. Each is ingested through the real ingest into a scratch database and
// storage, then every chapter and table-of-contents entry is fetched through
// the media code's package path, and the preview builder cuts it. pandoc and
// python3 are installed by ./dev; a missing one fails the test.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createLogger } from '@folio/logger';
import { connectMongo, type Connection } from '@folio/mongo';
import { freshMongoUrl } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReaderRepositories } from '../src/data/index.js';
import { readEpub, InvalidContentError } from '../src/ingest/epub.js';
import { buildPreviewEpub } from '../src/ingest/epub-preview.js';
import { ingestIssue, keys, type IngestDeps } from '../src/ingest/ingest.js';
import { PackageFiles } from '../src/media/package-files.js';
import { startMediaServer } from '../src/media/server.js';
import { MediaUrls } from '../src/media/signing.js';
import { TextIndexStore } from '../src/search/index-store.js';
import { LocalDiskStorage } from '../src/storage/local-disk.js';

const exec = promisify(execFile);
const REWRITE = fileURLToPath(new URL('./support/rewrite-zip.py', import.meta.url));
let directory: string;
let connection: Connection;
let deps: IngestDeps;
let storage: LocalDiskStorage;
let packages: PackageFiles;
let epub2: string;
let epub3: string;

const MARKDOWN = `---
title: Relatos del río
author: Ana Autora
lang: es
---

# Niebla {#niebla}

El río amaneció cubierto de niebla.

Los pescadores esperaron en la orilla.

# La cuerda {#cuerda}

La cuerda azul era de la fábrica de velas.

# El faro {#faro}

El faro se apagó al amanecer.
`;

async function rewrite(source: string, name: string, spec: object): Promise<string> {
  const target = join(directory, name);
  const child = exec('python3', [REWRITE, source, target]);
  child.child.stdin!.end(JSON.stringify(spec));
  await child;
  return target;
}

/** One entry of a zip as text, read with Python's zipfile. */
async function entry(file: string, name: string): Promise<string> {
  return (await exec('python3', ['-c', 'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())', file, name])).stdout;
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'reader-foreign-epubs-'));
  connection = await connectMongo(freshMongoUrl('reader_foreign_epubs').url);
  const store = await openReaderRepositories(connection);
  storage = new LocalDiskStorage(join(directory, 'store'));
  deps = { storage, manifests: store.manifests, indexes: new TextIndexStore(storage, 8) };
  packages = new PackageFiles(storage);
  await writeFile(join(directory, 'book.md'), MARKDOWN);
  epub2 = join(directory, 'pandoc2.epub');
  epub3 = join(directory, 'pandoc3.epub');
  await exec('pandoc', [join(directory, 'book.md'), '-t', 'epub2', '-o', epub2]);
  await exec('pandoc', [join(directory, 'book.md'), '-t', 'epub3', '-o', epub3]);
});
afterAll(async () => {
  await connection?.dropDatabase().catch(() => {});
  await connection?.close();
  await rm(directory, { recursive: true, force: true });
});

let nextIssue = 8100;

/** Ingests the file and reads every spine document and table-of-contents target back through the package path. */
async function ingestAndRead(file: string) {
  const issueId = nextIssue++;
  const { manifest } = await ingestIssue(deps, { tenantId: 8, issueId, type: 'epub', files: [file] });
  const epubKey = keys.epub(8, issueId);
  const chapters: string[] = [];
  for (const chapter of manifest.epub!.spine) {
    const data = await packages.read(epubKey, chapter.href);
    expect(data, `chapter ${chapter.href}`).not.toBeNull();
    chapters.push(data!.toString('utf8'));
  }
  const spineHrefs = new Set(manifest.epub!.spine.map((chapter) => chapter.href));
  for (const entry of manifest.epub!.toc) expect(spineHrefs, `toc entry ${entry.href}`).toContain(entry.href.split('#')[0]);
  return { manifest, chapters };
}

const titles = (toc: { title: string }[]) => toc.map((entry) => entry.title);

describe('EPUBs from pandoc', () => {
  it.each([
    ['EPUB 2', () => epub2],
    ['EPUB 3', () => epub3],
  ])('when pandoc writes an %s, then every chapter is served and the contents list all three', async (_, file) => {
    const { manifest, chapters } = await ingestAndRead(file());
    expect(manifest.title).toBe('Relatos del río');
    expect(manifest.lang).toBe('es');
    expect(titles(manifest.epub!.toc)).toEqual(expect.arrayContaining(['Niebla', 'La cuerda', 'El faro']));
    expect(chapters.join('')).toContain('La cuerda azul');
    expect(manifest.epub!.spine.map((chapter) => chapter.href)).toContain('text/ch002.xhtml');
  });

  it('when container.xml quotes its attributes with single quotes, then the package is found, served and cut for a preview', async () => {
    const container =
      "<?xml version='1.0' encoding='UTF-8'?>\n<container version='1.0' xmlns='urn:oasis:names:tc:opendocument:xmlns:container'>" +
      "<rootfiles><rootfile full-path='EPUB/content.opf' media-type='application/oebps-package+xml'/></rootfiles></container>";
    const file = await rewrite(epub3, 'single-quotes.epub', { put: { 'META-INF/container.xml': container } });
    const { manifest, chapters } = await ingestAndRead(file);
    expect(chapters).toHaveLength(4);
    const preview = await buildPreviewEpub(await readFile(file), 2);
    expect((await readEpub(preview)).spine).toHaveLength(2);
    expect(manifest.epub!.toc.length).toBeGreaterThanOrEqual(3);
  });

  it('when the package document sits in a nested folder and links ../, then names need no .. and every chapter is served', async () => {
    const opf = await entry(epub3, 'EPUB/content.opf');
    const nested = opf.replace(/href="/g, 'href="../');
    const file = await rewrite(epub3, 'nested.epub', {
      rename: { 'EPUB/content.opf': 'EPUB/package/content.opf' },
      put: {
        'EPUB/package/content.opf': nested,
        'META-INF/container.xml':
          '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>' +
          '<rootfile full-path="EPUB/package/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
      },
    });
    const { manifest, chapters } = await ingestAndRead(file);
    expect(manifest.epub!.spine.map((chapter) => chapter.href)).toEqual(['text/title_page.xhtml', 'text/ch001.xhtml', 'text/ch002.xhtml', 'text/ch003.xhtml']);
    expect(chapters[3]).toContain('El faro se apagó');
    expect(titles(manifest.epub!.toc)).toEqual(['Niebla', 'La cuerda', 'El faro']);
    expect(await packages.read(keys.epub(8, nextIssue - 1), 'styles/stylesheet1.css')).not.toBeNull();
    const preview = await buildPreviewEpub(await readFile(file), 2);
    expect((await readEpub(preview)).spine.map((chapter) => chapter.href)).toEqual(['text/title_page.xhtml', 'text/ch001.xhtml']);
  });

  it('when file names are percent-encoded and not ASCII, then spine and contents share the decoded name and every chapter is served', async () => {
    const encode = (text: string, pairs: [string, string][]) => pairs.reduce((acc, [from, to]) => acc.replaceAll(from, to), text);
    const pairs: [string, string][] = [
      ['text/ch001.xhtml', 'text/chapter%20one.xhtml'],
      ['text/ch002.xhtml', 'text/cap%C3%ADtulo%202.xhtml'],
      ['text/ch003.xhtml', 'text/%E7%81%AF%E5%A1%94.xhtml'],
    ];
    const read = (name: string) => entry(epub3, name);
    const file = await rewrite(epub3, 'encoded.epub', {
      rename: {
        'EPUB/text/ch001.xhtml': 'EPUB/text/chapter one.xhtml',
        'EPUB/text/ch002.xhtml': 'EPUB/text/capítulo 2.xhtml',
        'EPUB/text/ch003.xhtml': 'EPUB/text/灯塔.xhtml',
      },
      put: {
        'EPUB/content.opf': encode(await read('EPUB/content.opf'), pairs),
        'EPUB/nav.xhtml': encode(await read('EPUB/nav.xhtml'), pairs),
        'EPUB/toc.ncx': encode(await read('EPUB/toc.ncx'), pairs),
      },
    });
    const { manifest, chapters } = await ingestAndRead(file);
    expect(manifest.epub!.spine.map((chapter) => chapter.href)).toEqual([
      'text/title_page.xhtml',
      'text/chapter one.xhtml',
      'text/capítulo 2.xhtml',
      'text/灯塔.xhtml',
    ]);
    expect(manifest.epub!.toc.map((entry) => entry.href)).toEqual(['text/chapter one.xhtml#niebla', 'text/capítulo 2.xhtml#cuerda', 'text/灯塔.xhtml#faro']);
    expect(chapters[2]).toContain('La cuerda azul');
    // Over HTTP, each name encoded once per segment (as the Readium manifest links it) is served.
    const urls = new MediaUrls('http://127.0.0.1:1/media', 'foreign-epubs-test-signing-key', 600);
    const media = await startMediaServer(
      { storage, urls, logger: createLogger({ service: 'reader', level: 'silent' }), coverKeyOf: async () => null },
      0,
      '127.0.0.1',
    );
    try {
      const prefix = urls.signedPackagePrefix(keys.epub(8, nextIssue - 1)).replace('http://127.0.0.1:1/media', `http://127.0.0.1:${media.port}`);
      for (const chapter of manifest.epub!.spine) {
        const response = await fetch(prefix + chapter.href.split('/').map(encodeURIComponent).join('/'));
        expect(response.status, chapter.href).toBe(200);
        expect(await response.text()).toContain('<body');
      }
      expect((await fetch(`${prefix}text/chapter%2520one.xhtml`)).status).toBe(404);
    } finally {
      await media.close();
    }
    const preview = await readEpub(await buildPreviewEpub(await readFile(file), 3));
    expect(preview.toc.map((entry) => entry.title)).toEqual(['Niebla', 'La cuerda']);
  });

  it('when the navigation document is in the spine, then it is a chapter but its links are not indexed as text', async () => {
    const opf = await entry(epub3, 'EPUB/content.opf');
    const file = await rewrite(epub3, 'nav-in-spine.epub', {
      put: { 'EPUB/content.opf': opf.replace('<itemref idref="title_page_xhtml"', '<itemref idref="nav" />\n    <itemref idref="title_page_xhtml"') },
    });
    const { manifest } = await ingestAndRead(file);
    expect(manifest.epub!.spine[0]).toMatchObject({ href: 'nav.xhtml', idref: 'nav', words: 0 });
    const extract = await readEpub(await readFile(file));
    expect(extract.segments.filter((segment) => segment.page === 1)).toEqual([]);
    expect(extract.segments.some((segment) => segment.text.includes('La cuerda azul'))).toBe(true);
  });

  it.each([
    ['idpf', 'http://www.idpf.org/2008/embedding'],
    ['adobe', 'http://ns.adobe.com/pdf/enc#RC'],
  ])('when a font is obfuscated (%s), then the package path serves the font itself', async (algorithm, uri) => {
    const font = fileURLToPath(import.meta.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'));
    const withFont = join(directory, `font-${algorithm}.source.epub`);
    await exec('pandoc', [join(directory, 'book.md'), '-t', 'epub3', `--epub-embed-font=${font}`, '-o', withFont]);
    const identifier = /<dc:identifier id="epub-id-1">([^<]+)</.exec(await entry(withFont, 'EPUB/content.opf'))![1]!;
    const encryption =
      '<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">' +
      `<enc:EncryptedData><enc:EncryptionMethod Algorithm="${uri}"/><enc:CipherData><enc:CipherReference URI="EPUB/fonts/DejaVuSans.ttf"/></enc:CipherData></enc:EncryptedData></encryption>`;
    const file = await rewrite(withFont, `font-${algorithm}.epub`, {
      put: { 'META-INF/encryption.xml': encryption },
      obfuscate: { names: ['EPUB/fonts/DejaVuSans.ttf'], algorithm, identifier },
    });
    const original = await readFile(font);
    // In the zip, the font's head is scrambled.
    const digest = async (source: string) =>
      (
        await exec('python3', [
          '-c',
          'import hashlib, sys, zipfile; print(hashlib.sha256(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2])).hexdigest())',
          source,
          'EPUB/fonts/DejaVuSans.ttf',
        ])
      ).stdout.trim();
    expect(await digest(file)).not.toBe(await digest(withFont));
    await ingestAndRead(file);
    const served = await packages.read(keys.epub(8, nextIssue - 1), 'fonts/DejaVuSans.ttf');
    expect(served?.equals(original)).toBe(true);
  });

  it('when the EPUB is encrypted otherwise (DRM), then ingest refuses it and says so', async () => {
    const encryption =
      '<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">' +
      '<enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="EPUB/text/ch001.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>';
    const file = await rewrite(epub3, 'drm.epub', { put: { 'META-INF/encryption.xml': encryption } });
    await expect(readEpub(await readFile(file))).rejects.toThrow(/encrypted \(DRM\).*EPUB\/text\/ch001\.xhtml/);
  });

  it('when chapters declare internal entities or use HTML names (EPUB 2 tools), then their text is read with the entities expanded', async () => {
    const chapter = await entry(epub2, 'EPUB/text/ch002.xhtml');
    const file = await rewrite(epub2, 'entities.epub', {
      put: {
        'EPUB/text/ch002.xhtml': chapter
          .replace(/<!DOCTYPE[^>]*>/, '<!DOCTYPE html [\n<!ENTITY fabrica "la f&#225;brica de velas">\n<!ENTITY autora \'Ana Autora\'>\n]>')
          .replace('la fábrica de velas', '&fabrica; (&autora;)&nbsp;&mdash;'),
      },
    });
    const { chapters } = await ingestAndRead(file);
    expect(chapters[2]).toContain('&fabrica;');
    const extract = await readEpub(await readFile(file));
    expect(extract.segments.map((segment) => segment.text).join('\n')).toContain('La cuerda azul era de la fábrica de velas (Ana Autora)\u00a0—');
  });

  it('when documents are UTF-16 or ISO-8859-1, as their byte-order mark or XML declaration says, then their text is read right', async () => {
    const file = await rewrite(epub3, 'encodings.epub', {
      encode: { 'EPUB/content.opf': 'utf-16', 'EPUB/nav.xhtml': 'utf-16', 'EPUB/text/ch002.xhtml': 'iso-8859-1' },
    });
    const { manifest, chapters } = await ingestAndRead(file);
    expect(manifest.title).toBe('Relatos del río');
    expect(titles(manifest.epub!.toc)).toEqual(['Niebla', 'La cuerda', 'El faro']);
    expect(chapters).toHaveLength(4);
    const extract = await readEpub(await readFile(file));
    expect(extract.segments.map((segment) => segment.text).join('\n')).toContain('La cuerda azul era de la fábrica de velas.');
    // The chapter's length is its stored bytes (Readium positions count those).
    const stored = await exec('python3', [
      '-c',
      'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).getinfo(sys.argv[2]).file_size)',
      file,
      'EPUB/text/ch002.xhtml',
    ]);
    expect(manifest.epub!.spine[2]!.bytes).toBe(Number(stored.stdout.trim()));
    const preview = await readEpub(await buildPreviewEpub(await readFile(file), 2));
    expect(preview.title).toBe('Relatos del río');
    expect(preview.spine).toHaveLength(2);
  });

  it('when a manifest href leaves the archive, then ingest refuses it with the item named', async () => {
    const opf = await entry(epub3, 'EPUB/content.opf');
    const file = await rewrite(epub3, 'escape.epub', { put: { 'EPUB/content.opf': opf.replace('href="text/ch001.xhtml"', 'href="../../ch001.xhtml"') } });
    await expect(readEpub(await readFile(file))).rejects.toThrow(InvalidContentError);
    await expect(readEpub(await readFile(file))).rejects.toThrow(/ch001_xhtml .*outside the EPUB/);
  });
});
