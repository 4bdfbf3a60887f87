// Store-search benchmark of the catalog service at 100,000 issues in one tenant.
//
//   pnpm turbo run build --filter @folio/catalog...
//   node --expose-gc bench/search/run.mjs            (see README.md for options)
//
// 1. Generates N synthetic issues (default 100,000) in tenant 1 of a separate
//    database (default mongodb://127.0.0.1:27017/bench_catalog_search), with
//    realistic multilingual titles, authors, publishers, keywords and
//    descriptions full of accents. Skipped with --reuse when the data is there.
// 2. Loads them the way the service does at start (CatalogSync.load: batches
//    from MongoDB into the in-memory view and inverted index) and reports the
//    time and the heap it takes.
// 3. Starts the real catalog service (startCatalog) on that database, with two
//    tiny in-process gRPC peers standing in for identity (GetTenant: search on)
//    and commerce (ListAccessibleIssues: the whole tenant is readable;
//    BatchGetAccess: everything is on sale), and times Q store searches
//    (default 200, mixed 1-3 words, prefixes, accents, decomposed input, no
//    matches) end to end through gRPC, for scope=owned and scope=all, plus the
//    bare index lookups. Prints p50/p95/p99/max.
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const catalogDir = join(here, '..', '..', 'services', 'catalog');
const requireFromCatalog = createRequire(join(catalogDir, 'package.json'));
const load = (specifier) => import(pathToFileURL(requireFromCatalog.resolve(specifier)).href);
const loadDist = (path) => import(pathToFileURL(join(catalogDir, 'dist', path)).href);

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const ISSUES = Number(args.get('issues') ?? 100_000);
const QUERIES = Number(args.get('queries') ?? 200);
const MONGO_URL = args.get('mongo') ?? process.env.BENCH_MONGO_URL ?? 'mongodb://127.0.0.1:27017/bench_catalog_search';
const REUSE = args.get('reuse') === 'true';

const { connectMongo } = await load('@folio/mongo');
const { createLogger } = await load('@folio/logger');
const { createPromiseClient, startGrpcServer } = await load('@folio/grpc');
const { unimplementedHandlers } = await load('@folio/testing');
const { catalog, commerce, identity } = await load('@folio/proto');
const { openCatalogRepositories } = await loadDist('data/index.js');
const { CatalogView } = await loadDist('domain/catalog-view.js');
const { IssueDetailsFile } = await loadDist('data/issue-details-file.js');
const { CatalogSync } = await loadDist('domain/catalog-sync.js');
const { TopHits } = await loadDist('domain/search-index.js');
const { queryTerms, normalizeQuery } = await loadDist('domain/text.js');
const { startCatalog } = await loadDist('app.js');
const { generateIssue, generateQueries, TENANT } = await import('./corpus.mjs');
const { loadCatalogConfig } = await loadDist('config.js');

// ---------------------------------------------------------------- data --

// ------------------------------------------------------------- measure --

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
function summary(label, timings) {
  const sorted = [...timings].sort((a, b) => a - b);
  const f = (v) => `${v.toFixed(2)} ms`;
  return `${label.padEnd(38)} p50 ${f(percentile(sorted, 50))}  p95 ${f(percentile(sorted, 95))}  p99 ${f(percentile(sorted, 99))}  max ${f(sorted.at(-1))}`;
}
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const gc = () => globalThis.gc?.();

const logger = createLogger({ service: 'bench', level: 'silent' });
const connection = await connectMongo(MONGO_URL);
const store = await openCatalogRepositories(connection);

