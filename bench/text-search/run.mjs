// In-issue text search benchmark of the reader service on a 1,000-page issue.
//
//   pnpm turbo run build --filter @folio/reader...
//   node bench/text-search/run.mjs                 (see README.md for options)
//
// 1. Generates a deterministic 1,000-page magazine-like text (3-6 paragraphs
//    and ~400 words a page; Zipf-distributed vocabulary with a long tail of
//    rare words, names and accented words), builds a real PDF from it with the
//    reader's PDF builder (pdfkit) and ingests it with the reader's ingest
//    pipeline (pdftotext, pdftoppm page images, index build), timing each step.
// 2. Starts the real reader service (startReader) on a bench database and
//    storage folder, opens a reader session for the issue (stored session +
//    reader-token, as CreateReaderSession makes them) and times Q searches
//    (default 100: common and rare single words, two- and three-word phrases
//    taken from the text, unfinished last words (prefix), accent-free forms of
//    accented words, decomposed input, misses) end to end through gRPC
//    (SearchIssueText v2: token check + index + ranking + snippets + CFI/offset
//    locations), after one cold query that loads the stored index; then the
//    same queries against the in-memory index alone. Prints p50/p95/p99/max.
import { createRequire } from 'node:module';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const readerDir = join(here, '..', '..', 'services', 'reader');
const requireFromReader = createRequire(join(readerDir, 'package.json'));
const load = (specifier) => import(pathToFileURL(requireFromReader.resolve(specifier)).href);
const loadDist = (path) => import(pathToFileURL(join(readerDir, 'dist', path)).href);

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const PAGES = Number(args.get('pages') ?? 1000);
const QUERIES = Number(args.get('queries') ?? 100);
const PAGE_WIDTH = Number(args.get('page-width') ?? 600);
const MONGO_URL = args.get('mongo') ?? process.env.BENCH_MONGO_URL ?? 'mongodb://127.0.0.1:27017/bench_reader_text_search';
const TENANT = 1;
const ISSUE = 900001;

// ---------------------------------------------------------------- corpus --

/** Deterministic PRNG (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(20260321);
const pick = (list) => list[Math.floor(random() * list.length)];

const FUNCTION_WORDS = ['the', 'of', 'and', 'a', 'to', 'in', 'is', 'was', 'that', 'for', 'on', 'with', 'as', 'by', 'at', 'from', 'his', 'her', 'their', 'it', 'an', 'were', 'which', 'but', 'not', 'this', 'had', 'they', 'be', 'or'];
const CONTENT_WORDS = `harbour lighthouse keeper ferry terminal market library reading room water season tide schedule signal pattern flashes
seconds dinghy varnish chandlery compass breakwater sailmaker canvas cloth schooner apprentice trade editorial interview classified
river fog fisherman canoe rope factory sail teacher evening corner cafe street square window morning light notebook writer
garden balcony seed railing tomato pepper lettuce mint parsley container soil root drain pot water council budget school
bridge railway station museum archive mayor festival harvest wheat drought producer recipe lentil pumpkin quince storm coast
island channel chart cartographer ink atlas coastline village gallery lamp logbook spiral stairs grandmother cliffs gulls
boat crew midnight radio tower needle north captain passenger deck strait beam pier lantern coat woman child city council
election budget hospital bakery bread price ticket tourist hotel beach summer winter autumn spring weather forecast wind rain`
  .split(/\s+/)
  .filter(Boolean);
const ACCENTED = ['café', 'río', 'niño', 'canción', 'pequeño', 'señora', 'mañana', 'São', 'coração', 'açúcar', 'città', 'perché', 'über', 'naïve', 'façade', 'Zürich', 'Bahía', 'Crónica', 'fábrica', 'música'];
const SYLLABLES = ['ka', 'lo', 'mer', 'tin', 'sa', 'vel', 'dor', 'ri', 'pan', 'que', 'bel', 'ton', 'ma', 'gri', 'nes', 'por', 'lu', 'fen', 'ar', 'dal'];
// A long tail of rare words and names, as real text has.
const RARE = Array.from({ length: 30000 }, () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(SYLLABLES)).join(''));
const VOCABULARY = [...CONTENT_WORDS, ...ACCENTED, ...RARE];
/** Zipf-like rank pick over the vocabulary: a few words are very common, most are rare. */
const zipfWord = () => VOCABULARY[Math.min(VOCABULARY.length - 1, Math.floor(VOCABULARY.length * Math.pow(random(), 2.4)))];

