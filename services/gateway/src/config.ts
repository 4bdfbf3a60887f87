// Typed configuration of the gateway, parsed once at boot. Every other module
// receives the parsed object; nothing else reads process.env.
import { env, loadConfig, SHARED_KEY_PREFIXES } from '@folio/config';
import { z } from 'zod';
import { trustedProxies } from './http/client-ip.js';

/** Sizes as body-parser understands them: `64kb`, `1mb`, or bytes. */
const byteSize = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((v) => /^\d+(\.\d+)?\s*(b|kb|mb)?$/i.test(v.trim()), 'must be a size like 64kb or 1mb');

export const configSchema = z
  .object({
    NODE_ENV: env.nodeEnv(),
    LOG_LEVEL: env.logLevel(),
    HTTP_PORT: env.port(8080),
    /** Where the gateway is reached; used in the OpenAPI `servers` list. */
    PUBLIC_BASE_URL: env.url('http://127.0.0.1:8080'),

    IDENTITY_ADDR: env.grpcAddress('127.0.0.1:50051'),
    CATALOG_ADDR: env.grpcAddress('127.0.0.1:50052'),
    COMMERCE_ADDR: env.grpcAddress('127.0.0.1:50053'),
    READER_ADDR: env.grpcAddress('127.0.0.1:50054'),
    NOTES_ADDR: env.grpcAddress('127.0.0.1:50055'),
    INTEGRATIONS_ADDR: env.grpcAddress('127.0.0.1:50056'),
    REDIS_URL: env.redisUrl('redis://127.0.0.1:6379'),
    /** RabbitMQ: the owners' events that drop cached responses (access.changed, tenant.updated, issues.changed). */
    AMQP_URL: env.url('amqp://guest:guest@127.0.0.1:5672'),
    /** Commerce's topic exchange, where access.changed is published. */
    COMMERCE_EVENTS_EXCHANGE: env.string('commerce.events'),
    /** Identity's topic exchange, where tenant.updated is published. */
    IDENTITY_EVENTS_EXCHANGE: env.string('identity.events'),
    /** Catalog's topic exchange, where issues.changed is published. */
    CATALOG_EVENTS_EXCHANGE: env.string('catalog.events'),
    /** The reader's media HTTP server; `/media/*` is proxied there (path and query kept). */
    READER_MEDIA_URL: env.url('http://127.0.0.1:8090'),
    /** How long the media server may take to answer with headers, and the longest pause while streaming. */
    MEDIA_TIMEOUT_MS: env.int(10_000).pipe(z.number().min(1)),

    JWT_ISSUER: env.string('folio-identity'),
    JWT_AUDIENCE: env.string('folio-api'),

    /**
     * Peers whose X-Forwarded-For is believed: IPs, CIDRs, or `loopback`.
     * Unset: `loopback` outside production, nobody in production.
     */
    TRUSTED_PROXIES: z
      .string()
      .optional()
      .transform((v) =>
        v === undefined
          ? undefined
          : v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
      ),

    GRPC_DEADLINE_MS: env.int(2_000).pipe(z.number().min(1)),
    BREAKER_TIMEOUT_MS: env.int(2_500).pipe(z.number().min(1)),
    /** Speech, translation and AI engines take seconds, not milliseconds: their own deadline and breaker timeout. */
    INTEGRATIONS_DEADLINE_MS: env.int(30_000).pipe(z.number().min(1)),
    INTEGRATIONS_BREAKER_TIMEOUT_MS: env.int(31_000).pipe(z.number().min(1)),
    /**
     * How long an open breaker fails fast before one trial call (sent
     * wait-for-ready) may close it: also the Retry-After of its 503s. Short,
     * because the trial is one call per gateway pod and a service that is back
     * should get its traffic back within seconds (./dev chaos measures it).
     */
    BREAKER_RESET_MS: env.int(3_000).pipe(z.number().min(1)),
    /** Calls in the rolling window before a breaker may open. */
    BREAKER_VOLUME_THRESHOLD: env.int(5).pipe(z.number().min(0)),
    BREAKER_ERROR_PERCENTAGE: env.int(50).pipe(z.number().min(1).max(100)),

    BODY_LIMIT: byteSize('64kb'),
    /**
     * The largest file PUT /api/v2/publisher/issues/{id}/content takes (413 before reading a larger
     * Content-Length, and while streaming one without it); reader's UPLOAD_MAX_MB: keep the two equal.
     */
    PUBLISHER_UPLOAD_MAX_MB: env.int(500).pipe(z.number().min(1).max(16_000)),
    /** Deadline of one content upload to reader (the whole file streamed through). */
    UPLOAD_DEADLINE_MS: env.int(600_000).pipe(z.number().min(1_000)),
    RATE_LIMIT_PREFIX: env.string('gateway:rl'),
    GLOBAL_RATE_LIMIT_PER_MINUTE: env.int(600).pipe(z.number().min(1)),
    /** Prefix of the session liveness keys identity writes (`<prefix>:<jti>`); set it on both sides or neither. */
    SESSION_LIVENESS_PREFIX: env.string(SHARED_KEY_PREFIXES.sessionLiveness),
    /** Prefix of the reader session liveness keys reader writes (`<prefix>:<session id>`); set it on both sides or neither. */
    READER_SESSION_LIVENESS_PREFIX: env.string(SHARED_KEY_PREFIXES.readerSessionLiveness),
    /** Reader-tokens reader verified, remembered so that their next requests need not ask it again (least recently used first out). */
    VERIFIED_READER_TOKEN_CACHE_SIZE: env.int(50_000).pipe(z.number().min(0)),
    /** Prefix of the users' response version keys identity writes (`<prefix>:<user id>`); set it on both sides or neither. */
    USER_VERSION_PREFIX: env.string(SHARED_KEY_PREFIXES.userVersion),
    /** How long a user's cached read (http/response-cache.ts) is served at most; 0: no response cache. */
    RESPONSE_CACHE_TTL_MS: env.int(10_000).pipe(z.number().min(0)),
    /** Bytes of cached JSON per gateway process. */
    RESPONSE_CACHE_MAX_BYTES: env.int(32 * 1024 * 1024).pipe(z.number().min(1_024)),
    /** After an access or tenant event, how long nothing of its scope is stored (the services' caches hear it meanwhile). */
    RESPONSE_CACHE_SETTLE_MS: env.int(2_000).pipe(z.number().min(0)),
    /** Verified access tokens remembered until they expire (0: verify every request). */
    VERIFIED_TOKEN_CACHE_SIZE: env.int(10_000).pipe(z.number().min(0)),
    /** How long a resolved tenant (by id or store domain) is reused. */
    TENANT_CACHE_TTL_MS: env.int(30_000).pipe(z.number().min(0)),
    SHUTDOWN_TIMEOUT_MS: env.int(10_000),
  })
  .superRefine((config, ctx) => {
    // The breaker is a backstop: the gRPC deadline must fire first, so that a
    // slow call ends as DEADLINE_EXCEEDED instead of leaking past the breaker.
    if (config.BREAKER_TIMEOUT_MS <= config.GRPC_DEADLINE_MS) {
      ctx.addIssue({ code: 'custom', path: ['BREAKER_TIMEOUT_MS'], message: 'must exceed GRPC_DEADLINE_MS' });
    }
    if (config.INTEGRATIONS_BREAKER_TIMEOUT_MS <= config.INTEGRATIONS_DEADLINE_MS) {
      ctx.addIssue({ code: 'custom', path: ['INTEGRATIONS_BREAKER_TIMEOUT_MS'], message: 'must exceed INTEGRATIONS_DEADLINE_MS' });
    }
    try {
      trustedProxies(config.TRUSTED_PROXIES ?? []);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['TRUSTED_PROXIES'], message: (error as Error).message });
    }
  })
  .transform((config) => ({
    ...config,
    TRUSTED_PROXIES: config.TRUSTED_PROXIES ?? (config.NODE_ENV === 'production' ? [] : ['loopback']),
  }));

export type GatewayConfig = z.infer<typeof configSchema>;

export function loadGatewayConfig(environment: Record<string, string | undefined> = process.env): GatewayConfig {
  return loadConfig(configSchema, environment);
}
