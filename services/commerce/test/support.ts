// Component-test harness: the real commerce service on port 0 with a fresh
// database seeded from the demo dataset, next to the real identity service
// (in-process, its own fresh database, exchange and queues), both called
// through real gRPC clients. Catalog is deliberately not running: the
// checkout page must fall back to the names stored with the offers.
import { readFileSync } from 'node:fs';
import amqp from 'amqplib';
import { startIdentity } from '@folio/identity/app';
import { loadIdentityConfig, type IdentityConfig } from '@folio/identity/config';
import { seedIdentity, type IdentityDataset } from '@folio/identity/seed';
import { createPromiseClient, type PromiseClient } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import type { DomainEvent } from '@folio/messaging';
import { connectMongo, type Connection } from '@folio/mongo';
import { commerce, identity } from '@folio/proto';
import { freshMongoUrl, testInfra, uniqueName, waitFor } from '@folio/testing';
import { startCommerce, type CommerceOptions, type RunningCommerce } from '../src/app.js';
import { loadCommerceConfig, type CommerceConfig } from '../src/config.js';
import { openCommerceStore, type CommerceStore } from '../src/data/index.js';
import { seedCommerce, type CommerceDataset } from '../src/seed.js';

export type CommerceClient = PromiseClient<commerce.CommerceServiceClient>;
export type IdentityClient = PromiseClient<identity.IdentityServiceClient>;

export const dataset = JSON.parse(readFileSync(new URL('../../../fixtures/demo-dataset.json', import.meta.url), 'utf8')) as CommerceDataset &
  IdentityDataset;

export const { ACCESS_REASON_UNSPECIFIED: NONE, ACCESS_REASON_FREE: FREE, ACCESS_REASON_PURCHASED: PURCHASED, ACCESS_REASON_SUBSCRIPTION: SUBSCRIPTION } =
  commerce.AccessReason;

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
  store: CommerceStore;
  /** User ids as identity assigned them, by e-mail. */
  users: Record<string, number>;
  stop(): Promise<void>;
}

export async function startStack(overrides: Record<string, string> = {}, options: CommerceOptions = {}): Promise<TestStack> {
  const infra = testInfra();

  const identityConfig = loadIdentityConfig({
    MONGO_URL: freshMongoUrl('commerce_identity').url,
    REDIS_URL: infra.redisUrl,
    AMQP_URL: infra.amqpUrl,
    SMTP_URL: infra.smtpUrl,
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PREFIX: uniqueName('commerce_identity_rl'),
    EVENTS_EXCHANGE: uniqueName('identity.events'),
    QUEUE_PREFIX: uniqueName('identity'),
    SHUTDOWN_TIMEOUT_MS: '2000',
  });
  const identityDb = await connectMongo(identityConfig.MONGO_URL);
  await seedIdentity(identityDb, dataset);
  const identityService = await startIdentity(identityConfig, { logger: createLogger({ service: 'identity', level: 'silent' }) });
  const identityClient = createPromiseClient(identity.IdentityServiceClient, `127.0.0.1:${identityService.grpcPort}`, { defaultDeadlineMs: 10_000 });

  const config = loadCommerceConfig({
    MONGO_URL: freshMongoUrl('commerce').url,
    AMQP_URL: infra.amqpUrl,
    REDIS_URL: infra.redisUrl,
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    IDENTITY_ADDR: `127.0.0.1:${identityService.grpcPort}`,
    // Nothing listens there: catalog is down for these tests.
    CATALOG_ADDR: '127.0.0.1:1',
    EVENTS_EXCHANGE: uniqueName('commerce.events'),
    IDENTITY_EVENTS_EXCHANGE: identityConfig.EVENTS_EXCHANGE,
    QUEUE_PREFIX: uniqueName('commerce'),
    CONSUMER_RETRY_DELAY_MS: '200',
    SHUTDOWN_TIMEOUT_MS: '2000',
    ...overrides,
  });
  const db = await connectMongo(config.MONGO_URL);
  await seedCommerce(db, dataset);
  const store = await openCommerceStore(db);
  const service = await startCommerce(config, createLogger({ service: 'commerce', level: config.LOG_LEVEL }), options);
  const client = createPromiseClient(commerce.CommerceServiceClient, `127.0.0.1:${service.grpcPort}`, { defaultDeadlineMs: 15_000 });

  // Ask identity which id each dataset user got instead of assuming the seed order.
  const users: Record<string, number> = {};
  for (let id = 1; Object.keys(users).length < dataset.users.length && id <= dataset.users.length + 20; id++) {
    const found = await identityClient.getUser({ userId: id }).catch(() => null);
    if (found?.user) users[found.user.email] = found.user.id;
  }

  return {
    commerce: client,
    identity: identityClient,
    service,
    config,
    identityConfig,
    db,
    store,
    users,
    async stop() {
      client.close();
      identityClient.close();
      await service.stop();
      await identityService.stop();
      await deleteTopology([
        { exchange: config.EVENTS_EXCHANGE, queues: [] },
        { exchange: identityConfig.EVENTS_EXCHANGE, queues: [`${config.QUEUE_PREFIX}.account-eraser`, `${identityConfig.QUEUE_PREFIX}.help-router`, `${identityConfig.QUEUE_PREFIX}.account-eraser`] },
      ]);
      for (const connection of [db, identityDb]) {
        await connection.dropDatabase().catch(() => {});
        await connection.close();
      }
    },
  };
}

