// Typed configuration of the identity service, parsed once at boot. Every
// other module receives the parsed object; nothing else reads process.env.
import { env, loadConfig, serviceEnv, SHARED_KEY_PREFIXES } from '@folio/config';
import { z } from 'zod';

const optionalUrl = () =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))
    .pipe(z.string().url().optional());

export const configSchema = serviceEnv({ grpcPort: 50051, database: 'folio_identity' })
  .extend({
    SMTP_URL: env.url('smtp://127.0.0.1:1025'),
    SMTP_FROM: env.string('Folio <no-reply@folio.localhost>'),

    JWT_ISSUER: env.string('folio-identity'),
    JWT_AUDIENCE: env.string('folio-api'),
    ACCESS_TOKEN_TTL_SECONDS: env.int(3600).pipe(z.number().min(1)),
    REFRESH_TOKEN_TTL_DAYS: env.int(30).pipe(z.number().min(1)),
    REFRESH_REUSE_GRACE_SECONDS: env.int(10).pipe(z.number().min(0)),

    LOGIN_CODE_LENGTH: env.int(8).pipe(z.number().min(4).max(12)),
    LOGIN_CODE_TTL_SECONDS: env.int(600).pipe(z.number().min(1)),
    LOGIN_CODE_MAX_ATTEMPTS: env.int(5).pipe(z.number().min(1)),
    /** Keyed hash of login codes: the database alone never reveals a live code. */
    CODE_PEPPER: env.string('dev-only-login-code-pepper-change-me'),
    SESSION_LIMIT: env.int(5).pipe(z.number().min(1)),

    GOOGLE_USERINFO_URL: env.url('https://openidconnect.googleapis.com/v1/userinfo'),
    FACEBOOK_GRAPH_URL: env.url('https://graph.facebook.com'),
    APPLE_JWKS_URL: env.url('https://appleid.apple.com/auth/keys'),
    APPLE_ISSUER: env.string('https://appleid.apple.com'),
    APPLE_AUDIENCE: env.string('com.folio.reader'),
    SOCIAL_TIMEOUT_MS: env.int(5_000).pipe(z.number().min(1)),

    SUPPORT_EMAIL: z.string().email().default('support@folio.localhost'),
    ENGINEERING_EMAIL: z.string().email().default('engineering@folio.localhost'),
    MESSAGING_EMAIL: z.string().email().default('messaging@folio.localhost'),
    ENGINEERING_WEBHOOK_URL: optionalUrl(),
    MESSAGING_WEBHOOK_URL: optionalUrl(),

    /** Signs tenant discovery cursors so that clients cannot forge offsets or swap filters. */
    CURSOR_SECRET: env.string('dev-only-cursor-secret-change-me'),

    /** Redis key prefix of the session liveness keys the gateway reads (`<prefix>:<jti>`); set it on both sides or neither. */
    SESSION_LIVENESS_PREFIX: env.string(SHARED_KEY_PREFIXES.sessionLiveness),
    /** Redis key prefix of the users' response versions the gateway reads (`<prefix>:<user id>`); set it on both sides or neither. */
    USER_VERSION_PREFIX: env.string(SHARED_KEY_PREFIXES.userVersion),
    /** Redis key prefix of the rate limiter and refresh locks (tests use one per file). */
    RATE_LIMIT_PREFIX: env.string('identity:rl'),
    /** Topic exchange identity publishes to and its consumers bind to. */
    EVENTS_EXCHANGE: env.string('identity.events'),
    /** Prefix of the consumer queue names: `<prefix>.help-router`, `<prefix>.account-eraser`. */
    QUEUE_PREFIX: env.string('identity'),
    CONSUMER_MAX_RETRIES: env.int(5).pipe(z.number().min(0)),
    CONSUMER_RETRY_DELAY_MS: env.int(2_000).pipe(z.number().min(0)),

    /**
     * Users, memberships and tenants are read from memory (data/read-cache.ts);
     * a change made through another replica shows within this long at most
     * (tenant updates and erasures at once, through their events).
     */
    READ_CACHE_TTL_MS: env.int(10_000).pipe(z.number().min(0)),
    READ_CACHE_MAX_ENTRIES: env.int(100_000).pipe(z.number().min(100)),

    /** Seed script only: the demo dataset; defaults to <repo>/fixtures/demo-dataset.json. */
    FIXTURES_PATH: z.string().optional(),
    /** Seed script only: the tenant settings overlay; defaults to <repo>/fixtures/tenant-settings.json. */
    TENANT_SETTINGS_PATH: z.string().optional(),
  })
  .superRefine((config, ctx) => {
    // The dev defaults are public: a production process must bring its own secrets.
    if (config.NODE_ENV !== 'production') return;
    for (const key of ['CODE_PEPPER', 'CURSOR_SECRET'] as const) {
      if (config[key].startsWith('dev-only-')) ctx.addIssue({ code: 'custom', path: [key], message: 'must be set in production' });
    }
  });

export type IdentityConfig = z.infer<typeof configSchema>;

export function loadIdentityConfig(environment: Record<string, string | undefined> = process.env): IdentityConfig {
  return loadConfig(configSchema, environment);
}
