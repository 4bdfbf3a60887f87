// Component-test harness: the real catalog service on port 0 with a fresh
// database seeded with the demo dataset, next to the real identity (tenant
// settings) and the real commerce (access and offers) in-process, each with
// its own fresh database seeded from the same dataset; catalog reaches
// commerce through a counting pass-through (commerce-call-counter.ts). Reader
// is a stand-in for ListContinueReading when asked (reader-stand-in.ts), and
// otherwise absent, as a reader that is down.
import { startCommerce, type RunningCommerce } from '@folio/commerce/app';
import { loadCommerceConfig } from '@folio/commerce/config';
import { seedCommerce, type CommerceDataset } from '@folio/commerce/seed';
import { createPromiseClient, type PromiseClient } from '@folio/grpc';
import { startTestIdentity, type TestIdentity } from '@folio/identity/testing';
import { createLogger } from '@folio/logger';
import { Broker, createEvent, Outbox } from '@folio/messaging';
import { connectMongo, type Connection } from '@folio/mongo';
import { catalog } from '@folio/proto';
import { deleteTopology, freshMongoUrl, testInfra, uniqueName, waitFor } from '@folio/testing';
import { startCatalog, type RunningCatalog } from '../../src/app.js';
import { loadCatalogConfig, type CatalogConfig } from '../../src/config.js';
import { seedCatalog, type CatalogDataset } from '../../src/seed.js';
import { startCommerceCallCounter } from './commerce-call-counter.js';
import { dataset } from './dataset.js';
import { startReaderStandIn, type ReaderStandIn } from './reader-stand-in.js';

export type CatalogClient = PromiseClient<catalog.CatalogServiceClient>;

export interface TestCatalog {
  client: CatalogClient;
  service: RunningCatalog;
  config: CatalogConfig;
  /** Catalog's database, for arranging and inspecting state. */
  db: Connection;
  commerce: TestCommerce;
  identity: TestIdentity;
  reader: ReaderStandIn | undefined;
  stop(): Promise<void>;
}

export interface TestCommerce {
  /** Where catalog reaches commerce: the counting pass-through. */
  address: string;
  /** Commerce's events exchange (access.changed). */
  eventsExchange: string;
  /** Calls catalog made, per RPC. */
  calls: { batchGetAccess: number; listAccessibleIssues: number };
  /** Seeds more of a dataset into commerce (offers, grants, plans); with `announce`, also records access.changed as the seed command does. */
  seed(more: CommerceDataset, options?: { announce?: boolean }): Promise<void>;
  stop(): Promise<void>;
}

async function startTestCommerce(identityAddress: string): Promise<TestCommerce> {
  const infra = testInfra();
  const config = loadCommerceConfig({
    MONGO_URL: freshMongoUrl('cat_commerce').url,
    AMQP_URL: infra.amqpUrl,
    REDIS_URL: infra.redisUrl,
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    IDENTITY_ADDR: identityAddress,
    // Catalog is not needed for access decisions (only for checkout page names).
    CATALOG_ADDR: '127.0.0.1:1',
    EVENTS_EXCHANGE: uniqueName('cat_commerce.events'),
    IDENTITY_EVENTS_EXCHANGE: uniqueName('cat_commerce.identity.events'),
    QUEUE_PREFIX: uniqueName('cat_commerce'),
    SHUTDOWN_TIMEOUT_MS: '2000',
  });
  const db = await connectMongo(config.MONGO_URL);
  await seedCommerce(db, dataset as unknown as CommerceDataset);
  let service: RunningCommerce;
  try {
    service = await startCommerce(config, createLogger({ service: 'commerce', level: 'silent' }));
  } catch (error) {
    await db.dropDatabase().catch(() => {});
    await db.close();
    throw error;
  }
  const counter = await startCommerceCallCounter(`127.0.0.1:${service.grpcPort}`);
  const quiet = createLogger({ service: 'commerce-seed', level: 'silent' });
  const broker = await Broker.connect(infra.amqpUrl, { logger: quiet, name: 'catalog-test-commerce-seed' });
  return {
    address: counter.address,
    eventsExchange: config.EVENTS_EXCHANGE,
    calls: counter.calls,
    seed: async (more, options = {}) => {
      const outbox = options.announce ? new Outbox(db, broker, { exchange: config.EVENTS_EXCHANGE, logger: quiet }) : undefined;
      await seedCommerce(db, more, outbox ? { events: { publish: async (type, payload, meta) => outbox.add(createEvent(type, payload, meta)) } } : {});
      await outbox?.stop();
    },
    async stop() {
      await counter.stop();
      await broker.close();
      await service.stop();
      await deleteTopology({ exchanges: [config.EVENTS_EXCHANGE] }).catch(() => {});
      await deleteTopology({
        exchanges: [config.IDENTITY_EVENTS_EXCHANGE, config.EVENTS_EXCHANGE],
        consumers: [`${config.QUEUE_PREFIX}.account-eraser`],
      }).catch(() => {});
      await db.dropDatabase().catch(() => {});
      await db.close();
    },
  };
}

