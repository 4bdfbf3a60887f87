// The real identity service started in-process for a test file (its own and
// other services' component tests): gRPC on port 0, a fresh database seeded
// with the demo dataset, and its own rate-limit prefix, events exchange and
// consumer queues on the shared infrastructure, all removed again by stop().
// Imported by tests only (@folio/identity/testing), never by the service.
import { createPromiseClient, type PromiseClient } from '@folio/grpc';
import { connectMongo, type Connection } from '@folio/mongo';
import { identity } from '@folio/proto';
import { deleteTopology, demoDataset, freshMongoUrl, testInfra, uniqueName } from '@folio/testing';
import { startIdentity, type RunningIdentity } from './app.js';
import { loadIdentityConfig, type IdentityConfig } from './config.js';
import { loadTenantSettings, seedIdentity, type IdentityDataset } from './seed.js';

export type IdentityClient = PromiseClient<identity.IdentityServiceClient>;

export interface TestIdentityOptions {
  /**
   * Who starts it (`gw`, `commerce`, ...): put in front of the names of its
   * database, rate-limit keys, exchange and queues, so that leftovers on the
   * shared infrastructure tell whose they are. Without it they start with `identity`.
   */
  namePrefix?: string;
  /** Settings over the test defaults (LOG_LEVEL, EVENTS_EXCHANGE, TTLs, ...). */
  env?: Record<string, string>;
  /** What to seed; the demo dataset by default. */
  dataset?: IdentityDataset;
}

export interface TestIdentity {
  service: RunningIdentity;
  config: IdentityConfig;
  /** host:port of its gRPC server. */
  address: string;
  client: IdentityClient;
  /** The service's database, for arranging and inspecting state. */
  db: Connection;
  /** Stops the service and removes its exchange, queues and database. */
  stop(): Promise<void>;
}

/** The consumers identity starts (events/consumers.ts), as `<QUEUE_PREFIX>.<name>`. */
const CONSUMERS = ['help-router', 'account-eraser'];

export async function startTestIdentity({ namePrefix, env = {}, dataset }: TestIdentityOptions = {}): Promise<TestIdentity> {
  const infra = testInfra();
  const name = namePrefix ? `${namePrefix}_identity` : 'identity';
  const config = loadIdentityConfig({
    MONGO_URL: freshMongoUrl(name).url,
    REDIS_URL: infra.redisUrl,
    AMQP_URL: infra.amqpUrl,
    SMTP_URL: infra.smtpUrl,
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PREFIX: uniqueName(`${name}_rl`),
    EVENTS_EXCHANGE: uniqueName(`${name}.events`),
    QUEUE_PREFIX: uniqueName(name),
    SHUTDOWN_TIMEOUT_MS: '2000',
    ...env,
  });
  const db = await connectMongo(config.MONGO_URL);
  const dropDatabase = async () => {
    await db.dropDatabase().catch(() => {});
    await db.close();
  };
  let service: RunningIdentity;
  try {
    // The demo's tenant settings come with the demo dataset only: a test's own dataset has the defaults.
    await seedIdentity(db, dataset ?? demoDataset<IdentityDataset>(), dataset ? {} : { settings: loadTenantSettings() });
    // Without a logger of its own, identity logs at config.LOG_LEVEL.
    service = await startIdentity(config);
  } catch (error) {
    await dropDatabase();
    throw error;
  }
  const address = `127.0.0.1:${service.grpcPort}`;
  const client = createPromiseClient(identity.IdentityServiceClient, address, { defaultDeadlineMs: 10_000 });
  return {
    service,
    config,
    address,
    client,
    db,
    async stop() {
      client.close();
      await service.stop();
      try {
        await deleteTopology({ exchanges: [config.EVENTS_EXCHANGE], consumers: CONSUMERS.map((consumer) => `${config.QUEUE_PREFIX}.${consumer}`) });
      } finally {
        await dropDatabase();
      }
    },
  };
}
