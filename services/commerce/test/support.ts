// Component-test harness: the real commerce service on port 0 with a fresh
// database seeded from the demo dataset, next to the real identity service
// (in-process, its own fresh database, exchange and queues), both called
// through real gRPC clients. Catalog is deliberately not running: the
// checkout page must fall back to the names stored with the offers.
import amqp from 'amqplib';
import { startTestIdentity, type IdentityClient } from '@folio/identity/testing';
import type { IdentityConfig } from '@folio/identity/config';
import type { IdentityDataset } from '@folio/identity/seed';
import { createPromiseClient, type PromiseClient } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import type { DomainEvent } from '@folio/messaging';
import { connectMongo, type Connection } from '@folio/mongo';
import { commerce } from '@folio/proto';
import { deleteTopology, demoDataset, freshMongoUrl, testInfra, uniqueName } from '@folio/testing';
import { startCommerce, type CommerceOptions, type RunningCommerce } from '../src/app.js';
import { loadCommerceConfig, type CommerceConfig } from '../src/config.js';
import { openCommerceRepositories, type MongoCommerceRepositories } from '../src/data/index.js';
import { seedCommerce, type CommerceDataset } from '../src/seed.js';

export { failureOf, observeEvents } from '@folio/testing';

export type CommerceClient = PromiseClient<commerce.CommerceServiceClient>;
export type { IdentityClient };

export const dataset = demoDataset<CommerceDataset & IdentityDataset>();

export const {
  ACCESS_REASON_UNSPECIFIED: NONE,
  ACCESS_REASON_FREE: FREE,
  ACCESS_REASON_PURCHASED: PURCHASED,
  ACCESS_REASON_SUBSCRIPTION: SUBSCRIPTION,
} = commerce.AccessReason;

/** Tenants of the dataset by their store name. */
export const TENANT = { northwind: 1, sur: 2, atlantica: 3, aurora: 4, harbor: 6 } as const;

export interface TestStack {
  commerce: CommerceClient;
  identity: IdentityClient;
  service: RunningCommerce;
  config: CommerceConfig;
  identityConfig: IdentityConfig;
  /** commerce's database, for arranging and inspecting state. */
  db: Connection;
  store: MongoCommerceRepositories;
  /** User ids as identity assigned them, by e-mail. */
  users: Record<string, number>;
  stop(): Promise<void>;
}

export async function startStack(overrides: Record<string, string> = {}, options: CommerceOptions = {}): Promise<TestStack> {
  const infra = testInfra();
  const identity = await startTestIdentity({ namePrefix: 'commerce' });

  const config = loadCommerceConfig({
    MONGO_URL: freshMongoUrl('commerce').url,
    AMQP_URL: infra.amqpUrl,
    REDIS_URL: infra.redisUrl,
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    IDENTITY_ADDR: identity.address,
    // Nothing listens there: catalog is down for these tests.
    CATALOG_ADDR: '127.0.0.1:1',
    EVENTS_EXCHANGE: uniqueName('commerce.events'),
    IDENTITY_EVENTS_EXCHANGE: identity.config.EVENTS_EXCHANGE,
    QUEUE_PREFIX: uniqueName('commerce'),
    CONSUMER_RETRY_DELAY_MS: '200',
    SHUTDOWN_TIMEOUT_MS: '2000',
    ...overrides,
  });
  const db = await connectMongo(config.MONGO_URL);
  await seedCommerce(db, dataset);
  const store = await openCommerceRepositories(db);
  const service = await startCommerce(config, createLogger({ service: 'commerce', level: config.LOG_LEVEL }), options);
  const client = createPromiseClient(commerce.CommerceServiceClient, `127.0.0.1:${service.grpcPort}`, { defaultDeadlineMs: 15_000 });

  // Ask identity which id each dataset user got instead of assuming the seed order.
  const users: Record<string, number> = {};
  for (let id = 1; Object.keys(users).length < dataset.users.length && id <= dataset.users.length + 20; id++) {
    const found = await identity.client.getUser({ userId: id }).catch(() => null);
    if (found?.user) users[found.user.email] = found.user.id;
  }

  return {
    commerce: client,
    identity: identity.client,
    service,
    config,
    identityConfig: identity.config,
    db,
    store,
    users,
    async stop() {
      client.close();
      await service.stop();
      await identity.stop();
      await deleteTopology({ exchanges: [config.EVENTS_EXCHANGE], consumers: [`${config.QUEUE_PREFIX}.account-eraser`] });
      await db.dropDatabase().catch(() => {});
      await db.close();
    },
  };
}

/** Publishes an event the way another service's outbox relay would. */
export async function publishEvent(exchange: string, event: DomainEvent): Promise<void> {
  const connection = await amqp.connect(testInfra().amqpUrl);
  try {
    const channel = await connection.createConfirmChannel();
    await channel.assertExchange(exchange, 'topic', { durable: true });
    channel.publish(exchange, event.type, Buffer.from(JSON.stringify(event)), { persistent: true, contentType: 'application/json' });
    await channel.waitForConfirms();
    await channel.close();
  } finally {
    await connection.close();
  }
}

/** The hidden and visible inputs of the checkout page's pay form, as a browser would post them (the gateway renders them). */
export function formOf(page: commerce.CheckoutPage | undefined): Record<string, string> {
  if (!page) throw new Error('no checkout page');
  const form: Record<string, string> = { checkout_id: page.checkoutId, csrf_token: page.csrfToken };
  for (const field of page.fields) form[field.name] = page.values[field.name] ?? '';
  return form;
}

export const GOOD_CARD = { cardholder_name: 'Ana Test', card_number: '4242 4242 4242 4242', card_expiry: '12/34', card_cvc: '123' };
export const DECLINED_CARD = { ...GOOD_CARD, card_number: '4000 0000 0000 0002' };
