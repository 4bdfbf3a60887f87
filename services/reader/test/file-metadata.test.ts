// What ingest reads from files other tools made, and the findings it
// reports: pandoc EPUB 2 and 3 with several creators and their roles, an
// ISBN, a publisher, a cover image and a right-to-left spine; a fixed-layout
// EPUB 3 written by hand (Python's zipfile) with accessibility metadata in
// the EPUB 2 form; EPUB Accessibility 1.1 metadata added to a pandoc EPUB as
// the e2e corpus does; EPUBCheck's findings for a broken link; a LibreOffice
// PDF with its outline, and the same PDF with an owner password (qpdf); an
// ffmpeg M4B with two chapters. Ingest runs into a scratch database and
// storage. pandoc, LibreOffice, qpdf, ffmpeg, python3 and EPUBCheck are
// installed by ./dev; a missing one fails the test.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connectMongo, type Connection } from '@folio/mongo';
import { freshMongoUrl } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReaderRepositories } from '../src/data/index.js';
import type { ManifestRepository } from '../src/domain/repositories.js';
import { readEpub } from '../src/ingest/epub.js';
import { coverImageOf } from '../src/ingest/cover.js';
import { isbnDigits, languageTag, normalizeIdentifier } from '../src/ingest/epub-metadata.js';
import { validateEpub } from '../src/ingest/epubcheck.js';
import { ingestIssue, type IngestDeps } from '../src/ingest/ingest.js';
import { TextIndexStore } from '../src/search/index-store.js';
import { LocalDiskStorage } from '../src/storage/local-disk.js';

const exec = promisify(execFile);
const REWRITE = fileURLToPath(new URL('./support/rewrite-zip.py', import.meta.url));
let directory: string;
let connection: Connection;
let deps: IngestDeps;
let manifests: ManifestRepository;
let nextIssue = 9500;

const MARKDOWN = `---
title: Relatos del río
creator:
  - role: author
    text: Ana Autora
  - role: author
    text: Bruno Segundo
  - role: translator
    text: Carla Traductora
publisher: Ediciones Norte
identifier:
  - scheme: ISBN-13
    text: 978-3-16-148410-0
description: Tres relatos del río y su niebla.
lang: es
page-progression-direction: rtl
cover-image: cover.png
---

# Niebla

El río amaneció cubierto de niebla.

# La cuerda

La cuerda azul era de la fábrica de velas.

# El faro

El faro se apagó al amanecer.
`;

/** EPUB Accessibility 1.1 metadata as the e2e corpus adds it to a pandoc EPUB 3. */
const A11Y_META = [
  '<meta property="schema:accessMode">textual</meta>',
  '<meta property="schema:accessModeSufficient">textual</meta>',
  '<meta property="schema:accessibilityFeature">tableOfContents</meta>',
  '<meta property="schema:accessibilityFeature">readingOrder</meta>',
  '<meta property="schema:accessibilityHazard">none</meta>',
  '<meta property="schema:accessibilitySummary">Text only, with a table of contents and headings in reading order.</meta>',
  '<link rel="dcterms:conformsTo" href="http://www.idpf.org/epub/a11y/accessibility-20170105.html#wcag-aa"/>',
].join('');

/** A fixed-layout EPUB 3 as a comics tool writes it, its accessibility in the EPUB 2 meta form. */
const FIXED_LAYOUT = `
import sys, zipfile
page = '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Page</title><meta name="viewport" content="width=600, height=800"/></head><body><p>Panel one.</p></body></html>'
nav = '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body><nav epub:type="toc"><ol><li><a href="p1.xhtml">One</a></li><li><a href="p2.xhtml">Two</a></li></ol></nav></body></html>'
opf = '''<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="uid">6F1B8C1E-8F5D-4C5E-9A57-3F1E2D0C4B7A</dc:identifier>
    <dc:identifier>isbn:0-306-40615-2</dc:identifier>
    <dc:title>Harbour Comics</dc:title>
    <dc:language>en</dc:language>
    <dc:creator>Kim Artist</dc:creator>
    <dc:contributor>Lee Colour</dc:contributor>
    <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
    <meta property="rendition:layout">pre-paginated</meta>
    <meta name="schema:accessMode" content="visual"/>
    <meta name="schema:accessMode" content="textual"/>
    <meta name="schema:accessModeSufficient" content="textual,visual"/>
    <meta name="schema:accessibilityHazard" content="noFlashingHazard"/>
    <meta property="dcterms:conformsTo">EPUB Accessibility 1.1 - WCAG 2.1 Level A</meta>
    <meta property="a11y:certifiedBy">Harbour Accessibility Lab</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="p1" href="p1.xhtml" media-type="application/xhtml+xml"/>
    <item id="p2" href="p2.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine><itemref idref="p1"/><itemref idref="p2"/></spine>
</package>'''
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    z.writestr('mimetype', 'application/epub+zip', compress_type=zipfile.ZIP_STORED)
    z.writestr('META-INF/container.xml', '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>', compress_type=zipfile.ZIP_DEFLATED)
    z.writestr('OPS/book.opf', opf, compress_type=zipfile.ZIP_DEFLATED)
    z.writestr('OPS/nav.xhtml', nav, compress_type=zipfile.ZIP_DEFLATED)
    z.writestr('OPS/p1.xhtml', page, compress_type=zipfile.ZIP_DEFLATED)
    z.writestr('OPS/p2.xhtml', page, compress_type=zipfile.ZIP_DEFLATED)
`;

