// In-process benchmark of the catalog RPCs behind the gateway's uncached
// reads: CPU per call of the catalog process, by RPC, over every user of the
// demo dataset in turn.
//
//   pnpm exec turbo run build --filter=@folio/catalog...
//   node bench/service-calls/run.mjs [--calls=2000] [--rounds=3] [--only=ListLibrarySections,...] [--cpu-prof=DIR]
//
// Set up as catalog's component tests set it up (services/catalog/test/support/harness.ts):
// fresh databases seeded with the demo dataset, the real identity and commerce
// in this process, and a stand-in for reader's ListContinueReading that holds
// a few reading positions per user. Catalog itself runs alone in a child
// process (service.mjs), with its production cache settings, so that
// process.cpuUsage() there is catalog's CPU only: the gRPC server, the use
// case, the peer calls it makes as a client, and the encoding of the reply.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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
const CALLS = Number(args.get('calls') ?? 2000);
const ROUNDS = Number(args.get('rounds') ?? 3);
const WARMUP = Number(args.get('warmup') ?? 300);
const CPU_PROF_DIR = args.get('cpu-prof');
const ONLY = args.get('only')?.split(',');

const { createLogger } = await load('@folio/logger');
const { createPromiseClient, startGrpcServer } = await load('@folio/grpc');
const { unimplementedHandlers, demoDataset, freshMongoUrl, testInfra, uniqueName, deleteTopology } = await load('@folio/testing');
const { catalog, reader } = await load('@folio/proto');
const { connectMongo } = await load('@folio/mongo');
const { startTestIdentity } = await load('@folio/identity/testing');
const { startCommerce } = await load('@folio/commerce/app');
const { loadCommerceConfig } = await load('@folio/commerce/config');
const { seedCommerce } = await load('@folio/commerce/seed');
const { seedCatalog } = await import(pathToFileURL(join(catalogDir, 'dist', 'seed.js')).href);
const readerDir = join(here, '..', '..', 'services', 'reader');
const { seedReader } = await import(pathToFileURL(join(readerDir, 'dist', 'seed.js')).href);
const { LocalDiskStorage } = await import(pathToFileURL(join(readerDir, 'dist', 'storage', 'local-disk.js')).href);

const dataset = demoDataset();
const infra = testInfra();
const quiet = (service) => createLogger({ service, level: 'silent' });

// Identity's seed numbers users 1..n in dataset order.
const users = dataset.users.map((user, index) => ({ id: index + 1, tenants: user.tenants }));
const issuesOf = (tenantId) => dataset.issues.filter((issue) => issue.tenant_id === tenantId);

// Every (user, tenant) pair of the dataset, each call the next one.
const members = users.flatMap((user) => user.tenants.map((tenantId) => ({ userId: user.id, tenantId, tenants: user.tenants })));

/** Reader stand-in: the first three issues of each of the user's tenants, as reader pages them. */
async function startReaderStandIn() {
  const positions = new Map(
    users.map((user) => [
      user.id,
      user.tenants.flatMap((tenantId) =>
        issuesOf(tenantId)
          .slice(0, 3)
          .map((issue) => ({ tenantId, issueId: issue.id, readAt: new Date().toISOString() })),
      ),
    ]),
  );
  const server = await startGrpcServer({
    logger: quiet('reader-stand-in'),
    port: 0,
    host: '127.0.0.1',
    services: [
      {
        name: 'svc.reader.v1.ReaderService',
        definition: reader.ReaderServiceService,
        handlers: {
          ...unimplementedHandlers(reader.ReaderServiceService, 'the reader release'),
          async listContinueReading(request) {
            const mine = (positions.get(request.userId) ?? []).filter((position) => request.tenantIds.includes(position.tenantId));
            const start = (Math.max(1, request.page) - 1) * request.perPage;
            return { positions: mine.slice(start, start + request.perPage), total: mine.length };
          },
        },
      },
    ],
  });
  return { address: `127.0.0.1:${server.port}`, stop: () => server.shutdown(1_000) };
}