async function deleteTopology(entries: { exchange: string; queues: string[] }[]): Promise<void> {
  const connection = await amqp.connect(testInfra().amqpUrl);
  try {
    const channel = await connection.createChannel();
    for (const { exchange, queues } of entries) {
      for (const queue of queues) for (const suffix of ['', '.retry', '.dead']) await channel.deleteQueue(`${queue}${suffix}`);
      await channel.deleteExchange(exchange);
    }
    await channel.close();
  } finally {
    await connection.close();
  }
}

/** The rejection of a call, for asserting on its code, message and details. */
export async function failureOf(call: Promise<unknown>): Promise<{ code: string; message: string; details: Record<string, any> }> {
  try {
    await call;
  } catch (error) {
    return error as { code: string; message: string; details: Record<string, any> };
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** A queue of our own bound to an exchange: what other services would receive. */
export async function observeEvents(exchange: string, bindings: string[]) {
  const connection = await amqp.connect(testInfra().amqpUrl);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  for (const binding of bindings) await channel.bindQueue(queue, exchange, binding);
  const received: DomainEvent[] = [];
  await channel.consume(queue, (message) => {
    if (!message) return;
    received.push(JSON.parse(message.content.toString('utf8')) as DomainEvent);
    channel.ack(message);
  });
  return {
    received,
    waitFor: <P = unknown>(type: string, match: (event: DomainEvent<P>) => boolean = () => true, timeoutMs = 10_000) =>
      waitFor(() => received.find((event) => event.type === type && match(event as DomainEvent<P>)) as DomainEvent<P> | undefined, {
        timeoutMs,
        what: `event ${type}`,
      }),
    close: async () => {
      await channel.close().catch(() => {});
      await connection.close().catch(() => {});
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

/** The hidden and visible inputs of the checkout page's pay form, as a browser would post them. */
export function formOf(html: string): Record<string, string> {
  const form: Record<string, string> = {};
  for (const match of html.matchAll(/<input [^>]*name="([^"]+)"[^>]*>/g)) {
    const value = /value="([^"]*)"/.exec(match[0]);
    form[match[1]!] = value ? decodeEntities(value[1]!) : '';
  }
  return form;
}

function decodeEntities(value: string): string {
  return value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}

export const GOOD_CARD = { cardholder_name: 'Ana Test', card_number: '4242 4242 4242 4242', card_expiry: '12/34', card_cvc: '123' };
export const DECLINED_CARD = { ...GOOD_CARD, card_number: '4000 0000 0000 0002' };