export async function startTestCatalog(options: { reader?: boolean; env?: Record<string, string> } = {}): Promise<TestCatalog> {
  const infra = testInfra();
  const identity = await startTestIdentity({ namePrefix: 'cat' });
  const commerce = await startTestCommerce(identity.address);
  const reader = options.reader ? await startReaderStandIn() : undefined;
  const config = loadCatalogConfig({
    MONGO_URL: freshMongoUrl('catalog').url,
    AMQP_URL: infra.amqpUrl,
    REDIS_URL: infra.redisUrl,
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    IDENTITY_ADDR: identity.address,
    COMMERCE_ADDR: commerce.address,
    // Nothing listens on port 1: reader "not deployed".
    READER_ADDR: reader?.address ?? '127.0.0.1:1',
    // identity's and commerce's own exchanges: catalog hears their tenant.updated and access.changed.
    IDENTITY_EVENTS_EXCHANGE: identity.config.EVENTS_EXCHANGE,
    COMMERCE_EVENTS_EXCHANGE: commerce.eventsExchange,
    // catalog's own favorites.changed, apart from other test catalogs running at the same time.
    EVENTS_EXCHANGE: uniqueName('catalog.events'),
    // reader's content.ingested, published by the tests themselves.
    READER_EVENTS_EXCHANGE: uniqueName('catalog.reader.events'),
    // Tests arrange state and read it at once: the access cache is off unless a test turns it on (cache-invalidation.test.ts).
    ACCESS_CACHE_TTL_MS: '0',
    QUEUE_PREFIX: uniqueName('catalog'),
    CONSUMER_RETRY_DELAY_MS: '200',
    INDEX_REFRESH_INTERVAL_MS: '0',
    SHUTDOWN_TIMEOUT_MS: '2000',
    ...options.env,
  });
  const db = await connectMongo(config.MONGO_URL);
  await seedCatalog(db, dataset as unknown as CatalogDataset);
  const service = await startCatalog(config, createLogger({ service: 'catalog', level: config.LOG_LEVEL }));
  // Each subscription empties its cache as it binds: a value cached before then would vanish mid-test.
  await waitFor(() => service.invalidationsLive() || undefined, { what: "catalog's cache-invalidation subscriptions" });
  const client = createPromiseClient(catalog.CatalogServiceClient, `127.0.0.1:${service.grpcPort}`, { defaultDeadlineMs: 10_000 });
  return {
    client,
    service,
    config,
    db,
    commerce,
    identity,
    reader,
    async stop() {
      client.close();
      await service.stop();
      await deleteTopology({
        exchanges: [config.IDENTITY_EVENTS_EXCHANGE, config.READER_EVENTS_EXCHANGE, config.EVENTS_EXCHANGE],
        consumers: [`${config.QUEUE_PREFIX}.account-eraser`, `${config.QUEUE_PREFIX}.content-ingested`],
      }).catch(() => {});
      await Promise.all([commerce.stop(), reader?.stop(), identity.stop()]);
      await db.dropDatabase().catch(() => {});
      await db.close();
    },
  };
}

/** The ids of a section's items, in order. */
export const idsOf = (section: catalog.Section | undefined) => (section?.data ?? []).map((item) => item.id);