const log = (what) => process.stderr.write(`${new Date().toISOString()} ${what}\n`);
log('starting identity, commerce, the reader stand-in');
const identity = await startTestIdentity({ namePrefix: 'bench_calls' });
const commerceConfig = loadCommerceConfig({
  MONGO_URL: freshMongoUrl('bench_calls_commerce').url,
  AMQP_URL: infra.amqpUrl,
  REDIS_URL: infra.redisUrl,
  GRPC_PORT: '0',
  LOG_LEVEL: 'silent',
  IDENTITY_ADDR: identity.address,
  CATALOG_ADDR: '127.0.0.1:1',
  EVENTS_EXCHANGE: uniqueName('bench_calls_commerce.events'),
  IDENTITY_EVENTS_EXCHANGE: uniqueName('bench_calls_commerce.identity.events'),
  QUEUE_PREFIX: uniqueName('bench_calls_commerce'),
  SHUTDOWN_TIMEOUT_MS: '2000',
});
const commerceDb = await connectMongo(commerceConfig.MONGO_URL);
await seedCommerce(commerceDb, dataset);
const commerce = await startCommerce(commerceConfig, quiet('commerce'));
const readerStandIn = await startReaderStandIn();

const catalogEnv = {
  MONGO_URL: freshMongoUrl('bench_calls_catalog').url,
  AMQP_URL: infra.amqpUrl,
  REDIS_URL: infra.redisUrl,
  GRPC_PORT: '0',
  LOG_LEVEL: 'silent',
  IDENTITY_ADDR: identity.address,
  COMMERCE_ADDR: `127.0.0.1:${commerce.grpcPort}`,
  READER_ADDR: process.env.BENCH_READER_ADDR ?? readerStandIn.address,
  IDENTITY_EVENTS_EXCHANGE: identity.config.EVENTS_EXCHANGE,
  COMMERCE_EVENTS_EXCHANGE: commerceConfig.EVENTS_EXCHANGE,
  EVENTS_EXCHANGE: uniqueName('bench_calls_catalog.events'),
  READER_EVENTS_EXCHANGE: uniqueName('bench_calls_catalog.reader.events'),
  QUEUE_PREFIX: uniqueName('bench_calls_catalog'),
  INDEX_REFRESH_INTERVAL_MS: '0',
  SHUTDOWN_TIMEOUT_MS: '2000',
};
const catalogDb = await connectMongo(catalogEnv.MONGO_URL);
await seedCatalog(catalogDb, dataset);

/** A service alone in a child process (service.mjs), and a way to read its CPU. */
async function startChild(name, env) {
  const child = fork(join(here, 'service.mjs'), [name], {
    env: { ...process.env, ...env },
    execArgv: CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : [],
  });
  process.on('exit', () => child.kill());
  const [started] = await once(child, 'message');
  return {
    child,
    port: started.grpcPort,
    async cpu() {
      child.send('cpu');
      const [message] = await once(child, 'message');
      return message.cpu.user + message.cpu.system;
    },
    async stop() {
      child.send('stop');
      await once(child, 'exit');
    },
  };
}

log('starting catalog');
const catalogChild = await startChild('catalog', catalogEnv);
const client = createPromiseClient(catalog.CatalogServiceClient, `127.0.0.1:${catalogChild.port}`, { defaultDeadlineMs: 10_000 });

// Reader as its component tests run it, but with the real catalog above as its catalog.
log('seeding and starting reader');
const storageDir = await mkdtemp(join(tmpdir(), 'bench-service-calls-'));
const readerEnv = {
  MONGO_URL: freshMongoUrl('bench_calls_reader').url,
  AMQP_URL: infra.amqpUrl,
  REDIS_URL: infra.redisUrl,
  READER_SESSION_LIVENESS_PREFIX: uniqueName('bench_calls_rsess'),
  READING_STATE_VERSION_PREFIX: uniqueName('bench_calls_rver'),
  GRPC_PORT: '0',
  LOG_LEVEL: 'silent',
  IDENTITY_ADDR: identity.address,
  CATALOG_ADDR: `127.0.0.1:${catalogChild.port}`,
  COMMERCE_ADDR: `127.0.0.1:${commerce.grpcPort}`,
  READER_STORAGE_DIR: storageDir,
  MEDIA_PORT: '0',
  MEDIA_PUBLIC_BASE_URL: 'http://127.0.0.1:1/media',
  PDF_PAGE_WIDTH: '600',
  IDENTITY_EVENTS_EXCHANGE: identity.config.EVENTS_EXCHANGE,
  COMMERCE_EVENTS_EXCHANGE: commerceConfig.EVENTS_EXCHANGE,
  QUEUE_PREFIX: uniqueName('bench_calls_reader'),
  SHUTDOWN_TIMEOUT_MS: '1000',
};
const readerDb = await connectMongo(readerEnv.MONGO_URL);
const readable = dataset.issues.filter((issue) => issue.type === 'epub').map((issue) => issue.id);
await seedReader({ connection: readerDb, storage: new LocalDiskStorage(storageDir), pdfPageWidth: 600, only: readable }, dataset);
const readerChild = await startChild('reader', readerEnv);
const readerClient = createPromiseClient(reader.ReaderServiceClient, `127.0.0.1:${readerChild.port}`, { defaultDeadlineMs: 10_000 });
// Each (user, tenant) pair opens the tenant's EPUBs in turn.
const openings = members.flatMap((m) => dataset.issues.filter((issue) => issue.tenant_id === m.tenantId && readable.includes(issue.id)).map((issue) => ({ ...m, issueId: issue.id })));

