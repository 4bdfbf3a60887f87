// Publishing's upload and ingest jobs against the real thing: the document
// store (content_jobs, manifests), RabbitMQ (the work queue and reader.events)
// and a local content store, with each job's ingest in its real child process
// (the built dist/jobs/ingest-child.js). Files come from pandoc and Python's
// zipfile, never from reader's own builders.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@folio/logger';
import { Broker, CONTENT_INGESTED, type DomainEvent } from '@folio/messaging';
import { connectMongo, type Connection } from '@folio/mongo';
import { freshMongoUrl, testInfra, uniqueName } from '@folio/testing';
import { MongoContentJobRepository } from '../src/data/content-jobs.js';
import { openReaderRepositories } from '../src/data/index.js';
import {
  ContentUploads,
  IngestJobs,
  versionOf,
  type ContentJobRecord,
  type IngestOutcome,
  type IngestRunner,
  type UploadHeader,
} from '../src/domain/uploads.js';
import { ContentIngestedPublisher } from '../src/events/content-ingested.js';
import { DEFAULT_ARCHIVE_LIMITS } from '../src/archive/zip-reader.js';
import { ChildProcessIngestRunner } from '../src/jobs/child-runner.js';
import { IngestWorkQueue } from '../src/jobs/work-queue.js';
import { LocalDiskStorage } from '../src/storage/local-disk.js';

const exec = promisify(execFile);
const logger = createLogger({ service: 'reader-test', level: 'silent' });
const MB = 1024 * 1024;

let directory: string;
let storageDir: string;
let connection: Connection;
let broker: Broker;
let mongoUrl: string;
let epubA: Buffer;
let epubB: Buffer;
let epubC: Buffer;
let bomb: Buffer;
let tracksZip: Buffer;

/** An EPUB 3 by pandoc from Markdown of a few chapters. */
async function pandocEpub(name: string, title: string, chapters: number): Promise<Buffer> {
  const markdown = [`---\ntitle: ${title}\nauthor: Ines Rocha\nlang: en\n---\n`];
  for (let i = 1; i <= chapters; i += 1) markdown.push(`# Chapter ${i}\n\nThe ${title} chapter ${i} has words like lighthouse${i} and harbour.\n`);
  await writeFile(join(directory, `${name}.md`), markdown.join('\n'));
  await exec('pandoc', [join(directory, `${name}.md`), '-t', 'epub3', '-o', join(directory, `${name}.epub`)]);
  return readFile(join(directory, `${name}.epub`));
}

/** The stream a gRPC call hands the use case: the file in chunks of at most 1 MiB. */
async function* chunksOf(data: Buffer, size = MB): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

const header = (issueId: number, overrides: Partial<UploadHeader> = {}): UploadHeader => ({
  tenantId: 1,
  issueId,
  issueType: 'epub',
  mediaType: 'application/epub+zip',
  declaredBytes: 0,
  title: 'The Tide Tables',
  authors: ['Ines Rocha'],
  uploadedBy: 'api-key:test',
  ...overrides,
});

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'reader-upload-'));
  storageDir = join(directory, 'content');
  mongoUrl = freshMongoUrl('reader_upload').url;
  connection = await connectMongo(mongoUrl);
  broker = await Broker.connect(testInfra().amqpUrl, { logger, name: 'reader-upload-test' });
  [epubA, epubB, epubC] = await Promise.all([
    pandocEpub('a', 'Tide Tables', 3),
    pandocEpub('b', 'Tide Tables Revised', 4),
    pandocEpub('c', 'Tide Tables Third', 2),
  ]);
  // A valid-looking EPUB whose one chapter inflates to 400 MB of spaces (about 400 KB compressed).
  await writeFile(
    join(directory, 'bomb.py'),
    `import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    z.writestr('mimetype', 'application/epub+zip', compress_type=zipfile.ZIP_STORED)
    z.writestr('META-INF/container.xml', '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>', compress_type=zipfile.ZIP_DEFLATED)
    z.writestr('book.opf', '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">bomb</dc:identifier><dc:title>Bomb</dc:title><dc:language>en</dc:language></metadata><manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>', compress_type=zipfile.ZIP_DEFLATED)
    entry = zipfile.ZipInfo('c.xhtml', date_time=(2020, 1, 1, 0, 0, 0))
    entry.compress_type = zipfile.ZIP_DEFLATED
    with z.open(entry, 'w', force_zip64=True) as out:
        out.write(b'<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>c</title></head><body><p>')
        block = b' ' * (1 << 20)
        for _ in range(400):
            out.write(block)
        out.write(b'</p></body></html>')
`,
  );
  await exec('python3', [join(directory, 'bomb.py'), join(directory, 'bomb.epub')], { timeout: 120_000 });
  bomb = await readFile(join(directory, 'bomb.epub'));
  // Two MP3 tracks by ffmpeg, zipped by Python with the second first: ingest takes them in name order.
  for (const [name, frequency] of [
    ['01-harbour.mp3', 330],
    ['02-lighthouse.mp3', 440],
  ] as const) {
    await exec('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${frequency}:duration=2`,
      '-metadata',
      `title=${name.slice(3, -4)}`,
      join(directory, name),
    ]);
  }
  await exec('python3', [
    '-c',
    'import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w") as z:\n    for f in sys.argv[2:]: z.write(f, "tracks/" + f.split("/")[-1])',
    join(directory, 'tracks.zip'),
    join(directory, '02-lighthouse.mp3'),
    join(directory, '01-harbour.mp3'),
  ]);
  tracksZip = await readFile(join(directory, 'tracks.zip'));
}, 180_000);