const existing = await connection.collection('issues').countDocuments({ tenant_id: TENANT });
if (!REUSE || existing !== ISSUES) {
  console.log(`generating ${ISSUES.toLocaleString('en')} issues into ${MONGO_URL} …`);
  await connection.dropDatabase();
  const fresh = await openCatalogRepositories(connection);
  const started = performance.now();
  const batch = 2_000;
  for (let i = 0; i < ISSUES; i += batch) {
    await fresh.issues.insertMany(Array.from({ length: Math.min(batch, ISSUES - i) }, (_, k) => generateIssue(i + k)));
  }
  console.log(`  inserted in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} else {
  console.log(`reusing ${existing.toLocaleString('en')} issues in ${MONGO_URL}`);
}

// -- index build, as at service start
gc();
const heapBefore = process.memoryUsage().heapUsed;
let view = new CatalogView(() => new IssueDetailsFile(tmpdir()));
const sync = new CatalogSync(view, store, logger);
const loaded = await sync.load();
gc();
const heapAfter = process.memoryUsage().heapUsed;
const stats = view.tenant(TENANT).index.stats();

// Queries are made from the words of loaded issues (same random stream, same queries on every run).
const queries = generateQueries(view.tenant(TENANT).latest(), QUERIES);

// -- bare index lookups (what the service adds to a request besides gRPC and commerce)
let index = view.tenant(TENANT).index;
const lookup = (query) => {
  const terms = queryTerms(normalizeQuery(query).text);
  const hits = new TopHits(8);
  index.search(terms, { prefixLast: (terms.at(-1)?.length ?? 0) >= 2 }, hits);
  hits.sorted();
  return hits.total;
};
for (const query of queries.slice(0, 20)) lookup(query); // warm-up: JIT
const indexTimings = [];
const totals = [];
for (const query of queries) {
  const started = performance.now();
  const total = lookup(query);
  indexTimings.push(performance.now() - started);
  totals.push(total);
}

// The service builds its own view: drop this one so that the process holds one, as a replica does.
view = undefined;
index = undefined;
gc();

// -- the real service over gRPC, with identity and commerce peers answering at once
const silent = createLogger({ service: 'peer', level: 'silent' });
const identityPeer = await startGrpcServer({
  logger: silent,
  port: 0,
  host: '127.0.0.1',
  services: [
    {
      name: 'svc.identity.v1.IdentityService',
      definition: identity.IdentityServiceService,
      handlers: {
        ...unimplementedHandlers(identity.IdentityServiceService, 'bench'),
        async getTenant({ tenantId }) {
          return { tenant: identity.Tenant.fromJSON({ id: tenantId, domain: 'bench.localhost', currency: 'USD', lang: 'en', features: { storefrontSearch: true } }) };
        },
      },
    },
  ],
});
const commercePeer = await startGrpcServer({
  logger: silent,
  port: 0,
  host: '127.0.0.1',
  services: [
    {
      name: 'svc.commerce.v1.CommerceService',
      definition: commerce.CommerceServiceService,
      handlers: {
        ...unimplementedHandlers(commerce.CommerceServiceService, 'bench'),
        async listAccessibleIssues({ tenantIds }) {
          return { issues: [], wholeTenants: tenantIds.map((tenantId) => ({ tenantId, reason: commerce.AccessReason.ACCESS_REASON_SUBSCRIPTION })) };
        },
        async batchGetAccess({ issueIds }) {
          return {
            accesses: issueIds.map((issueId) => ({
              issueId,
              reason: commerce.AccessReason.ACCESS_REASON_UNSPECIFIED,
              canBeBought: true,
              free: false,
              prices: [{ currency: 'USD', amount: 9.99, discount: undefined }],
              individuallyAcquirable: true,
            })),
          };
        },
      },
    },
  ],
});
const config = loadCatalogConfig({
  MONGO_URL,
  GRPC_PORT: '0',
  LOG_LEVEL: 'silent',
  IDENTITY_ADDR: `127.0.0.1:${identityPeer.port}`,
  COMMERCE_ADDR: `127.0.0.1:${commercePeer.port}`,
  READER_ADDR: '127.0.0.1:1',
  INDEX_REFRESH_INTERVAL_MS: '0',
  QUEUE_PREFIX: `bench-catalog-${process.pid}`,
});
const service = await startCatalog(config, createLogger({ service: 'catalog', level: process.env.BENCH_LOG_LEVEL ?? 'error' }));
const client = createPromiseClient(catalog.CatalogServiceClient, `127.0.0.1:${service.grpcPort}`, { defaultDeadlineMs: 10_000 });
const rpc = async (query, scope) => {
  const started = performance.now();
  const response = await client.searchStore({ tenantId: TENANT, userId: 1, query, page: 1, scope, lang: 'en' });
  if (response.searchDisabled) throw new Error('search disabled');
  return performance.now() - started;
};
for (const query of queries.slice(0, 20)) await rpc(query, catalog.Scope.SCOPE_OWNED); // warm-up: connections, JIT
const ownedTimings = [];
for (const query of queries) ownedTimings.push(await rpc(query, catalog.Scope.SCOPE_OWNED));
const allTimings = [];
for (const query of queries) allTimings.push(await rpc(query, catalog.Scope.SCOPE_ALL));

client.close();
await service.stop();
await Promise.all([identityPeer.shutdown(1_000), commercePeer.shutdown(1_000)]);
await connection.close();
// The service declared its account-eraser queue on the broker: remove it.
{
  const { Broker } = await load('@folio/messaging');
  const broker = await Broker.connect(config.AMQP_URL, { logger });
  const channel = await broker.createChannel();
  for (const suffix of ['', '.retry', '.dead']) await channel.deleteQueue(`${config.QUEUE_PREFIX}.account-eraser${suffix}`);
  await channel.close();
  await broker.close();
}

const sortedTotals = [...totals].sort((a, b) => a - b);
console.log('');
console.log(`issues in the tenant                   ${loaded.issues.toLocaleString('en')}`);
console.log(`index build at start (CatalogSync.load) ${(loaded.ms / 1000).toFixed(1)} s: ${((loaded.ms - loaded.indexMs) / 1000).toFixed(1)} s reading MongoDB, ${(loaded.indexMs / 1000).toFixed(1)} s building the view and index`);
console.log(`index size                             ${stats.terms.toLocaleString('en')} terms, ${stats.postings.toLocaleString('en')} postings`);
console.log(`heap of view + index                   ${mb(heapAfter - heapBefore)} (heap used ${mb(heapAfter)}, rss ${mb(process.memoryUsage().rss)})`);
console.log(`queries                                ${queries.length} (matches per query: median ${percentile(sortedTotals, 50).toLocaleString('en')}, p95 ${percentile(sortedTotals, 95).toLocaleString('en')}, max ${sortedTotals.at(-1).toLocaleString('en')}; ${totals.filter((t) => t === 0).length} without match)`);
console.log(summary('index lookup + ranking', indexTimings));
console.log(summary('SearchStore gRPC, scope=owned', ownedTimings));
console.log(summary('SearchStore gRPC, scope=all', allTimings));
console.log(`examples: ${queries.slice(0, 8).map((q) => JSON.stringify(q)).join(', ')}`);
