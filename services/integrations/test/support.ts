// Component-test harness: the real integrations service on port 0 with a
// fresh database, its own listen-cache prefix and consumer queue, called
// through a real gRPC client the way the gateway calls it. Reader-tokens are
// opaque strings (the text key is derived from the string alone) and texts
// are encrypted with @folio/crypto's encryptText, as the reader app does.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encryptText } from '@folio/crypto';
import { DomainError } from '@folio/errors';
import { createPromiseClient, type PromiseClient } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { connectMongo, type Connection } from '@folio/mongo';
import { integrations } from '@folio/proto';
import { deleteTopology, freshMongoUrl, testInfra, uniqueName } from '@folio/testing';
import { Redis } from 'ioredis';
import { expect } from 'vitest';
import { startIntegrations, type EngineOverrides, type RunningIntegrations } from '../src/app.js';
import { loadIntegrationsConfig, type IntegrationsConfig } from '../src/config.js';

export type IntegrationsClient = PromiseClient<integrations.IntegrationsServiceClient>;

export interface TestIntegrations {
  client: IntegrationsClient;
  service: RunningIntegrations;
  config: IntegrationsConfig;
  /** The service's database, for inspecting state. */
  db: Connection;
  redis: Redis;
  stop(): Promise<void>;
}

export async function startTestIntegrations(env: Record<string, string> = {}, engines: EngineOverrides = {}): Promise<TestIntegrations> {
  const infra = testInfra();
  const config = loadIntegrationsConfig({
    MONGO_URL: freshMongoUrl('integrations').url,
    REDIS_URL: infra.redisUrl,
    AMQP_URL: infra.amqpUrl,
    GRPC_PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    LISTEN_CACHE_PREFIX: uniqueName('integrations_listen'),
    IDENTITY_EVENTS_EXCHANGE: uniqueName('identity.events'),
    QUEUE_PREFIX: uniqueName('integrations'),
    CONSUMER_RETRY_DELAY_MS: '200',
    // No reader in component tests unless a test brings a stand-in.
    READER_ADDR: '',
    SHUTDOWN_TIMEOUT_MS: '2000',
    ...env,
  });
  const service = await startIntegrations(config, createLogger({ service: 'integrations', level: config.LOG_LEVEL }), engines);
  const client = createPromiseClient(integrations.IntegrationsServiceClient, `127.0.0.1:${service.grpcPort}`, { defaultDeadlineMs: 30_000 });
  const db = await connectMongo(config.MONGO_URL);
  const redis = new Redis(config.REDIS_URL);
  return {
    client,
    service,
    config,
    db,
    redis,
    async stop() {
      client.close();
      await service.stop();
      const keys = await redis.keys(`${config.LISTEN_CACHE_PREFIX}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await deleteTopology({ exchanges: [config.IDENTITY_EVENTS_EXCHANGE], consumers: [`${config.QUEUE_PREFIX}.account-eraser`] });
      await db.dropDatabase().catch(() => {});
      await db.close();
    },
  };
}

/** A reader: its opaque reader-token and the caller context the gateway derives from it. */
export interface TestReader {
  token: string;
  caller(overrides?: Partial<integrations.Caller>): integrations.Caller;
  encrypt(text: string): string;
}

let nextUser = 1000;

export function newReader(base: Partial<integrations.Caller> = {}): TestReader {
  const token = `reader-token-${randomUUID()}`;
  const userId = base.userId ?? nextUser++;
  return {
    token,
    encrypt: (text) => encryptText(token, text),
    caller: (overrides = {}) => ({
      tenantId: 1,
      userId,
      issueId: 42,
      readerToken: token,
      sessionId: '7',
      preview: false,
      previewLimit: undefined,
      textEncoding: integrations.TextEncoding.TEXT_ENCODING_ENCRYPTED,
      tenantLang: 'en',
      ttsEnabled: true,
      appLang: undefined,
      ...base,
      ...overrides,
    }),
  };
}

/** A caller whose app sends the text as typed (a v1 app below manifest 2.0.0, as the gateway tells). */
export const plaintext: Partial<integrations.Caller> = {
  textEncoding: integrations.TextEncoding.TEXT_ENCODING_PLAINTEXT,
};

/** Asserts that `promise` fails with `code` and, for validation errors, reasons for `field` matching `reason`. */
export async function expectRefusal(promise: Promise<unknown>, code: DomainError['code'], field?: string, reason?: RegExp): Promise<DomainError> {
  const error = await promise.then(
    () => expect.unreachable('the call succeeded'),
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(DomainError);
  const domainError = error as DomainError;
  expect(domainError.code, domainError.message).toBe(code);
  if (field) {
    const reasons = domainError.details.fieldErrors?.[field] ?? [];
    expect(reasons.length, JSON.stringify(domainError.details)).toBeGreaterThan(0);
    if (reason) expect(reasons.join(' ')).toMatch(reason);
  }
  return domainError;
}

/** A stand-in for a hosted provider: a node HTTP server on port 0 that records requests. */
export interface StandIn {
  url: string;
  requests: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

export async function startStandIn(respond: (request: { method: string; path: string; body: string }, response: ServerResponse) => void): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  const server: Server = createServer((request, response) => {
    // Recorded on arrival (a caller may give up before the body is read); the body is filled in when complete.
    const entry = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: '' };
    requests.push(entry);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      entry.body = Buffer.concat(chunks).toString('utf8');
      respond(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
