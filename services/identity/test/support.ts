// Component-test harness: the real identity service on port 0 with a fresh
// database, its own rate-limit prefix, exchange and queues, seeded with the
// demo dataset and called through a real gRPC client (src/testing.ts, which
// other services' tests start identity with too).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { Redis } from 'ioredis';
import { demoDataset, emailsTo, loginCodeFrom, testInfra, waitForEmail } from '@folio/testing';
import type { identity } from '@folio/proto';
import type { IdentityConfig } from '../src/config.js';
import type { IdentityDataset } from '../src/seed.js';
import { startTestIdentity as startIdentityInProcess, type IdentityClient, type TestIdentity } from '../src/testing.js';

export { failureOf, observeEvents } from '@folio/testing';
export type { IdentityClient, TestIdentity };

export const dataset = demoDataset<IdentityDataset>();

/** Identity with `overrides` over the test settings; its consumers retry after 200 ms. */
export function startTestIdentity(overrides: Record<string, string> = {}): Promise<TestIdentity> {
  return startIdentityInProcess({ env: { CONSUMER_RETRY_DELAY_MS: '200', ...overrides } });
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
  const { keys } = await client.getJwks({});
  return jwtVerify<JWTPayload & { email: string }>(token, createLocalJWKSet({ keys: keys.map((key) => ({ ...key })) }), {
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    algorithms: ['ES256'],
  });
}

export async function claimsOf(client: IdentityClient, config: IdentityConfig, token: string) {
  return (await verifyAccessToken(client, config, token)).payload;
}

/** The session liveness key the gateway reads for this jti: JSON while live, `-` once ended, null when absent. */
export async function livenessOf(config: IdentityConfig, jti: string): Promise<{ value: string | null; ttlMs: number }> {
  const redis = new Redis(testInfra().redisUrl);
  try {
    const key = `${config.SESSION_LIVENESS_PREFIX}:${jti}`;
    const [value, ttlMs] = await Promise.all([redis.get(key), redis.pttl(key)]);
    return { value, ttlMs };
  } finally {
    await redis.quit();
  }
}

/** Removes a liveness key, as a Redis restart or eviction would. */
export async function dropLiveness(config: IdentityConfig, jti: string): Promise<void> {
  const redis = new Redis(testInfra().redisUrl);
  try {
    await redis.del(`${config.SESSION_LIVENESS_PREFIX}:${jti}`);
  } finally {
    await redis.quit();
  }
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
