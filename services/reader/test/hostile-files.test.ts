// No file can hurt reader: hostile and broken EPUBs, written by Python's
// zipfile (test/support/hostile-epubs.py), fail the ingest with a message a
// publisher understands and write nothing; the package path and the preview
// builder refuse a stored bomb without inflating it; the peak memory of a
// process that meets one stays bounded (measured in a child process, from
// the built code the service and the CLI run). Also the process bounds of an
// ingest: poppler runs stopped by their timeout and by the ingest's deadline.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { EPub } from 'epub2';
import { createLogger } from '@folio/logger';
import { connectMongo, type Connection } from '@folio/mongo';
import { freshMongoUrl } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveError, BoundedZip, DEFAULT_ARCHIVE_LIMITS, InflateBudget } from '../src/archive/zip-reader.js';
import { buildPdf } from '../src/build/pdf.js';
import { openReaderRepositories } from '../src/data/index.js';
import { InvalidContentError } from '../src/ingest/epub.js';
import { buildPreviewEpub } from '../src/ingest/epub-preview.js';
import { ingestIssue, type IngestDeps } from '../src/ingest/ingest.js';
import { pngSize, run, ToolError } from '../src/ingest/tools.js';
import { PackageFiles } from '../src/media/package-files.js';
import { startMediaServer } from '../src/media/server.js';
import { MediaUrls } from '../src/media/signing.js';
import { TextIndexStore } from '../src/search/index-store.js';
import { LocalDiskStorage } from '../src/storage/local-disk.js';

const exec = promisify(execFile);
const support = (name: string) => fileURLToPath(new URL(`./support/${name}`, import.meta.url));
const cli = fileURLToPath(new URL('../dist/ingest.js', import.meta.url));
/**
 * Peak RSS allowed to a child process that meets a bomb. A bare CLI run peaks
 * at 70-100 MB; any of these bombs inflated whole would add 200 MB.
 */
const PEAK_RSS_MB = 180;

let directory: string;
let files: string;
let storeDir: string;
let mongo: { url: string };
let connection: Connection;
let deps: IngestDeps;
let storage: LocalDiskStorage;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'reader-hostile-'));
  files = join(directory, 'files');
  storeDir = join(directory, 'store');
  await exec('python3', [support('hostile-epubs.py'), files]);
  mongo = freshMongoUrl('reader_hostile');
  connection = await connectMongo(mongo.url);
  const store = await openReaderRepositories(connection);
  storage = new LocalDiskStorage(storeDir);
  deps = { storage, manifests: store.manifests, indexes: new TextIndexStore(storage, 8) };
}, 120_000);
afterAll(async () => {
  await connection?.dropDatabase().catch(() => {});
  await connection?.close();
  await rm(directory, { recursive: true, force: true });
});

/** Every file under the content store, as storage keys. */
async function storedKeys(): Promise<string[]> {
  const entries = await readdir(storeDir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(storeDir, join(entry.parentPath, entry.name)));
}

