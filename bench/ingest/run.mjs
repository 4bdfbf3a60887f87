// Ingest cost per file kind: wall time and peak memory of the reader's ingest
// CLI (services/reader/dist/ingest.js, the same code the service runs) over
// files made by independent tools at growing sizes, so the cost per MB, per
// page and per minute of audio can be read off and checked to stay flat.
//
//   pnpm turbo run build --filter @folio/reader...
//   ./dev infra
//   node bench/ingest/run.mjs [--quick] [--mongo=URL]
//
// Producers: pandoc (EPUB 3 from generated Markdown chapters), groff (PDF
// pages of generated text), ffmpeg (a tone as MP3 and as M4B/AAC). Each file
// is ingested once by a child process under GNU time, whose peak RSS is that
// of the largest process of the run (node, or a poppler tool it started).
// Everything goes into a scratch database and storage folder, removed after.
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const readerDir = join(here, '..', '..', 'services', 'reader');
const cli = join(readerDir, 'dist', 'ingest.js');
const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const QUICK = args.has('quick');
const MONGO_URL = args.get('mongo') ?? process.env.BENCH_MONGO_URL ?? 'mongodb://127.0.0.1:27017/bench_reader_ingest';

for (const tool of ['pandoc', 'groff', 'ffmpeg', '/usr/bin/time']) {
  if (spawnSync(tool, ['--version'], { stdio: 'ignore' }).error) throw new Error(`${tool} is missing (./dev up installs pandoc, groff and ffmpeg; GNU time: apt-get install time)`);
}

/** Deterministic words (mulberry32), so every run ingests the same text. */
function words(seed, count) {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const vocabulary = ['atlas', 'harbour', 'river', 'lantern', 'meadow', 'island', 'cartographer', 'winter', 'orchard', 'library', 'northern', 'quiet', 'island', 'voyage', 'maré', 'café', 'naïve'];
  return Array.from({ length: count }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' ');
}

const work = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
const storage = join(work, 'storage');

function epub(chapters) {
  const md = join(work, `book-${chapters}.md`);
  const text = Array.from({ length: chapters }, (_, i) => `# Chapter ${i + 1}\n\n${Array.from({ length: 20 }, (_, p) => words(i * 100 + p, 300)).join('\n\n')}\n`).join('\n');
  writeFileSync(md, `---\ntitle: Bench book ${chapters}\nauthor: Bench\nlang: en\n---\n\n${text}`);
  const file = join(work, `book-${chapters}.epub`);
  execFileSync('pandoc', [md, '-t', 'epub3', '-o', file]);
  return { kind: 'EPUB', file, unit: 'chapter', units: chapters };
}

function pdf(pages) {
  const roff = join(work, `doc-${pages}.ms`);
  const body = Array.from({ length: pages }, (_, i) => `.SH\nPage ${i + 1}\n.PP\n${words(i, 420)}\n.bp`).join('\n');
  writeFileSync(roff, `.TL\nBench magazine ${pages}\n${body}\n`);
  const file = join(work, `doc-${pages}.pdf`);
  writeFileSync(file, execFileSync('groff', ['-ms', '-Tpdf', roff], { maxBuffer: 1 << 30 }));
  return { kind: 'PDF', file, unit: 'page', units: pages };
}

function audio(minutes, format) {
  const file = join(work, `tone-${minutes}.${format}`);
  const codec = format === 'mp3' ? ['-c:a', 'libmp3lame', '-b:a', '64k'] : ['-c:a', 'aac', '-b:a', '64k', '-f', 'ipod'];
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${minutes * 60}`, '-ac', '1', ...codec, file]);
  return { kind: format === 'mp3' ? 'MP3' : 'M4B', file, unit: 'minute', units: minutes };
}

console.log('making the files (pandoc, groff, ffmpeg)…');
const files = QUICK
  ? [epub(10), epub(40), pdf(20), pdf(80), audio(5, 'mp3'), audio(5, 'm4b')]
  : [epub(20), epub(80), epub(320), pdf(50), pdf(200), pdf(400), audio(10, 'mp3'), audio(40, 'mp3'), audio(10, 'm4b'), audio(40, 'm4b')];

const rows = [];
let issue = 990001;
for (const item of files) {
  const mb = statSync(item.file).size / 1e6;
  process.stdout.write(`ingesting ${item.kind} ${item.units} ${item.unit}s (${mb.toFixed(1)} MB)… `);
  const run = spawnSync('/usr/bin/time', ['-f', 'folio-bench %M %e', process.execPath, cli, item.file, '--tenant', '1', '--issue', String(issue++)], {
    env: { ...process.env, MONGO_URL, READER_STORAGE_DIR: storage, NODE_ENV: 'development', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  const measured = /folio-bench (\d+) ([\d.]+)/.exec(run.stderr ?? '');
  if (run.status !== 0 || !measured) throw new Error(`ingest failed (${run.status}): ${run.stderr}`);
  const rssMb = Number(measured[1]) / 1024;
  const seconds = Number(measured[2]);
  console.log(`${seconds.toFixed(1)} s, peak ${rssMb.toFixed(0)} MB`);
  rows.push({ ...item, mb, seconds, rssMb });
}

// The scratch database and folder.
const requireFromReader = createRequire(join(readerDir, 'package.json'));
const { default: mongoose } = await import(pathToFileURL(requireFromReader.resolve('mongoose')).href);
const connection = await mongoose.createConnection(MONGO_URL).asPromise();
await connection.dropDatabase();
await connection.close();
rmSync(work, { recursive: true, force: true });

const table = [
  '| File (producer) | Size | Units | Wall time | s per MB | ms per unit | Peak RSS |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (row) =>
      `| ${row.kind} (${{ EPUB: 'pandoc', PDF: 'groff', MP3: 'ffmpeg', M4B: 'ffmpeg' }[row.kind]}) | ${row.mb.toFixed(1)} MB | ${row.units} ${row.unit}s | ${row.seconds.toFixed(1)} s | ` +
      `${(row.seconds / row.mb).toFixed(2)} | ${((row.seconds * 1000) / row.units).toFixed(0)} | ${row.rssMb.toFixed(0)} MB |`,
  ),
];
console.log(`\ningest, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, node ${process.version}\n\n${table.join('\n')}`);