function sentence() {
  const length = 8 + Math.floor(random() * 14);
  const words = [];
  for (let i = 0; i < length; i++) words.push(random() < 0.45 ? pick(FUNCTION_WORDS) : zipfWord());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + (random() < 0.1 ? '?' : '.');
}

function makePages(count) {
  return Array.from({ length: count }, (_, index) => {
    const paragraphs = Array.from({ length: 3 + Math.floor(random() * 4) }, () => Array.from({ length: 3 + Math.floor(random() * 3) }, sentence).join(' '));
    return { text: paragraphs.join('\n\n'), title: index % 10 === 0 ? `Section ${index / 10 + 1}` : null };
  });
}

function makeQueries(pages, count) {
  const words = (text) => text.match(/[\p{L}\p{N}]+/gu) ?? [];
  const samplePage = () => pick(pages).text;
  const kinds = [
    () => pick(CONTENT_WORDS.filter((w) => w.length >= 4)), // common single word
    () => pick(RARE.slice(0, 800)), // rare word
    () => {
      const w = words(samplePage());
      const i = Math.floor(random() * (w.length - 2));
      return `${w[i]} ${w[i + 1]}`; // two-word phrase from the text
    },
    () => {
      const w = words(samplePage());
      const i = Math.floor(random() * (w.length - 3));
      return `${w[i]} ${w[i + 1]} ${w[i + 2]}`; // three-word phrase
    },
    () => {
      const word = pick(CONTENT_WORDS.filter((w) => w.length >= 7));
      return `${pick(CONTENT_WORDS)} ${word.slice(0, 4 + Math.floor(random() * 2))}`; // unfinished last word
    },
    () => pick(ACCENTED).normalize('NFD').replace(/\p{M}/gu, '').toUpperCase() + ' ' + pick(CONTENT_WORDS), // accent-free, upper case
    () => `${pick(ACCENTED).normalize('NFD')} harbour`, // decomposed input
    () => `zzqx${Math.floor(random() * 1000)} nothing`, // miss
  ];
  return Array.from({ length: count }, (_, i) => {
    let query = kinds[i % kinds.length]();
    if ([...query].length < 4) query = `${query} tide`;
    return query.slice(0, 128);
  });
}

// ----------------------------------------------------------------- stats --

function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const f = (ms) => `${ms.toFixed(2)} ms`;
  return `p50 ${f(at(50))}  p95 ${f(at(95))}  p99 ${f(at(99))}  max ${f(sorted[sorted.length - 1])}  (n=${sorted.length})`;
}

// ------------------------------------------------------------------ main --

const { connectMongo } = await load('@folio/mongo');
const { createPromiseClient } = await load('@folio/grpc');
const { reader } = await load('@folio/proto');
const { buildPdf } = await loadDist('build/pdf.js');
const { ingestIssue } = await loadDist('ingest/ingest.js');
const { openReaderRepositories } = await loadDist('data/repositories.js');
const { TextIndexStore } = await loadDist('search/index-store.js');
const { LocalDiskStorage } = await loadDist('storage/local-disk.js');
const { TokenService } = await loadDist('domain/tokens.js');
const { loadReaderConfig } = await loadDist('config.js');
const { startReader } = await loadDist('app.js');