/** Runs `args` in a child node process and reads its peak RSS (report-peak-rss.mjs). */
async function inChild(args: string[], env: Record<string, string> = {}) {
  const result = await exec(process.execPath, ['--import', support('report-peak-rss.mjs'), ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
  const peak = /peak-rss-kb=(\d+)/.exec(result.stderr)?.[1];
  expect(peak, result.stderr).toBeDefined();
  return { ...result, peakMb: Number(peak) / 1024 };
}

const refused: [file: string, reason: RegExp][] = [
  ['spine-bomb.epub', /^OEBPS\/chapter-2\.xhtml in the EPUB is 200 MB uncompressed, more than the 64 MB allowed for one file$/],
  ['image-bomb.epub', /^OEBPS\/images\/plate\.png in the EPUB is 100 MB uncompressed, more than the 64 MB allowed for one file$/],
  ['ratio-bomb.epub', /^OEBPS\/images\/plate\.png in the EPUB expands \d+ times when uncompressed \(at most 100 allowed\): it looks like a zip bomb$/],
  ['lying-spine.epub', /^OEBPS\/chapter-2\.xhtml in the EPUB inflates to more than it declares.*: it looks like a zip bomb$/],
  ['lying-image.epub', /^OEBPS\/images\/plate\.png in the EPUB inflates to more than it declares.*: it looks like a zip bomb$/],
  ['big-xml.epub', /^OEBPS\/chapter-2\.xhtml in the EPUB is 9\.0 MB uncompressed, more than the 8\.0 MB allowed$/],
  ['entities.epub', /^OEBPS\/chapter-1\.xhtml is not well-formed XML: entity not found/],
  ['many-entries.epub', /^the EPUB holds 10008 files, more than the 10000 allowed$/],
  ['slip-parent.epub', /^the EPUB cannot be read safely: invalid relative path: \.\.\/\.\.\/outside\.xhtml$/],
  ['slip-absolute.epub', /^the EPUB cannot be read safely: absolute path: \/tmp\/outside\.xhtml$/],
  ['symlink.epub', /^the EPUB holds a symbolic link \(OEBPS\/link\.xhtml\), which is not allowed$/],
  ['duplicate.epub', /^the EPUB holds OEBPS\/chapter-1\.xhtml twice$/],
  ['truncated.epub', /^the EPUB is not a readable zip archive \(.*truncated.*\)$/],
];

describe('EPUB ingest of hostile and broken files', () => {
  it.each(refused)('when %s is ingested, then it fails with the reason and nothing is stored', async (file, reason) => {
    const failure = await ingestIssue(deps, { tenantId: 7, issueId: 7100, type: 'epub', files: [join(files, file)] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidContentError);
    expect((failure as Error).message).toMatch(reason);
    expect(await storedKeys()).toEqual([]);
    expect(await deps.manifests.find({ tenantId: 7, issueId: 7100 })).toBeNull();
  });

  it('when a good EPUB is ingested, then it reads as before, epub2 reads it, and everything stored is under the issue', async () => {
    const file = join(files, 'good.epub');
    const { manifest } = await ingestIssue(deps, { tenantId: 7, issueId: 7101, type: 'epub', files: [file] });
    expect(manifest.epub?.spine.map((chapter) => chapter.href)).toEqual(['chapter-1.xhtml', 'chapter-2.xhtml']);
    expect(manifest.epub?.total_words).toBeGreaterThan(0);
    const book = await EPub.createAsync(file);
    expect(book.flow.map((item: { id?: string }) => item.id)).toEqual(['c1', 'c2']);
    for (const key of await storedKeys()) expect(key).toMatch(/^(7\/7101|_index\/7\/7101)\//);
  });

  it.each([
    ['spine-bomb.epub', /chapter-2\.xhtml in the EPUB is 200 MB uncompressed/],
    ['lying-spine.epub', /chapter-2\.xhtml in the EPUB inflates to more than it declares/],
    ['lying-image.epub', /plate\.png in the EPUB inflates to more than it declares/],
  ])(
    'when the CLI ingests %s, then it exits 1 with the reason, within bounded memory',
    async (file, reason) => {
      const { code, stderr, peakMb } = await inChild([cli, join(files, file), '--tenant', '7', '--issue', '7102'], {
        MONGO_URL: mongo.url,
        READER_STORAGE_DIR: join(directory, 'cli-store'),
      });
      expect(code).toBe(1);
      expect(stderr).toMatch(/reader: ingest failed: /);
      expect(stderr).toMatch(reason);
      expect(peakMb).toBeLessThan(PEAK_RSS_MB);
    },
    60_000,
  );
});

describe('stored packages at read time (package path, preview builder)', () => {
  // Packages stored before the limits held, as a running service could find them.
  const stored = async (file: string, issue: number) => {
    const key = `7/${issue}/book.epub`;
    await storage.put(key, await readFile(join(files, file)));
    return key;
  };

  it('when a file of a good package is read, then its bytes come back; a missing one is null', async () => {
    const key = await stored('good.epub', 7201);
    const packages = new PackageFiles(storage);
    expect((await packages.read(key, 'chapter-1.xhtml'))?.toString()).toContain('<h1>One</h1>');
    expect(await packages.read(key, 'chapter-9.xhtml')).toBeNull();
    expect(await packages.read(key, '../../7201/book.epub')).toBeNull();
  });

  it('when the bomb inside a stored package is requested, then the package path refuses it and the rest still reads', async () => {
    const key = await stored('lying-image.epub', 7202);
    const packages = new PackageFiles(storage);
    await expect(packages.read(key, 'images/plate.png')).rejects.toThrow(/plate\.png in the EPUB inflates to more than it declares/);
    expect((await packages.read(key, 'chapter-2.xhtml'))?.toString()).toContain('<h1>Two</h1>');
    const honest = await stored('image-bomb.epub', 7203);
    await expect(packages.read(honest, 'chapter-1.xhtml')).rejects.toBeInstanceOf(ArchiveError);
  });

  it('when many package files are requested at once, then what they inflate at a time stays within the shared budget', async () => {
    const keys = [await stored('good.epub', 7205), await stored('good.epub', 7206)];
    const packages = new PackageFiles(storage, { ...DEFAULT_ARCHIVE_LIMITS, maxEntryBytes: 1024 }, 1024);
    const paths = ['chapter-1.xhtml', 'nav.xhtml', 'content.opf', 'chapter-1.xhtml', 'nav.xhtml', 'content.opf'];
    const files = await Promise.all(keys.flatMap((key) => paths.map((path) => packages.read(key, path))));
    expect(files.every((file) => file && file.length > 0)).toBe(true);
    expect(packages.budget.peak).toBeGreaterThan(0);
    // Together they are about 5 KB.
    expect(packages.budget.peak).toBeLessThanOrEqual(1024);
  });

  it('when the budget is taken, then later reads wait in line and start as bytes are given back', async () => {
    const budget = new InflateBudget(100);
    const started: number[] = [];
    const take = (bytes: number, id: number) => budget.take(bytes).then((taken) => (started.push(id), taken));
    const first = await take(60, 1);
    const second = take(60, 2);
    const third = take(10, 3);
    await new Promise(setImmediate);
    expect(started).toEqual([1]); // 3 would fit, but waits behind 2
    budget.give(first);
    expect(await second).toBe(60);
    expect(await third).toBe(10);
    expect(started).toEqual([1, 2, 3]);
    expect(budget.peak).toBe(70);
    budget.give(60);
    budget.give(10);
    expect(await budget.take(500)).toBe(100); // one read bigger than the budget takes it all
  });

  it('when the media server is asked for the bomb inside a package, then 422 with the reason, and the other files still serve', async () => {
    const key = await stored('lying-image.epub', 7204);
    const urls = new MediaUrls('http://127.0.0.1:1/media', 'hostile-files-test-signing-key', 600);
    const media = await startMediaServer(
      { storage, urls, logger: createLogger({ service: 'reader', level: 'silent' }), coverKeyOf: async () => null },
      0,
      '127.0.0.1',
    );
    try {
      const prefix = urls.signedPackagePrefix(key).replace('http://127.0.0.1:1/media', `http://127.0.0.1:${media.port}`);
      const bomb = await fetch(`${prefix}images/plate.png`);
      expect(bomb.status).toBe(422);
      expect(((await bomb.json()) as { message: string }).message).toMatch(
        /^This file of the publication cannot be served: OEBPS\/images\/plate\.png in the EPUB inflates to more than it declares.*\.$/,
      );
      const chapter = await fetch(`${prefix}chapter-1.xhtml`);
      expect(chapter.status).toBe(200);
      expect(await chapter.text()).toContain('<h1>One</h1>');
    } finally {
      await media.close();
    }
  });

  it.each([
    ['lying-image.epub', 'package', 'images/plate.png', /inflates to more than it declares/],
    ['lying-image.epub', 'preview', '1', /inflates to more than it declares/],
    ['image-bomb.epub', 'preview', '1', /100 MB uncompressed, more than the 64 MB allowed/],
    ['spine-bomb.epub', 'preview', '1', /200 MB uncompressed, more than the 64 MB allowed/],
  ])(
    'when %s is opened by the %s code of the service, then it is refused within bounded memory',
    async (file, mode, argument, reason) => {
      const key = await stored(file, 7210);
      const { stdout, peakMb } = await inChild([support('open-stored-epub.mjs'), storeDir, key, mode, argument]);
      const outcome = JSON.parse(stdout.trim().split('\n').at(-1)!) as { ok: boolean; message?: string };
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toMatch(reason);
      expect(peakMb).toBeLessThan(PEAK_RSS_MB);
    },
    60_000,
  );

  it('when a preview of a good package is built, then Python reads it, the first chapter is in and the second is out', async () => {
    const key = await stored('good.epub', 7220);
    const info = (await storage.stat(key))!;
    const preview = await buildPreviewEpub({ size: info.size, stream: (start, end) => storage.stream(key, { start, end }) }, 1);
    const path = join(directory, 'preview.epub');
    await writeFile(path, preview);
    const { stdout } = await exec('python3', [
      '-c',
      'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(z.namelist()[0]); print(" ".join(sorted(z.namelist()))); print(z.read("OEBPS/content.opf").decode())',
      path,
    ]);
    const [first, names, opf] = [stdout.split('\n')[0], stdout.split('\n')[1], stdout.split('\n').slice(2).join('\n')];
    expect(first).toBe('mimetype');
    expect(names).toContain('OEBPS/chapter-1.xhtml');
    expect(names).not.toContain('OEBPS/chapter-2.xhtml');
    expect(names).toContain('OEBPS/images/plate.png');
    expect(opf).not.toContain('idref="c2"');
    // The kept files are copied still compressed: they read back as they were.
    const zip = await BoundedZip.fromBuffer(preview, DEFAULT_ARCHIVE_LIMITS);
    expect((await zip.read('OEBPS/chapter-1.xhtml'))?.toString()).toContain('<h1>One</h1>');
    expect((await zip.read('mimetype'))?.toString()).toBe('application/epub+zip');
  });
});

describe('process bounds of an ingest', () => {
  it('when a tool runs past its timeout, then it is killed and the error says so', async () => {
    const failure = await run('sleep', ['60'], { timeoutMs: 200 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolError);
    expect((failure as Error).message).toBe('sleep took longer than the 200 ms allowed and was stopped');
  });

  // A 20,000-pixel-wide page needs about 1.6 GB of bitmap; under the cap poppler's allocation fails.
  it.skipIf(!existsSync('/usr/bin/prlimit'))('when a page render needs more memory than allowed, then it fails saying so, not with an empty page', async () => {
    const file = join(directory, 'wide.pdf');
    await writeFile(file, await buildPdf({ title: 'Wide', pages: [{ text: 'One page.' }] }));
    const args = ['-png', '-f', '1', '-l', '1', '-scale-to-x', '20000', '-scale-to-y', '-1', file, join(directory, 'wide')];
    const failure = await run('pdftoppm', args, { maxMemoryBytes: 256 * 1024 * 1024 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolError);
    expect((failure as Error).message).toBe('pdftoppm needed more than the 256 MB of memory allowed');
    // The same page at a page width renders under the same cap.
    await run('pdftoppm', ['-png', '-f', '1', '-l', '1', '-scale-to-x', '600', '-scale-to-y', '-1', file, join(directory, 'narrow')], {
      maxMemoryBytes: 256 * 1024 * 1024,
    });
    expect(pngSize(await readFile(join(directory, 'narrow-1.png'))).width).toBe(600);
  });

  it('when the ingest is aborted, then the running tool is killed and the abort reason is the error', async () => {
    const controller = new AbortController();
    const running = run('sleep', ['60'], { signal: controller.signal }).catch((error: unknown) => error);
    controller.abort(new InvalidContentError('stopped by the test'));
    expect(await running).toMatchObject({ message: 'stopped by the test' });
  });

  it('when a PDF is ingested, then its pages go to storage from a work folder on disk, which is removed afterwards, also on failure', async () => {
    const file = join(directory, 'pages.pdf');
    await writeFile(file, await buildPdf({ title: 'Pages', pages: [{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }] }));
    const work = join(directory, 'tmp');
    await mkdir(work);
    const before = process.env.TMPDIR;
    process.env.TMPDIR = work;
    try {
      const { manifest } = await ingestIssue(deps, { tenantId: 7, issueId: 7301, type: 'pdf', files: [file], pdfPageWidth: 200 });
      expect(manifest.pdf?.pages.map((page) => page.width)).toEqual([200, 200, 200]);
      const stored = await storage.get(manifest.pdf!.pages[2]!.key);
      expect(pngSize(stored!)).toMatchObject({ width: 200 });
      expect(await readdir(work)).toEqual([]);
      await expect(
        ingestIssue({ ...deps, bounds: { deadlineMs: 0 } }, { tenantId: 7, issueId: 7302, type: 'pdf', files: [file], pdfPageWidth: 200 }),
      ).rejects.toBeInstanceOf(InvalidContentError);
      expect(await readdir(work)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });

  it("when a PDF ingest passes its deadline, then it fails with the deadline's reason and stores nothing", async () => {
    const file = join(directory, 'deadline.pdf');
    await writeFile(file, await buildPdf({ title: 'Deadline', pages: [{ text: 'One page.' }, { text: 'Two pages.' }] }));
    // A deadline already passed when the first poppler run starts.
    const failure = await ingestIssue(
      { ...deps, bounds: { deadlineMs: 0 } },
      { tenantId: 7, issueId: 7300, type: 'pdf', files: [file], pdfPageWidth: 200 },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidContentError);
    expect((failure as Error).message).toBe('reading the file took longer than the 0 ms allowed for one issue');
    expect((await storedKeys()).filter((key) => key.startsWith('7/7300/'))).toEqual([]);
  });
});