// As a current gateway asks: the deprecated rendering fields (lang, appBaseVersion) empty.
const owned = { scope: catalog.Scope.SCOPE_OWNED, lang: '', page: 0, perPage: 0 };
const RPCS = {
  ListLibrarySections: (m) => client.listLibrarySections({ ...owned, tenantId: m.tenantId, userId: m.userId, appBaseVersion: '' }),
  FilterLibrary: (m) =>
    client.filterLibrary({ ...owned, tenantId: m.tenantId, userId: m.userId, filterName: 'section', filterValue: 'latest_issues', appBaseVersion: '', filesOnly: false }),
  ListContinueReading: (m) => client.listContinueReading({ tenantIds: m.tenants, userId: m.userId, page: 0, perPage: 0, lang: '' }),
  SearchStore: (m) => client.searchStore({ ...owned, tenantId: m.tenantId, userId: m.userId, query: 'atlas', filesOnly: false }),
  ListMyContent: (m) => client.listMyContent({ tenantIds: m.tenants, userId: m.userId, perPage: 20, cursor: '', lang: '' }),
};
const READER_RPCS = {
  GetReaderSettings: (o) => readerClient.getReaderSettings({ tenantId: o.tenantId, userId: o.userId, issueId: o.issueId }),
};

const plan = [
  ...Object.entries(RPCS).map(([name, call]) => ({ name, call, service: 'catalog', of: catalogChild, inputs: members })),
  ...Object.entries(READER_RPCS).map(([name, call]) => ({ name, call, service: 'reader', of: readerChild, inputs: openings })),
].filter((rpc) => !ONLY || ONLY.includes(rpc.name));

/** Calls in sequence, each with the next input: CPU µs per call of the process that answers. */
async function measure(rpc, count, offset) {
  const before = await rpc.of.cpu();
  for (let i = 0; i < count; i += 1) await rpc.call(rpc.inputs[(offset + i) % rpc.inputs.length]);
  return ((await rpc.of.cpu()) - before) / count;
}

log('measuring');
const results = Object.fromEntries(plan.map((rpc) => [rpc.name, []]));
for (const rpc of plan) await measure(rpc, WARMUP, 0);
for (let round = 0; round < ROUNDS; round += 1) {
  for (const rpc of plan) results[rpc.name].push(await measure(rpc, CALLS, round));
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  `${CALLS} calls per round, ${ROUNDS} rounds; catalog RPCs over ${members.length} (user, tenant) pairs of ${users.length} users in turn, reader settings over ${openings.length} (user, EPUB) pairs; ${cpus().length} CPUs, node ${process.version}, ${new Date().toISOString()}`,
);
console.log('| Service | RPC | CPU µs per call (median) | rounds |');
console.log('| --- | --- | ---: | --- |');
for (const rpc of plan) console.log(`| ${rpc.service} | ${rpc.name} | ${Math.round(median(results[rpc.name]))} | ${results[rpc.name].map((v) => Math.round(v)).join(' / ')} |`);
if (args.get('json')) console.log(JSON.stringify(Object.fromEntries(plan.map((rpc) => [rpc.name, median(results[rpc.name])]))));

client.close();
readerClient.close();
await readerChild.stop();
await catalogChild.stop();
await rm(storageDir, { recursive: true, force: true });
await readerStandIn.stop();
await commerce.stop();
await identity.stop();
await deleteTopology({
  exchanges: [catalogEnv.EVENTS_EXCHANGE, catalogEnv.READER_EVENTS_EXCHANGE, commerceConfig.EVENTS_EXCHANGE, commerceConfig.IDENTITY_EVENTS_EXCHANGE],
  consumers: [`${readerEnv.QUEUE_PREFIX}.account-eraser`, `${catalogEnv.QUEUE_PREFIX}.account-eraser`, `${catalogEnv.QUEUE_PREFIX}.content-ingested`, `${commerceConfig.QUEUE_PREFIX}.account-eraser`],
}).catch(() => {});
for (const db of [catalogDb, commerceDb, readerDb]) {
  await db.dropDatabase().catch(() => {});
  await db.close();
}
process.exit(0);
