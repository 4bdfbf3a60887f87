// Typed configuration, parsed once at boot from the environment. A bad value
// stops the process with every offending key named. Nothing else in a
// service reads process.env.
import { z } from 'zod';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

export function loadConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  return result.data;
}

/**
 * Redis key prefixes that one process writes and another reads (`<prefix>:<id>`),
 * declared once so the two sides cannot drift: identity writes session liveness
 * and user versions, reader writes reader-session liveness, the gateway reads
 * all three; every reader replica writes and reads its users' reading state
 * versions. Each stays a setting (tests give every run its own prefix); these
 * are the defaults of both sides.
 */
export const SHARED_KEY_PREFIXES = {
  sessionLiveness: 'sess',
  readerSessionLiveness: 'rsess',
  userVersion: 'uver',
  readingStateVersion: 'rver',
} as const;

/** Reusable pieces of environment schemas. */
/**
 * `host:port`, `[IPv6]:port`, `unix:/absolute/path`, or a target naming every
 * replica of a peer, which the client balances over (round robin, see
 * @folio/grpc): `ipv4:` with a comma-separated list of `address:port`
 * (`./dev up --replicas=N`), or `dns:///name:port` (a headless Service in
 * Kubernetes, whose name resolves to every ready pod).
 */
const HOST_PORT = String.raw`[^\s/:,]+:\d{1,5}`;
const IPV4_PORT = String.raw`\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}`;
const GRPC_ADDRESS = new RegExp(
  [
    String.raw`^${HOST_PORT}$`,
    String.raw`^\[[0-9A-Fa-f:.]+\]:\d{1,5}$`,
    String.raw`^unix:\/\S+$`,
    String.raw`^ipv4:${IPV4_PORT}(?:,${IPV4_PORT})*$`,
    String.raw`^dns:(?:\/\/[^\s/]*\/)?${HOST_PORT}$`,
  ].join('|'),
);
const GRPC_ADDRESS_MESSAGE = 'must be host:port, unix:/absolute/path, ipv4:address:port[,address:port...] or dns:///host:port';
/** A Redis URL as ioredis takes it: `redis://` or `rediss://`, or the absolute path of a Unix socket. */
const REDIS_URL = /^rediss?:\/\/\S*$|^\/\S+$/;

export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  url: (fallback: string) => z.string().url().default(fallback),
  string: (fallback: string) => z.string().min(1).default(fallback),
  int: (fallback: number) => z.coerce.number().int().default(fallback),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1'),
  /**
   * Where a gRPC peer listens: `host:port`, `unix:/absolute/path` (a Unix
   * socket on the same host, as `./dev` gives every service), or every
   * replica of it (`ipv4:a:p,b:p`, `dns:///name:port`).
   */
  grpcAddress: (fallback: string) =>
    z
      .string()
      .trim()
      .default(fallback)
      .refine((v) => GRPC_ADDRESS.test(v), GRPC_ADDRESS_MESSAGE),
  /** A peer the service can do without: as grpcAddress, and blank means none (undefined). */
  optionalGrpcAddress: (fallback: string) =>
    z
      .string()
      .trim()
      .default(fallback)
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || GRPC_ADDRESS.test(v), GRPC_ADDRESS_MESSAGE),
  /**
   * Where Redis listens: a `redis://` or `rediss://` URL, or the absolute
   * path of its Unix socket on the same host (as `./dev` gives the services).
   */
  redisUrl: (fallback: string) =>
    z
      .string()
      .trim()
      .default(fallback)
      .refine((v) => REDIS_URL.test(v), 'must be a redis:// or rediss:// URL or the absolute path of a Unix socket'),
  nodeEnv: () => z.enum(['development', 'test', 'production']).default('development'),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Comma-separated list. */
  list: (fallback: string[] = []) =>
    z
      .string()
      .optional()
      .transform((v) =>
        v === undefined
          ? fallback
          : v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
      ),
};

/** The keys every backend service reads; each service extends this. */
export const serviceEnv = (defaults: { grpcPort: number; database: string }) =>
  z.object({
    NODE_ENV: env.nodeEnv(),
    LOG_LEVEL: env.logLevel(),
    GRPC_PORT: env.port(defaults.grpcPort),
    /**
     * A Unix socket the gRPC server listens on as well (absolute path; blank:
     * none). Callers on the same host reach it for less CPU per call than over
     * loopback TCP (docs/architecture.md); `./dev` sets it.
     */
    GRPC_UNIX_SOCKET: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || v.startsWith('/'), 'must be an absolute path'),
    MONGO_URL: env.url(`mongodb://127.0.0.1:27017/${defaults.database}`),
    AMQP_URL: env.url('amqp://guest:guest@127.0.0.1:5672'),
    REDIS_URL: env.redisUrl('redis://127.0.0.1:6379'),
    SHUTDOWN_TIMEOUT_MS: env.int(10_000),
  });

/**
 * The keys of a service that consumes identity's `account.deleted`
 * (`startAccountEraser` in @folio/messaging), defined once: spread into the
 * service's schema with its own queue prefix.
 */
export const accountEraserEnv = (queuePrefix: string) => ({
  /** identity's topic exchange, where account.deleted comes from (tests use their own). */
  IDENTITY_EVENTS_EXCHANGE: env.string('identity.events'),
  /** Prefix of the service's consumer queues: `<prefix>.account-eraser` (with `.retry` and `.dead`). */
  QUEUE_PREFIX: env.string(queuePrefix),
  CONSUMER_MAX_RETRIES: env.int(5).pipe(z.number().min(0)),
  CONSUMER_RETRY_DELAY_MS: env.int(2_000).pipe(z.number().min(0)),
});
