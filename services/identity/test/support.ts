// Component-test harness: the real identity service on port 0 with a fresh
// database, its own rate-limit prefix, exchange and queues, seeded with the
// demo dataset and called through a real gRPC client.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import amqp from 'amqplib';
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { createPromiseClient, type PromiseClient } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import type { DomainEvent } from '@folio/messaging';
import { connectMongo, type Connection } from '@folio/mongo';
import { identity } from '@folio/proto';
import { emailsTo, freshMongoUrl, loginCodeFrom, testInfra, uniqueName, waitFor, waitForEmail } from '@folio/testing';
import { startIdentity, type RunningIdentity } from '../src/app.js';
import { loadIdentityConfig, type IdentityConfig } from '../src/config.js';
import { seedIdentity, type IdentityDataset } from '../src/seed.js';

export type IdentityClient = PromiseClient<identity.IdentityServiceClient>;

export const dataset = JSON.parse(
  readFileSync(new URL('../../../fixtures/demo-dataset.json', import.meta.url), 'utf8'),
) as IdentityDataset;

export interface TestIdentity {
  client: IdentityClient;
  service: RunningIdentity;
  config: IdentityConfig;
  /** The service's database, for arranging and inspecting state. */
  db: Connection;
  stop(): Promise<void>;
}

export async function startTestIdentity(overrides: Record<string, string> = {}): Promise<TestIdentity> {
  const infra = testInfra();
  const { url } = freshMongoUrl('identity');
  const config = loadIdentityConfig({
    MONGO_URL: url,
    REDIS_URL: infra.redisUrl,
    AMQP_URL: infra.amqpUrl,
    SMTP_URL: infra.smtpUrl,
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PREFIX: uniqueName('identity_rl'),
    EVENTS_EXCHANGE: uniqueName('identity.events'),
    QUEUE_PREFIX: uniqueName('identity'),
    CONSUMER_RETRY_DELAY_MS: '200',
    SHUTDOWN_TIMEOUT_MS: '2000',
    ...overrides,
  });
  const db = await connectMongo(config.MONGO_URL);
  await seedIdentity(db, dataset);
  const service = await startIdentity(config, { logger: createLogger({ service: 'identity', level: config.LOG_LEVEL }) });
  const client = createPromiseClient(identity.IdentityServiceClient, `127.0.0.1:${service.grpcPort}`, { defaultDeadlineMs: 10_000 });
  return {
    client,
    service,
    config,
    db,
    async stop() {
      client.close();
      await service.stop();
      await deleteTopology(config);
      await db.dropDatabase().catch(() => {});
      await db.close();
    },
  };
}

/** Removes the file's exchange and consumer queues from the shared broker. */
async function deleteTopology(config: IdentityConfig): Promise<void> {
  const connection = await amqp.connect(testInfra().amqpUrl);
  try {
    const channel = await connection.createChannel();
    for (const name of ['help-router', 'account-eraser']) {
      for (const suffix of ['', '.retry', '.dead']) await channel.deleteQueue(`${config.QUEUE_PREFIX}.${name}${suffix}`);
    }
    await channel.deleteExchange(config.EVENTS_EXCHANGE);
    await channel.close();
  } finally {
    await connection.close();
  }
}

/** Logs in by e-mail code through the real flow (MailDev in between). */
export async function loginByEmail(
  client: IdentityClient,
  email: string,
  options: { lang?: string; appTenantId?: number; clientIp?: string } = {},
): Promise<identity.TokenPair> {
  const before = (await emailsTo(email)).length;
  await client.startEmailLogin({ email, lang: options.lang ?? 'en', appTenantId: options.appTenantId ?? 1, clientIp: options.clientIp ?? '' });
  const mail = await waitForEmail(email, { nth: before + 1 });
  const { tokens } = await client.completeEmailLogin({ email, code: loginCodeFrom(mail), clientIp: options.clientIp ?? '' });
  return tokens!;
}

/** Verifies an access token against the service's JWKS exactly as the gateway does. */
export async function verifyAccessToken(client: IdentityClient, config: IdentityConfig, token: string) {
  const { jwksJson } = await client.getJwks({});
  return jwtVerify<JWTPayload & { email: string }>(token, createLocalJWKSet(JSON.parse(jwksJson)), {
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    algorithms: ['ES256'],
  });
}

export async function claimsOf(client: IdentityClient, config: IdentityConfig, token: string) {
  return (await verifyAccessToken(client, config, token)).payload;
}

/** The rejection of a call, for asserting on its code, message and field errors. */
export async function failureOf(call: Promise<unknown>): Promise<{ code: string; message: string; details: Record<string, any> }> {
  try {
    await call;
  } catch (error) {
    return error as { code: string; message: string; details: Record<string, any> };
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** A queue of our own bound to the service's exchange: what other services would receive. */
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

/** A local HTTP server standing in for a third party (identity providers, webhooks). */
export async function startStandIn(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