/** Three pages: LibreOffice breaks before each h2 (it ignores page breaks on sections). */
const MAGAZINE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tide Tables</title></head><body>
<h1>Tide Tables</h1><p>High water at the north pier.</p>
<h2 style="page-break-before: always">Moorings</h2><p>Winter moorings are open to visitors.</p>
<h2 style="page-break-before: always">Notices</h2><p>The lighthouse is closed for repairs.</p>
</body></html>`;

const CHAPTERS = `;FFMETADATA1
title=Harbour Voices
artist=Ines Varga
[CHAPTER]
TIMEBASE=1/1000
START=0
END=2000
title=Morning
[CHAPTER]
TIMEBASE=1/1000
START=2000
END=4000
title=Evening
`;

const file = (name: string) => join(directory, name);

async function rewrite(source: string, name: string, spec: object): Promise<string> {
  const child = exec('python3', [REWRITE, source, file(name)]);
  child.child.stdin!.end(JSON.stringify(spec));
  await child;
  return file(name);
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'reader-file-metadata-'));
  connection = await connectMongo(freshMongoUrl('reader_file_metadata').url);
  const store = await openReaderRepositories(connection);
  const storage = new LocalDiskStorage(join(directory, 'store'));
  manifests = store.manifests;
  deps = { storage, manifests, indexes: new TextIndexStore(storage, 8) };
  await exec('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=navy:s=60x90', '-frames:v', '1', file('cover.png')]);
  await writeFile(file('book.md'), MARKDOWN);
  await exec('pandoc', [file('book.md'), '-t', 'epub3', '--epub-chapter-level=1', '-o', file('pandoc3.epub')], { cwd: directory });
  await exec('pandoc', [file('book.md'), '-t', 'epub2', '--epub-chapter-level=1', '-o', file('pandoc2.epub')], { cwd: directory });
  await writeFile(file('fixed.py'), FIXED_LAYOUT);
  await exec('python3', [file('fixed.py'), file('fixed.epub')]);
}, 60_000);
afterAll(async () => {
  await connection?.dropDatabase().catch(() => {});
  await connection?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('identifiers', () => {
  it('when an identifier is an ISBN in any spelling, then it is urn:isbn with its digits; a UUID is urn:uuid; others stay as written', () => {
    expect(normalizeIdentifier('978-3-16-148410-0', '')).toBe('urn:isbn:9783161484100');
    expect(normalizeIdentifier('urn:isbn:0-306-40615-2', '')).toBe('urn:isbn:0306406152');
    expect(normalizeIdentifier('9783161484100', '15')).toBe('urn:isbn:9783161484100');
    expect(normalizeIdentifier('6F1B8C1E-8F5D-4C5E-9A57-3F1E2D0C4B7A', '')).toBe('urn:uuid:6f1b8c1e-8f5d-4c5e-9a57-3f1e2d0c4b7a');
    expect(normalizeIdentifier('NW-2026-17', '')).toBe('NW-2026-17');
    // A number that fails the ISBN checksum is not an ISBN.
    expect(isbnDigits('978-3-16-148410-1')).toBeNull();
  });
});

describe('language', () => {
  it("when a file's language is a tag, then it is kept in canonical case; a locale is read as its tag; pandoc's `C` is no language", () => {
    expect(languageTag('pt-br')).toBe('pt-BR');
    expect(languageTag('en_US')).toBe('en-US');
    expect(languageTag('C')).toBe('');
    expect(languageTag('')).toBe('');
  });
});

describe('cover images', () => {
  it('when a cover image is JPEG, PNG or GIF of a sane size, then it is one; an image claiming 100,000 px square or another format is not', async () => {
    await exec('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=red:s=64x96', '-frames:v', '1', file('cover.jpg')]);
    expect(coverImageOf(await readFile(file('cover.jpg')))).toMatchObject({ mediaType: 'image/jpeg', width: 64, height: 96 });
    expect(coverImageOf(await readFile(file('cover.png')))).toMatchObject({ mediaType: 'image/png', width: 60, height: 90 });
    const huge = Buffer.from(await readFile(file('cover.png')));
    huge.writeUInt32BE(100_000, 16);
    huge.writeUInt32BE(100_000, 20);
    expect(coverImageOf(huge)).toBeNull();
    expect(coverImageOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeNull();
  });
});

describe('EPUB metadata', () => {
  it('when pandoc writes an EPUB 3 with accessibility metadata added, then ingest reports every creator by role, the ISBN, cover, direction and accessibility, and stores them', async () => {
    const source = file('pandoc3.epub');
    const opf = (
      await exec('python3', ['-c', 'import sys, zipfile; print([n for n in zipfile.ZipFile(sys.argv[1]).namelist() if n.endswith(".opf")][0])', source])
    ).stdout.trim();
    const epub = await rewrite(source, 'a11y.epub', { edit: { [opf]: [['</metadata>', `${A11Y_META}</metadata>`]] } });
    const issueId = nextIssue++;
    const report = await ingestIssue(deps, { tenantId: 9, issueId, type: 'epub', files: [epub] });
    expect(report.metadata).toEqual({
      title: 'Relatos del río',
      authors: ['Ana Autora', 'Bruno Segundo'],
      contributors: [{ name: 'Carla Traductora', role: 'trl' }],
      publisher: 'Ediciones Norte',
      lang: 'es',
      description: 'Tres relatos del río y su niebla.',
      identifiers: ['urn:isbn:9783161484100'],
      number_of_pages: null,
      duration_seconds: null,
      // Every spine document but the navigation document: pandoc's cover and title pages and the three chapters.
      chapters: 5,
      layout: 'reflowable',
      reading_progression: 'rtl',
      has_cover: true,
      accessibility: {
        conforms_to: ['http://www.idpf.org/epub/a11y/accessibility-20170105.html#wcag-aa'],
        access_modes: ['textual'],
        access_modes_sufficient: ['textual'],
        features: ['tableOfContents', 'readingOrder'],
        hazards: ['none'],
        summary: 'Text only, with a table of contents and headings in reading order.',
        certified_by: null,
      },
    });
    // EPUBCheck ran: pandoc's package passes, with nothing fatal.
    expect(Array.isArray(report.findings)).toBe(true);
    expect(report.findings.filter((finding) => finding.severity === 'fatal' || finding.code.startsWith('FOLIO-EPUBCHECK'))).toEqual([]);
    expect((await manifests.find({ tenantId: 9, issueId }))?.metadata).toEqual(report.metadata);
    // The book's own cover is the issue's: the image inside the cover, a PNG rendered at 200 px inside the thumbnail.
    const cover = (await deps.storage.get(report.manifest.cover_key))!.toString('utf8');
    expect(cover).toContain(`data:image/png;base64,${(await readFile(file('cover.png'))).toString('base64')}`);
    const thumbnail = (await deps.storage.get(report.manifest.thumbnail_key))!.toString('utf8');
    const png = Buffer.from(/data:image\/png;base64,([^"]+)"/.exec(thumbnail)![1]!, 'base64');
    expect(png.readUInt32BE(16)).toBe(200);
  });

  it('when pandoc writes an EPUB 2, then opf:role sorts the creators and the cover named by <meta name="cover"> counts', async () => {
    const epub = await readEpub(await readFile(file('pandoc2.epub')));
    expect(epub.metadata).toMatchObject({
      authors: ['Ana Autora', 'Bruno Segundo'],
      contributors: [{ name: 'Carla Traductora', role: 'trl' }],
      identifiers: ['urn:isbn:9783161484100'],
      publisher: 'Ediciones Norte',
      has_cover: true,
      layout: 'reflowable',
    });
  });

  it('when a fixed-layout EPUB 3 declares its accessibility in EPUB 2 metas, then layout is fixed and every declaration is read', async () => {
    const epub = await readEpub(await readFile(file('fixed.epub')));
    expect(epub.chapters).toBe(2);
    expect(epub.metadata).toMatchObject({
      title: 'Harbour Comics',
      authors: ['Kim Artist'],
      contributors: [{ name: 'Lee Colour', role: 'ctb' }],
      identifiers: ['urn:uuid:6f1b8c1e-8f5d-4c5e-9a57-3f1e2d0c4b7a', 'urn:isbn:0306406152'],
      layout: 'fixed',
      reading_progression: 'auto',
      has_cover: false,
      accessibility: {
        conforms_to: ['EPUB Accessibility 1.1 - WCAG 2.1 Level A'],
        access_modes: ['visual', 'textual'],
        access_modes_sufficient: ['textual,visual'],
        features: [],
        hazards: ['noFlashingHazard'],
        summary: null,
        certified_by: 'Harbour Accessibility Lab',
      },
    });
  });

  it('when an EPUB has no accessibility metadata, then accessibility is null', async () => {
    const epub = await readEpub(await readFile(file('pandoc2.epub')));
    expect(epub.metadata.accessibility).toBeNull();
  });
});

describe('validateEpub (EPUBCheck)', () => {
  it('when a chapter links to a file the EPUB lacks, then EPUBCheck reports the error where it is, and reader still reads the book', async () => {
    const broken = await rewrite(file('pandoc3.epub'), 'broken.epub', {
      edit: { 'EPUB/text/ch001.xhtml': [['</h1>', '</h1><p><a href="missing.xhtml">Next</a></p>']] },
    });
    const findings = await validateEpub(broken, { timeoutMs: 120_000 });
    const missing = findings.find((finding) => finding.severity === 'error' && finding.code.startsWith('RSC-'));
    expect(missing, JSON.stringify(findings)).toBeDefined();
    expect(missing!.location).toMatch(/^EPUB\/text\/ch001\.xhtml:\d+(:\d+)?$/);
    expect(missing!.message).toMatch(/missing\.xhtml/);
    await expect(readEpub(await readFile(broken))).resolves.toMatchObject({ chapters: 5 });
  });

  it('when EPUBCheck is not installed, then the one finding says so and nothing fails', async () => {
    const findings = await validateEpub(file('fixed.epub'), { command: join(directory, 'no-such-epubcheck') });
    expect(findings).toEqual([{ severity: 'info', code: 'FOLIO-EPUBCHECK-001', message: expect.stringMatching(/not installed/) }]);
  });

  it('when EPUBCheck runs past its time, then it is stopped and the one finding says so', async () => {
    const findings = await validateEpub(file('fixed.epub'), { timeoutMs: 50 });
    expect(findings).toEqual([{ severity: 'info', code: 'FOLIO-EPUBCHECK-002', message: expect.stringMatching(/did not finish within/) }]);
  });

  it('when the ingest is aborted while EPUBCheck runs, then the abort is thrown', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error('deadline')), 100);
    await expect(validateEpub(file('fixed.epub'), { signal: stop.signal })).rejects.toThrow('deadline');
  });
});

describe('PDF metadata and findings', () => {
  it('when LibreOffice writes a 3-page PDF and qpdf gives a copy an owner password, then pages and outline are read and the password is a finding', async () => {
    await writeFile(file('magazine.html'), MAGAZINE_HTML);
    await exec(
      'soffice',
      ['--headless', `-env:UserInstallation=file://${directory}/lo-profile`, '--convert-to', 'pdf', '--outdir', directory, file('magazine.html')],
      {
        timeout: 120_000,
      },
    );
    const plain = await ingestIssue(deps, { tenantId: 9, issueId: nextIssue++, type: 'pdf', files: [file('magazine.pdf')], pdfPageWidth: 300 });
    expect(plain.metadata).toMatchObject({
      title: 'Tide Tables',
      number_of_pages: 3,
      chapters: 2,
      layout: 'fixed',
      duration_seconds: null,
      accessibility: null,
    });
    expect(plain.findings.map((finding) => finding.code)).not.toContain('FOLIO-PDF-001');

    await exec('qpdf', [
      '--encrypt',
      '',
      'owner-secret',
      '256',
      '--print=none',
      '--modify=none',
      '--extract=n',
      '--',
      file('magazine.pdf'),
      file('locked.pdf'),
    ]);
    const locked = await ingestIssue(deps, { tenantId: 9, issueId: nextIssue++, type: 'pdf', files: [file('locked.pdf')], pdfPageWidth: 300 });
    expect(locked.metadata.number_of_pages).toBe(3);
    expect(locked.findings).toContainEqual(
      expect.objectContaining({ severity: 'warning', code: 'FOLIO-PDF-001', message: expect.stringMatching(/owner password/) }),
    );
  }, 180_000);
});

describe('audio metadata', () => {
  it('when ffmpeg writes an M4B with two chapters, then it is one track with both, and the metadata counts two chapters', async () => {
    await writeFile(file('chapters.txt'), CHAPTERS);
    await exec('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:duration=4',
      '-i',
      file('chapters.txt'),
      '-map_metadata',
      '1',
      '-map_chapters',
      '1',
      '-c:a',
      'aac',
      '-f',
      'ipod',
      file('book.m4b'),
    ]);
    const report = await ingestIssue(deps, { tenantId: 9, issueId: nextIssue++, type: 'audio', files: [file('book.m4b')] });
    expect(report.manifest.audio!.tracks).toHaveLength(1);
    expect(report.manifest.audio!.tracks[0]!.chapters?.map((chapter) => chapter.title)).toEqual(['Morning', 'Evening']);
    expect(report.metadata).toMatchObject({ title: 'Harbour Voices', authors: ['Ines Varga'], chapters: 2, layout: null, number_of_pages: null });
    expect(report.metadata.duration_seconds).toBeCloseTo(4, 0);
    expect(report.findings).toEqual([]);
  });
});
