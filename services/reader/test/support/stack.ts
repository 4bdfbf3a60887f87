// Component-test harness: the real reader service (gRPC on port 0, its media
// server on a free port that MEDIA_PUBLIC_BASE_URL points at, so returned URLs
// are fetchable), the REAL identity and commerce services in-process (each
// seeded with the demo dataset, fresh databases), a STAND-IN for catalog only
// (see peer-stand-ins.ts), and a temporary content store seeded by seedReader.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCommerce, type RunningCommerce } from '@folio/commerce/app';
import { loadCommerceConfig } from '@folio/commerce/config';
import { seedCommerce, type CommerceDataset } from '@folio/commerce/seed';
import type { RunningIdentity } from '@folio/identity/app';
import type { IdentityDataset } from '@folio/identity/seed';
import { startTestIdentity } from '@folio/identity/testing';
import { createPromiseClient, type PromiseClient } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { connectMongo, type Connection } from '@folio/mongo';
import { reader } from '@folio/proto';
import { deleteTopology, demoDataset, freshMongoUrl, testInfra, uniqueName } from '@folio/testing';
import { startReader, type RunningReader } from '../../src/app.js';
import { loadReaderConfig, type ReaderConfig } from '../../src/config.js';
import { LocalDiskStorage } from '../../src/storage/local-disk.js';
import { seedReader, type ReaderDataset } from '../../src/seed.js';
import { startCatalogStandIn, type Dataset, type StandIns } from './peer-stand-ins.js';

export const dataset = demoDataset<Dataset & ReaderDataset & IdentityDataset & CommerceDataset>();

/** Identity's seed numbers users 1..n in dataset order. */
export const USERS = { ana: 1, bruno: 2, carla: 3, admin: 4, dario: 5, elena: 6, fabio: 7 } as const;

export type ReaderClient = PromiseClient<reader.ReaderServiceClient>;

export interface ReaderStack {
  client: ReaderClient;
  config: ReaderConfig;
  service: RunningReader;
  identity: RunningIdentity;
  commerce: RunningCommerce;
  /** Commerce's database and exchange, for changing access the way commerce's seed does (cache-invalidation tests). */
  commerceDb: Connection;
  commerceExchange: string;
  /** The catalog stand-in (favorites can be arranged on it). */
  peers: StandIns;
  /** Reader's database, for arranging and inspecting state. */
  db: Connection;
  storageDir: string;
  /** The identity exchange reader's consumer is bound to (account.deleted). */
  identityExchange: string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A grant added to the demo dataset's for one test file: `{ email, issue_id }`, purchased, not expiring. */
export interface ExtraGrant {
  email: string;
  issue_id: number;
}

export async function startReaderStack(
  options: { only?: number[]; overrides?: Record<string, string>; extraAccess?: ExtraGrant[] } = {},
): Promise<ReaderStack> {
  const infra = testInfra();
  const identityExchange = uniqueName('identity.events');
  const identity = await startTestIdentity({ namePrefix: 'reader', env: { EVENTS_EXCHANGE: identityExchange, SHUTDOWN_TIMEOUT_MS: '1000' } });
  const peers = await startCatalogStandIn(dataset);

  const commerceConfig = loadCommerceConfig({
    MONGO_URL: freshMongoUrl('reader_commerce').url,
    AMQP_URL: infra.amqpUrl,
    REDIS_URL: infra.redisUrl,
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    IDENTITY_ADDR: identity.address,
    CATALOG_ADDR: peers.catalogAddress,
    EVENTS_EXCHANGE: uniqueName('commerce.events'),
    IDENTITY_EVENTS_EXCHANGE: identityExchange,
    QUEUE_PREFIX: uniqueName('commerce'),
    SHUTDOWN_TIMEOUT_MS: '1000',
  });
  const commerceDb = await connectMongo(commerceConfig.MONGO_URL);
  const extra = (options.extraAccess ?? []).map((grant) => ({ ...grant, reason: 'purchased', source: 'purchase' as const, expires_at: null, revoked: false }));
  await seedCommerce(commerceDb, extra.length ? { ...dataset, access: [...dataset.access, ...extra] } : dataset);
  const commerce = await startCommerce(commerceConfig, createLogger({ service: 'commerce', level: 'silent' }));

  const storageDir = await mkdtemp(join(tmpdir(), 'reader-test-'));
  const mediaPort = await freePort();
  const config = loadReaderConfig({
    MONGO_URL: freshMongoUrl('reader').url,
    AMQP_URL: infra.amqpUrl,
    REDIS_URL: infra.redisUrl,
    // Session ids start at 1 in every fresh database: keys of their own.
    READER_SESSION_LIVENESS_PREFIX: uniqueName('rsess'),
    // User ids too: versions of their own, so the stack's writes never reach another run's caches.
    READING_STATE_VERSION_PREFIX: uniqueName('rver'),
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    IDENTITY_ADDR: identity.address,
    CATALOG_ADDR: peers.catalogAddress,
    COMMERCE_ADDR: `127.0.0.1:${commerce.grpcPort}`,
    READER_STORAGE_DIR: storageDir,
    MEDIA_PORT: String(mediaPort),
    MEDIA_PUBLIC_BASE_URL: `http://127.0.0.1:${mediaPort}/media`,
    PDF_PAGE_WIDTH: '600',
    IDENTITY_EVENTS_EXCHANGE: identityExchange,
    COMMERCE_EVENTS_EXCHANGE: commerceConfig.EVENTS_EXCHANGE,
    QUEUE_PREFIX: uniqueName('reader'),
    CONSUMER_RETRY_DELAY_MS: '200',
    SHUTDOWN_TIMEOUT_MS: '1000',
    ...options.overrides,
  });
  const db = await connectMongo(config.MONGO_URL);
  await seedReader({ connection: db, storage: new LocalDiskStorage(storageDir), pdfPageWidth: 600, ...(options.only ? { only: options.only } : {}) }, dataset);
  const service = await startReader(config, createLogger({ service: 'reader', level: 'silent' }));
  const client = createPromiseClient(reader.ReaderServiceClient, `127.0.0.1:${service.grpcPort}`, { defaultDeadlineMs: 10_000 });

  return {
    client,
    config,
    service,
    identity: identity.service,
    commerce,
    commerceDb,
    commerceExchange: commerceConfig.EVENTS_EXCHANGE,
    peers,
    db,
    storageDir,
    identityExchange,
    async stop() {
      client.close();
      await service.stop();
      await commerce.stop();
      await identity.stop();
      await peers.stop();
      for (const connection of [db, commerceDb]) {
        await connection.dropDatabase().catch(() => {});
        await connection.close();
      }
      await rm(storageDir, { recursive: true, force: true });
      // identity.stop() removed its exchange and its own queues; reader's and commerce's consumers were bound to that exchange too.
      await deleteTopology({
        exchanges: [commerceConfig.EVENTS_EXCHANGE],
        consumers: [`${config.QUEUE_PREFIX}.account-eraser`, `${commerceConfig.QUEUE_PREFIX}.account-eraser`],
      });
    },
  };
}

/** The content of a session answer (CreateReaderSession, ExchangeSessionToken), which always has one. */
export function contentOf(response: { content?: reader.SessionContent | undefined }): reader.SessionContent {
  if (!response.content) throw new Error('the session answer has no content');
  return response.content;
}
