// Start-up benchmark of the catalog service at 100,000 issues: time from
// process start to gRPC health SERVING, without a snapshot (the whole catalog
// read from MongoDB) and from the snapshot the first run wrote, the RSS of
// the replica, and whether both answer searches and listings identically.
//
//   pnpm turbo run build --filter @folio/catalog...
//   node bench/catalog-start/run.mjs            (see README.md for options)
//
// Uses the store-search benchmark's database and corpus (bench/search),
// generating the issues when they are not there. Each replica is a child
// process (service.mjs: the real startCatalog); identity and commerce are
// answered by tiny in-process gRPC peers (search on, whole tenant readable).
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const catalogDir = join(here, '..', '..', 'services', 'catalog');
const requireFromCatalog = createRequire(join(catalogDir, 'package.json'));
const load = (specifier) => import(pathToFileURL(requireFromCatalog.resolve(specifier)).href);

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const ISSUES = Number(args.get('issues') ?? 100_000);
const RUNS = Number(args.get('runs') ?? 3);
const QUERIES = Number(args.get('queries') ?? 60);
/** Issues an import writes right before each measured replica starts (0: none). */
const WRITE_BEFORE = Number(args.get('write-before') ?? 0);
/** Issues a second per an import that keeps writing while each measured replica starts (0: none). */
const WRITE_DURING = Number(args.get('write-during') ?? 0);
/** Runs the measured replicas under --cpu-prof, writing their profiles into this directory. */
const CPU_PROF_DIR = args.get('cpu-prof');
for (const [name, value] of [['issues', ISSUES], ['runs', RUNS], ['queries', QUERIES], ['write-before', WRITE_BEFORE], ['write-during', WRITE_DURING]]) {
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} takes a whole number of at least 0, not ${args.get(name)}`);
}
const MONGO_URL = args.get('mongo') ?? process.env.BENCH_MONGO_URL ?? 'mongodb://127.0.0.1:27017/bench_catalog_search';
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

const { connectMongo } = await load('@folio/mongo');
const { createLogger } = await load('@folio/logger');
const { checkHealth, closeHealthClients, createPromiseClient, startGrpcServer } = await load('@folio/grpc');
const { unimplementedHandlers } = await load('@folio/testing');
const { catalog, commerce, identity } = await load('@folio/proto');
const { openCatalogRepositories } = await import(pathToFileURL(join(catalogDir, 'dist', 'data', 'index.js')).href);
const { generateIssue, generateQueries, TENANT } = await import('../search/corpus.mjs');

const connection = await connectMongo(MONGO_URL);
const existing = await connection.collection('issues').countDocuments({ tenant_id: TENANT });
if (existing !== ISSUES) {
  console.log(`generating ${ISSUES.toLocaleString('en')} issues into ${MONGO_URL} …`);
  await connection.dropDatabase();
  const store = await openCatalogRepositories(connection);
  for (let i = 0; i < ISSUES; i += 2_000) {
    await store.issues.insertMany(Array.from({ length: Math.min(2_000, ISSUES - i) }, (_, k) => generateIssue(i + k)));
  }
}
// The writes of --write-before and --write-during: a publisher's import through the
// publisher API's store calls (IssueRepository.insert, replace and tombstone, which the
// service's change feed reads back by updated_at and change_bucket), a few at a time,
// into a tenant of its own, so that tenant 1's answers stay comparable with the first
// replica's. After the first round, half of each round edits issues written before and
// one in fifty of those is deleted instead: creates, edits and deletes, as a re-import
// does. Dropped at the end. (The seed's bulk upsertMany is not the path: its lookup of
// the existing issues by `$in` reads the whole collection on FerretDB per 500 issues.)
const IMPORT_TENANT = 2;
const IMPORT_CONCURRENCY = 8;
// Left over by an interrupted run: the first replica would load them.
await connection.collection('issues').deleteMany({ tenant_id: IMPORT_TENANT });
const importStore = WRITE_BEFORE > 0 || WRITE_DURING > 0 ? await openCatalogRepositories(connection) : undefined;
/** The live imported issues as last written (an edit or delete names the updated_at it read). */
const importedLive = new Map();
let importRound = 0;
let importNext = 0;
const importedIssue = (n) => {
  const { _id, ...issue } = generateIssue(ISSUES + n);
  return { ...issue, _id, tenant_id: IMPORT_TENANT, name: `${issue.name} (import ${importRound})`, external_id: `IMPORT-${_id}` };
};
/** Writes `count` issues the way a publisher's import does: half of them edits or deletes of earlier ones (while there are any), the rest new. */
async function importIssues(count) {
  importRound += 1;
  const earlier = [...importedLive.values()].slice(0, Math.floor(count / 2));
  const writes = [
    ...earlier.map((stored, k) => () => (k % 50 === 49 ? importStore.issues.tombstone(stored) : importStore.issues.replace(importedIssue(stored._id - ISSUES - 100_000), stored.updated_at))),
    ...Array.from({ length: count - earlier.length }, () => {
      const n = importNext++;
      return () => importStore.issues.insert(importedIssue(n));
    }),
  ];
  let next = 0;
  const worker = async () => {
    while (next < writes.length) {
      const doc = await writes[next++]();
      if (!doc) throw new Error('an imported issue changed under the benchmark');
      if (doc.deleted_at) importedLive.delete(doc._id);
      else {
        // Re-inserted at the end: the next round edits the ones left longest.
        importedLive.delete(doc._id);
        importedLive.set(doc._id, doc);
      }
    }
  };
  await Promise.all(Array.from({ length: IMPORT_CONCURRENCY }, worker));
}
/** Keeps importing `perSecond` issues a second, in tenths, until the returned stop() is called. */
function importContinuously(perSecond) {
  let stopped = false;
  let written = 0;
  const done = (async () => {
    while (!stopped) {
      const started = performance.now();
      const count = Math.max(1, Math.round(perSecond / 10));
      await importIssues(count);
      written += count;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - (performance.now() - started))));
    }
  })();
  return async () => {
    stopped = true;
    await done;
    return written;
  };
}

const sample = await connection.collection('issues').find({ tenant_id: TENANT }).limit(2_000).toArray();
const queries = generateQueries(sample, QUERIES);

// -- identity and commerce peers: search on, the whole tenant readable, everything on sale
const silent = createLogger({ service: 'peer', level: 'silent' });
const peer = (name, definition, handlers) =>
  startGrpcServer({ logger: silent, port: 0, host: '127.0.0.1', services: [{ name, definition, handlers: { ...unimplementedHandlers(definition, 'bench'), ...handlers } }] });
const identityPeer = await peer('svc.identity.v1.IdentityService', identity.IdentityServiceService, {
  async getTenant({ tenantId }) {
    return { tenant: identity.Tenant.fromJSON({ id: tenantId, domain: 'bench.localhost', currency: 'USD', lang: 'en', features: { storefrontSearch: true } }) };
  },
});
const commercePeer = await peer('svc.commerce.v1.CommerceService', commerce.CommerceServiceService, {
  async listAccessibleIssues({ tenantIds }) {
    return { issues: [], wholeTenants: tenantIds.map((tenantId) => ({ tenantId, reason: commerce.AccessReason.ACCESS_REASON_SUBSCRIPTION })) };
  },
  async batchGetAccess({ issueIds }) {
    return {
      accesses: issueIds.map((issueId) => ({ issueId, reason: 0, canBeBought: true, free: false, prices: [{ currency: 'USD', amount: 9.99 }], individuallyAcquirable: true })),
    };
  },
});

const freePort = async () => {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
};

/** Forks a replica and resolves once its gRPC health says SERVING. */
async function startReplica(label, { profile = false } = {}) {
  const port = await freePort();
  const logs = [];
  const started = performance.now();
  const spawnedAt = Date.now();
  const child = fork(join(here, 'service.mjs'), [], {
    execArgv: ['--expose-gc', ...(profile && CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : [])],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: {
      ...process.env,
      MONGO_URL,
      AMQP_URL,
      GRPC_PORT: String(port),
      LOG_LEVEL: 'info',
      IDENTITY_ADDR: `127.0.0.1:${identityPeer.port}`,
      COMMERCE_ADDR: `127.0.0.1:${commercePeer.port}`,
      READER_ADDR: '127.0.0.1:1',
      INDEX_REFRESH_INTERVAL_MS: '0',
      QUEUE_PREFIX: `bench-catalog-start-${process.pid}`,
    },
  });
  let buffered = '';
  child.stdout.on('data', (data) => {
    buffered += data;
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      try {
        logs.push(JSON.parse(line));
      } catch {
        /* not a log line */
      }
    }
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const address = `127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${label}: the replica exited with ${child.exitCode}`);
    if (await checkHealth(address, 'svc.catalog.v1.CatalogService', 500)) break;
    // A fresh channel for the next check, as a Kubernetes gRPC probe makes: a kept one would wait out
    // its reconnect backoff (up to 2 s after a few refused connections) after the port opened.
    closeHealthClients();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const servingMs = performance.now() - started;
  const client = createPromiseClient(catalog.CatalogServiceClient, address, { defaultDeadlineMs: 30_000 });
  // Asks the replica something over IPC and waits for the answer of that type (the 'started' note may come first).
  const ask = (type) =>
    new Promise((resolve) => {
      const listener = (message) => {
        if (message?.type !== type) return;
        child.off('message', listener);
        resolve(message);
      };
      child.on('message', listener);
      child.send(type);
    });
  return {
    servingMs,
    spawnedAt,
    logs,
    client,
    memory: () => ask('memory'),
    waitForLog: async (msg, timeoutMs) => {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const line = logs.find((entry) => entry.msg === msg);
        if (line) return line;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return undefined;
    },
    async stop() {
      client.close();
      child.send('stop');
      await exited;
    },
  };
}

/** What clients see: searches (both scopes) and the first pages of the latest-issues shelf. */
async function answers(client) {
  const seen = [];
  for (const query of queries) {
    for (const scope of [catalog.Scope.SCOPE_OWNED, catalog.Scope.SCOPE_ALL]) {
      seen.push(await client.searchStore({ tenantId: TENANT, userId: 1, query, page: 1, scope, lang: 'en' }));
    }
  }
  for (const page of [1, 2, 50]) {
    seen.push(await client.filterLibrary({ tenantId: TENANT, userId: 1, filterName: 'section', filterValue: 'latest_issues', page, perPage: 100, scope: catalog.Scope.SCOPE_OWNED, lang: 'en', appBaseVersion: '' }));
  }
  return seen;
}

const mb = (bytes) => `${Math.round(bytes / 1024 / 1024)} MB`;
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const rows = [];

// -- 1. no snapshot: the whole catalog is read, then a snapshot is written in the background
await connection.collection('snapshots').drop().catch(() => {});
await connection.collection('snapshot_claims').drop().catch(() => {});
const cold = await startReplica('without snapshot');
// Log lines reach standard output within a second (@folio/logger), maybe after SERVING.
const coldLoad = await cold.waitForLog('catalog view loaded', 10_000);
const coldMemory = await cold.memory();
const reference = await answers(cold.client);
const written = await cold.waitForLog('catalog snapshot written', 300_000);
if (!written) throw new Error('the first replica wrote no snapshot within 5 minutes');
rows.push(`without snapshot    SERVING after ${s(cold.servingMs)} (view: ${s(coldLoad.ms)}, of which ${s(coldLoad.indexMs)} indexing); rss ${mb(coldMemory.rss)}, heap ${mb(coldMemory.heapUsed)} after GC`);
rows.push(`snapshot written    ${s(written.ms)} in the background (event loop held ${written.blockingMs} ms): ${mb(written.bytes)} in ${written.chunks} chunks`);
await cold.stop();

// -- 2. from the snapshot, RUNS times
let identical = true;
for (let run = 1; run <= RUNS; run++) {
  let beforeMs = 0;
  if (WRITE_BEFORE > 0) {
    const t = performance.now();
    await importIssues(WRITE_BEFORE);
    beforeMs = performance.now() - t;
  }
  const stopImporting = WRITE_DURING > 0 ? importContinuously(WRITE_DURING) : undefined;
  const warm = await startReplica(`from snapshot ${run}`, { profile: true });
  const writtenDuring = await stopImporting?.();
  const warmLoad = await warm.waitForLog('catalog view loaded', 10_000);
  if (warmLoad.source !== 'snapshot') throw new Error(`run ${run} did not start from the snapshot: ${JSON.stringify(warmLoad)}`);
  const memory = await warm.memory();
  const same = isDeepStrictEqual(await answers(warm.client), reference);
  identical &&= same;
  const after = await warm.memory();
  const writes = [WRITE_BEFORE > 0 && `${WRITE_BEFORE.toLocaleString('en')} written before in ${s(beforeMs)}`, writtenDuring !== undefined && `${writtenDuring.toLocaleString('en')} during`]
    .filter(Boolean)
    .join(', ');
  rows.push(
    `from snapshot (${run})   ${writes ? `[${writes}] ` : ''}SERVING after ${s(warm.servingMs)} (${s(Date.parse(warmLoad.time) - warmLoad.ms - warm.spawnedAt)} before the view, view ${s(warmLoad.ms)}: restore ${s(warmLoad.restoreMs)} with the changes read meanwhile, ${warmLoad.caughtUp.toLocaleString('en')} caught up ${s(warmLoad.ms - warmLoad.restoreMs)} after it); rss ${mb(memory.rss)}, heap ${mb(memory.heapUsed)} after GC, rss ${mb(after.rss)} after the queries; answers ${same ? 'identical' : 'DIFFERENT'}`,
  );
  await warm.stop();
}

// What the imports wrote, so that the next run starts from the generated corpus alone.
if (importStore) await connection.collection('issues').deleteMany({ tenant_id: IMPORT_TENANT });

closeHealthClients();
await Promise.all([identityPeer.shutdown(1_000), commercePeer.shutdown(1_000)]);
// The replicas declared their account-eraser queue on the broker: remove it.
{
  const { Broker } = await load('@folio/messaging');
  const broker = await Broker.connect(AMQP_URL, { logger: silent });
  const channel = await broker.createChannel();
  for (const suffix of ['', '.retry', '.dead']) await channel.deleteQueue(`bench-catalog-start-${process.pid}.account-eraser${suffix}`);
  await channel.close();
  await broker.close();
}
await connection.close();

console.log('');
const importNote = [WRITE_BEFORE > 0 && `--write-before=${WRITE_BEFORE}`, WRITE_DURING > 0 && `--write-during=${WRITE_DURING}/s`].filter(Boolean).join(' ');
console.log(`catalog start-up with ${ISSUES.toLocaleString('en')} issues${importNote ? ` (${importNote}, tenant ${IMPORT_TENANT})` : ''} (${queries.length} searches x 2 scopes + 3 shelf pages compared)`);
for (const row of rows) console.log(row);
console.log(`answers from snapshot and from a full load: ${identical ? 'identical' : 'DIFFERENT'}`);
if (!identical) process.exitCode = 1;