const workDir = await mkdtemp(join(tmpdir(), 'bench-text-search-'));
const connection = await connectMongo(MONGO_URL);
let service;
let client;
try {
  await connection.dropDatabase();
  console.log(`text search benchmark: ${PAGES} pages, ${QUERIES} queries, page images ${PAGE_WIDTH} px wide`);

  let started = performance.now();
  const pages = makePages(PAGES);
  const words = pages.reduce((sum, page) => sum + (page.text.match(/[\p{L}\p{N}]+/gu) ?? []).length, 0);
  const pdf = await buildPdf({ title: 'Benchmark Monthly', author: 'Bench', pages });
  const pdfPath = join(workDir, 'issue.pdf');
  await writeFile(pdfPath, pdf);
  console.log(`  corpus + PDF (pdfkit): ${(performance.now() - started).toFixed(0)} ms, ${words} words, ${(pdf.length / 1024 / 1024).toFixed(1)} MiB`);

  const storageDir = join(workDir, 'store');
  const storage = new LocalDiskStorage(storageDir);
  const store = await openReaderRepositories(connection);
  started = performance.now();
  const { manifest, indexMs } = await ingestIssue(
    { storage, manifests: store.manifests, indexes: new TextIndexStore(storage, 512) },
    { tenantId: TENANT, issueId: ISSUE, type: 'pdf', files: [pdfPath], pdfPageWidth: PAGE_WIDTH },
  );
  const ingestMs = performance.now() - started;
  const indexBytes = (await storage.stat(manifest.text_index_key)).size;
  console.log(
    `  ingest (pdftotext, pdftoppm x2, index, store): ${ingestMs.toFixed(0)} ms; index build ${indexMs.toFixed(0)} ms; ` +
      `${manifest.sections} sections, index file ${(indexBytes / 1024).toFixed(0)} KiB gzip`,
  );

  // A session as CreateReaderSession stores it, and its reader-token.
  const config = loadReaderConfig({
    MONGO_URL,
    GRPC_PORT: '0',
    MEDIA_PORT: '0',
    LOG_LEVEL: 'silent',
    READER_STORAGE_DIR: storageDir,
    QUEUE_PREFIX: `bench-reader-${process.pid}`,
    IDENTITY_EVENTS_EXCHANGE: `bench.identity.events.${process.pid}`,
  });
  const tokens = new TokenService(config.READER_TOKEN_KEY, 3600, 600);
  const sessionId = await store.sessions.nextId();
  const expiresAt = new Date(Date.now() + 3600_000);
  await store.sessions.create({ _id: sessionId, tenant_id: TENANT, user_id: 1, issue_id: ISSUE, preview: false, api: 'v2', reader: null, engine_host: null, created_at: new Date(), expires_at: expiresAt, snapshot: {} });
  const readerToken = await tokens.issueReaderToken({ sessionId, tenantId: TENANT, userId: 1, issueId: ISSUE, preview: false, previewLimit: null }, expiresAt);

  service = await startReader(config);
  client = createPromiseClient(reader.ReaderServiceClient, `127.0.0.1:${service.grpcPort}`, { defaultDeadlineMs: 10_000 });
  const queries = makeQueries(pages, QUERIES);
  const search = (query) => client.searchIssueText({ readerToken, expectedTenantId: TENANT, search: query, api: reader.SearchApi.SEARCH_API_V2 });

  started = performance.now();
  const cold = await search('harbour lighthouse');
  console.log(`  cold first search through gRPC (loads and parses the stored index): ${(performance.now() - started).toFixed(1)} ms, ${cold.hits.length} hits`);

  for (const query of queries.slice(0, 10)) await search(query); // warm-up
  const times = [];
  let hits = 0;
  let empty = 0;
  for (const query of queries) {
    const t = performance.now();
    const response = await search(query);
    times.push(performance.now() - t);
    hits += response.hits.length;
    if (response.hits.length === 0) empty += 1;
  }
  console.log(`  end to end (gRPC SearchIssueText v2, warm): ${summary(times)}; ${(hits / queries.length).toFixed(1)} hits/query, ${empty} without hits`);

  const indexStore = new TextIndexStore(storage, 512);
  const index = await indexStore.load(manifest.text_index_key);
  const { renderSnippet } = await loadDist('search/text-index.js');
  const bare = [];
  for (const query of queries) {
    const t = performance.now();
    for (const hit of index.search(query, { limit: 50 })) renderSnippet(hit, 'mark');
    bare.push(performance.now() - t);
  }
  console.log(`  index only (rank 50 + snippets, in memory):  ${summary(bare)}; ${index.termCount} terms`);
  console.log(`  sample queries: ${queries.slice(0, 8).map((q) => JSON.stringify(q)).join(', ')}`);
} finally {
  client?.close();
  await service?.stop();
  await connection.dropDatabase().catch(() => {});
  await connection.close();
  await rm(workDir, { recursive: true, force: true });
  await deleteBrokerTopology().catch((error) => console.warn(`  (could not remove the bench queue: ${error.message})`));
}

/** The service declared its account.deleted queue and exchange on the shared broker: remove them. */
async function deleteBrokerTopology() {
  const { default: amqp } = await load('amqplib');
  const broker = await amqp.connect(process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672');
  const channel = await broker.createChannel();
  for (const suffix of ['', '.retry', '.dead']) await channel.deleteQueue(`bench-reader-${process.pid}.account-eraser${suffix}`);
  await channel.deleteExchange(`bench.identity.events.${process.pid}`);
  await channel.close();
  await broker.close();
}