afterAll(async () => {
  await broker?.close();
  await connection?.close();
  await rm(directory, { recursive: true, force: true });
});

/** Everything one scenario wires: the use cases over the real stores, a worker on its own queue, the events it publishes. */
async function publishing(
  options: { runner?: (real: IngestRunner) => IngestRunner; heapMb?: number; timeoutMs?: number; archive?: Partial<typeof DEFAULT_ARCHIVE_LIMITS> } = {},
) {
  const store = await openReaderRepositories(connection);
  const jobs = new MongoContentJobRepository(connection);
  await jobs.ensureIndexes();
  const storage = new LocalDiskStorage(storageDir);
  const queue = new IngestWorkQueue(broker, uniqueName('reader.ingest-test'), logger);
  const limits = { maxBytes: 5 * MB, maxAttempts: 2 };
  const uploads = new ContentUploads({ jobs, manifests: store.manifests, storage, queue, limits });
  const real = new ChildProcessIngestRunner({
    mongoUrl,
    storage: { READER_STORAGE: 'local', READER_STORAGE_DIR: storageDir, S3_REGION: 'us-east-1', S3_BUCKET: 'unused', S3_FORCE_PATH_STYLE: true } as never,
    bounds: { archive: { ...DEFAULT_ARCHIVE_LIMITS, ...options.archive } } as never,
    pdfPageWidth: 600,
    heapMb: options.heapMb ?? 512,
    timeoutMs: options.timeoutMs ?? 120_000,
    logger,
  });
  const runner = options.runner ? options.runner(real) : real;
  // What reader.events carried, read from a queue bound to the exchange.
  const exchange = uniqueName('reader.events');
  const events: DomainEvent[] = [];
  const channel = await broker.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  const { queue: eventQueue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(eventQueue, exchange, CONTENT_INGESTED);
  await channel.consume(eventQueue, (message) => message && events.push(JSON.parse(message.content.toString('utf8')) as DomainEvent), { noAck: true });
  const forgotten: string[] = [];
  const announcer = new ContentIngestedPublisher({
    broker,
    exchange,
    manifests: { forget: (tenantId, issueId) => forgotten.push(`${tenantId}:${issueId}`), forgetAll: () => {} },
    logger,
  });
  const ingestJobs = new IngestJobs({ jobs, manifests: store.manifests, storage, runner, announcer, limits });
  const worker = queue.consume((job) => ingestJobs.run(job), { retryDelayMs: 200 });
  const stop = async () => {
    await worker.stop();
    await queue.close();
    await channel.close().catch(() => {});
  };
  return { store, jobs, storage, uploads, ingestJobs, events, forgotten, stop };
}

async function until<T>(probe: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const ended = (job: ContentJobRecord | null) => job?.state === 'ready' || job?.state === 'failed';

describe('publishing: streamed upload and ingest jobs', () => {
  it('when a file streams in, then it is stored under the issue prefix with its SHA-256 and queued', async () => {
    // A worker that holds the job a moment: the upload's answer is what the upload did, not the ingest.
    const held: IngestOutcome = { ok: false, error: 'held', retryable: false };
    const world = await publishing({ runner: () => ({ run: () => new Promise<IngestOutcome>((resolve) => setTimeout(() => resolve(held), 200)) }) });
    try {
      const { job } = await world.uploads.upload(header(9101, { declaredBytes: epubA.length }), chunksOf(epubA, 64 * 1024));
      expect(job).toMatchObject({ state: 'queued', bytes: epubA.length, content_hash: createHash('sha256').update(epubA).digest('hex') });
      expect(job.upload_key).toBe(`1/9101/uploads/${job._id}`);
      expect(await world.storage.get(job.upload_key)).toEqual(epubA);
      expect((await world.uploads.status(1, 9101)).job._id).toBe(job._id);
    } finally {
      await world.stop();
    }
  });

  it('when a file is larger than allowed or than declared, then it is refused and nothing of it stays', async () => {
    const world = await publishing();
    try {
      const big = Buffer.alloc(6 * MB, 1);
      await expect(world.uploads.upload(header(9102), chunksOf(big))).rejects.toMatchObject({
        code: 'RESOURCE_EXHAUSTED',
        details: { reason: 'FILE_TOO_LARGE' },
      });
      await expect(world.uploads.upload(header(9102, { declaredBytes: 6 * MB }), chunksOf(big))).rejects.toMatchObject({ code: 'RESOURCE_EXHAUSTED' });
      await expect(world.uploads.upload(header(9102, { declaredBytes: 100 }), chunksOf(epubA))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(world.uploads.upload(header(9102, { mediaType: 'application/pdf' }), chunksOf(epubA))).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: { reason: 'UNSUPPORTED_MEDIA_TYPE' },
      });
      expect(await world.storage.list('1/9102/uploads')).toEqual([]);
      await expect(world.uploads.status(1, 9102)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await world.stop();
    }
  });

  it('when a job ends ready, then the manifest names the new version, the old one stays for open sessions, older ones go, and content.ingested is published', async () => {
    const world = await publishing();
    try {
      const first = (await world.uploads.upload(header(9103), chunksOf(epubA))).job;
      const firstDone = await until(() => world.jobs.find(1, first._id), ended);
      expect(firstDone, JSON.stringify(firstDone)).toMatchObject({ state: 'ready', progress: 100, attempts: 1 });
      const v1 = versionOf(first.content_hash);
      expect(await world.store.manifests.find({ tenantId: 1, issueId: 9103 })).toMatchObject({
        content_version: v1,
        source_hash: first.content_hash,
        epub: { file_key: `1/9103/v/${v1}/book.epub` },
      });
      // The job reads as ready once the content is live; its upload is removed just after.
      expect(
        await until(
          () => world.storage.stat(first.upload_key),
          (found) => found === null,
        ),
      ).toBeNull();

      const second = (await world.uploads.upload(header(9103), chunksOf(epubB))).job;
      expect((await world.uploads.status(1, 9103)).liveContentHash).toBe(first.content_hash);
      await until(() => world.jobs.find(1, second._id), ended);
      const third = (await world.uploads.upload(header(9103), chunksOf(epubC))).job;
      expect((await until(() => world.jobs.find(1, third._id), ended))?.state).toBe('ready');

      const v2 = versionOf(second.content_hash);
      const v3 = versionOf(third.content_hash);
      expect((await world.store.manifests.find({ tenantId: 1, issueId: 9103 }))?.content_version).toBe(v3);
      // The previous version stays for the sessions that hold its keys; the one before it is gone.
      expect((await readdir(join(storageDir, '1/9103/v'))).sort()).toEqual([v2, v3].sort());
      expect((await world.uploads.status(1, 9103)).liveContentHash).toBeNull();

      const published = await until(
        async () => world.events.filter((event) => (event.payload as { issue_id: number }).issue_id === 9103),
        (list) => list.length === 3,
      );
      expect(published.map((event) => (event.payload as { content_hash: string }).content_hash)).toEqual([
        first.content_hash,
        second.content_hash,
        third.content_hash,
      ]);
      expect(published[0]).toMatchObject({ type: CONTENT_INGESTED, tenant_id: 1, payload: { tenant_id: 1, issue_id: 9103, type: 'epub' } });
      expect(world.forgotten.filter((id) => id === '1:9103')).toHaveLength(3);

      // The live file again: ready at once, no new ingest.
      const again = await world.uploads.upload(header(9103), chunksOf(epubC));
      expect(again.job).toMatchObject({ state: 'ready', content_hash: third.content_hash });
      expect(await world.storage.list('1/9103/uploads')).toEqual([]);
    } finally {
      await world.stop();
    }
  }, 240_000);

  it('when a newer file is uploaded before an older one was processed, then only the newer one becomes the content', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const world = await publishing({ runner: (real) => ({ run: async (job, version, onProgress) => (await gate, real.run(job, version, onProgress)) }) });
    try {
      const older = (await world.uploads.upload(header(9108), chunksOf(epubA))).job;
      const newer = (await world.uploads.upload(header(9108), chunksOf(epubB))).job;
      release();
      expect((await until(() => world.jobs.find(1, newer._id), ended))?.state).toBe('ready');
      const superseded = await world.jobs.find(1, older._id);
      // The older one may have run first (it was taken before the newer was uploaded); if it had not, it never runs.
      expect(superseded?.state === 'ready' || superseded?.error === 'A newer file was uploaded for this issue before this one was processed.').toBe(true);
      expect((await world.store.manifests.find({ tenantId: 1, issueId: 9108 }))?.source_hash).toBe(newer.content_hash);
    } finally {
      await world.stop();
    }
  }, 120_000);

  it('when an audiobook comes as a zip of tracks, then its tracks are ingested in name order', async () => {
    const world = await publishing();
    try {
      const { job } = await world.uploads.upload(header(9107, { issueType: 'audio', mediaType: 'application/zip' }), chunksOf(tracksZip));
      const done = await until(() => world.jobs.find(1, job._id), ended);
      expect(done, JSON.stringify(done)).toMatchObject({ state: 'ready' });
      const manifest = await world.store.manifests.find({ tenantId: 1, issueId: 9107 });
      expect(manifest?.audio?.tracks.map((track) => track.title)).toEqual(['harbour', 'lighthouse']);
      expect(manifest?.audio?.tracks[0]?.key).toMatch(new RegExp(`^1/9107/v/${versionOf(job.content_hash)}/tracks/01\\.mp3$`));
    } finally {
      await world.stop();
    }
  }, 120_000);

  it('when the ingest child needs more memory than allowed, then the job fails with a reason, is not retried, and nothing of it stays', async () => {
    // Archive bounds wide open, so only the child's heap stands between the file and the process.
    const world = await publishing({
      heapMb: 96,
      archive: { maxEntryBytes: 2_000 * MB, maxTotalBytes: 3_000 * MB, maxRatio: 1_000_000, maxXmlBytes: 2_000 * MB },
    });
    try {
      const { job } = await world.uploads.upload(header(9104), chunksOf(bomb));
      const done = await until(() => world.jobs.find(1, job._id), ended, 120_000);
      expect(done, JSON.stringify(done)).toMatchObject({ state: 'failed', attempts: 1 });
      expect(done?.error).toMatch(/more memory than the 96 MB allowed/);
      expect(await world.store.manifests.find({ tenantId: 1, issueId: 9104 })).toBeNull();
      expect(await world.storage.list('1/9104/v')).toEqual([]);
      expect(await world.storage.list('1/9104/uploads')).toEqual([]);
    } finally {
      await world.stop();
    }
  }, 180_000);

  it('when the ingest child runs past its time, then it is killed and the job fails saying so', async () => {
    const world = await publishing({ timeoutMs: 150 });
    try {
      const { job } = await world.uploads.upload(header(9105), chunksOf(epubA));
      const done = await until(() => world.jobs.find(1, job._id), ended);
      expect(done).toMatchObject({ state: 'failed' });
      expect(done?.error).toMatch(/took longer than the 0 seconds allowed|took longer than/);
    } finally {
      await world.stop();
    }
  });

  it('when a job is delivered again after it ended, then it is acknowledged without running again', async () => {
    let runs = 0;
    const world = await publishing({
      runner: (real) => ({
        run: (job, version, onProgress) => {
          runs += 1;
          return real.run(job, version, onProgress);
        },
      }),
    });
    try {
      const { job } = await world.uploads.upload(header(9106), chunksOf(epubA));
      expect((await until(() => world.jobs.find(1, job._id), ended))?.state).toBe('ready');
      await until(
        async () => world.events.length,
        (count) => count === 1,
      );
      // What RabbitMQ does when an acknowledgement was lost: the same job again.
      expect(await world.ingestJobs.run({ tenantId: 1, issueId: 9106, jobId: job._id })).toBe('done');
      expect(runs).toBe(1);
      expect(await world.jobs.find(1, job._id)).toMatchObject({ state: 'ready', attempts: 1 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(world.events).toHaveLength(1);
      // A job left `processing` by a crash after its ingest switched the manifest: finished without a second ingest.
      await world.jobs.update(1, job._id, { state: 'processing', announced: false });
      expect(await world.ingestJobs.run({ tenantId: 1, issueId: 9106, jobId: job._id })).toBe('done');
      expect(runs).toBe(1);
      expect(await world.jobs.find(1, job._id)).toMatchObject({ state: 'ready', announced: true });
    } finally {
      await world.stop();
    }
  }, 120_000);
});
