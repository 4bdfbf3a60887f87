// Typed configuration of the reader service, parsed once at boot. Every other
// module receives the parsed object; nothing else reads process.env.
import { fileURLToPath } from 'node:url';
import { accountEraserEnv, env, loadConfig, serviceEnv, SHARED_KEY_PREFIXES } from '@folio/config';
import { z } from 'zod';
import type { ArchiveLimits } from './archive/zip-reader.js';

/** Dev-only keys: public, so a production process must bring its own. */
const DEV_READER_TOKEN_KEY = Buffer.from('dev-only-reader-token-key-32byte').toString('base64');
const DEV_MEDIA_SIGNING_KEY = 'dev-only-media-signing-key-change-me';

/** `<repo>/.local/content`, the local stack's content store. */
const defaultStorageDir = () => fileURLToPath(new URL('../../../.local/content', import.meta.url));

const base64Key = z
  .string()
  .default(DEV_READER_TOKEN_KEY)
  .refine((value) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32, {
    message: 'must be 32 bytes, base64',
  });

export const configSchema = serviceEnv({ grpcPort: 50054, database: 'folio_reader' })
  .extend({
    IDENTITY_ADDR: env.grpcAddress('127.0.0.1:50051'),
    CATALOG_ADDR: env.grpcAddress('127.0.0.1:50052'),
    COMMERCE_ADDR: env.grpcAddress('127.0.0.1:50053'),
    /** Deadline of each call to identity, catalog and commerce; below the gateway's own (2 s). */
    UPSTREAM_DEADLINE_MS: env.int(1_500).pipe(z.number().min(50)),
    /** How long tenant settings from identity are reused. */
    TENANT_CACHE_TTL_MS: env.int(30_000).pipe(z.number().min(0)),
    /** How long an issue's metadata from catalog is reused (catalog's replicas refresh every 10 s); 0: off. */
    ISSUE_CACHE_TTL_MS: env.int(10_000).pipe(z.number().min(0)),
    /** Granted access decisions are reused this long at most (dropped sooner by commerce's access.changed; refusals are never cached); 0: off. */
    ACCESS_CACHE_TTL_MS: env.int(30_000).pipe(z.number().min(0)),
    ACCESS_CACHE_MAX_ENTRIES: env.int(200_000).pipe(z.number().min(100)),
    /**
     * A user's reading positions and reader settings are kept in memory this long at most, and
     * served only while the user's version (READING_STATE_VERSION_PREFIX) is the one they were
     * loaded at; 0: off.
     */
    POSITION_CACHE_TTL_MS: env.int(60_000).pipe(z.number().min(0)),
    POSITION_CACHE_MAX_USERS: env.int(50_000).pipe(z.number().min(100)),
    /**
     * Redis key prefix of the users' reading state versions (`<prefix>:positions:<user id>`,
     * `<prefix>:settings:<user id>`): a replica serves a cached position list or settings only
     * while it is current, so a write through another replica shows on its next read.
     */
    READING_STATE_VERSION_PREFIX: env.string(SHARED_KEY_PREFIXES.readingStateVersion),
    /**
     * Sessions that exist are remembered this long at most (an ended one is dropped at once here
     * and, through sessions.ended, on the other replicas); 0: off.
     */
    SESSION_CACHE_TTL_MS: env.int(30_000).pipe(z.number().min(0)),
    /** Manifests are kept in memory this long at most (an ingest by another process, such as the seed, shows after it); 0: off. */
    MANIFEST_CACHE_TTL_MS: env.int(60_000).pipe(z.number().min(0)),
    /** Topic exchange reader announces positions.changed on (cache invalidation between replicas). */
    EVENTS_EXCHANGE: env.string('reader.events'),
    /** Topic exchange commerce publishes access.changed to. */
    COMMERCE_EVENTS_EXCHANGE: env.string('commerce.events'),

    /** Encrypts reader-tokens and settings tokens (JWE dir + A256GCM): 32 bytes, base64. */
    READER_TOKEN_KEY: base64Key,
    READER_TOKEN_TTL_SECONDS: env.int(86_400).pipe(z.number().min(60)),
    /** How long a session is kept once its last token expired (its v1 record still reads meanwhile); then it is pruned. */
    SESSION_RETENTION_HOURS: env.int(168).pipe(z.number().min(1)),
    /** Redis key prefix of the reader session liveness keys the gateway reads (`<prefix>:<session id>`); set it on both sides or neither. */
    READER_SESSION_LIVENESS_PREFIX: env.string(SHARED_KEY_PREFIXES.readerSessionLiveness),
    /** Lifetime of the settings token the reader engine exchanges at POST {store}/api/v1/sessions. */
    SETTINGS_TOKEN_TTL_SECONDS: env.int(600).pipe(z.number().min(10)),

    /**
     * Where content lives: `local` (a directory, one replica) or `s3` (an S3-compatible bucket every
     * replica reads; the local stack and the cluster use it).
     */
    READER_STORAGE: z.enum(['local', 's3']).default('local'),
    /** Root of the local-disk content store. */
    READER_STORAGE_DIR: z.string().min(1).default(defaultStorageDir),
    /** The S3-compatible endpoint (`http://127.0.0.1:7070`); unset: AWS S3 of S3_REGION. */
    S3_ENDPOINT: z.string().url().optional(),
    S3_REGION: env.string('us-east-1'),
    S3_BUCKET: env.string('folio-content'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    /** Path-style URLs (`endpoint/bucket/key`), what most S3-compatible servers want; AWS takes both. */
    S3_FORCE_PATH_STYLE: env.bool(true),
    /** Keys are stored under this folder of the bucket (several environments in one bucket). */
    S3_PREFIX: z.string().optional(),
    /** The media HTTP server (the gateway proxies `/media/*` to it). */
    MEDIA_PORT: env.port(8090),
    MEDIA_HOST: z.string().min(1).default('127.0.0.1'),
    /** Base of every content URL handed to clients; tests point it at the media server itself. */
    MEDIA_PUBLIC_BASE_URL: env.url('http://127.0.0.1:8080/media'),
    /** HMAC key of signed content URLs. */
    MEDIA_SIGNING_KEY: env.string(DEV_MEDIA_SIGNING_KEY).pipe(z.string().min(16)),
    /** Lifetime of signed content URLs (never beyond the access grant's end). */
    MEDIA_URL_TTL_SECONDS: env.int(86_400).pipe(z.number().min(10)),

    /**
     * Bounds of every zip (EPUB) reader opens: at ingest, in the package path and in the preview
     * builder (README, "Hostile files"). Sized for the 512 MiB container: one entry read whole,
     * or an XML document parsed into a DOM (several times its size), stays far under the heap.
     */
    ARCHIVE_MAX_MB: env.int(200).pipe(z.number().min(1).max(4_000)),
    ARCHIVE_MAX_ENTRIES: env.int(10_000).pipe(z.number().min(10).max(65_000)),
    ARCHIVE_MAX_ENTRY_MB: env.int(64).pipe(z.number().min(1)),
    ARCHIVE_MAX_TOTAL_MB: env.int(1_024).pipe(z.number().min(1).max(4_000)),
    ARCHIVE_MAX_RATIO: env.int(100).pipe(z.number().min(2)),
    ARCHIVE_MAX_XML_MB: env.int(8).pipe(z.number().min(1)),
    /** Package files (the package path) being inflated whole at once, over all requests; at least one file's cap. */
    PACKAGE_MAX_MB_IN_FLIGHT: env.int(128).pipe(z.number().min(1)),
    /** One ingest (reading and converting one issue's files) is aborted after this long; its poppler processes are killed. */
    INGEST_DEADLINE_SECONDS: env.int(900).pipe(z.number().min(5)),
    /** One poppler run (text, outline, a range of page images) is killed after this long. */
    PDF_TOOL_TIMEOUT_SECONDS: env.int(300).pipe(z.number().min(5)),
    /** Address space of one poppler process (prlimit): a page whose render needs more fails the ingest. */
    PDF_TOOL_MAX_MB: env.int(512).pipe(z.number().min(64)),

    /**
     * Publishing (UploadContent): the largest file one upload may be; the gateway refuses a larger
     * Content-Length with 413 before reading it (its PUBLISHER_UPLOAD_MAX_MB: keep the two equal).
     */
    UPLOAD_MAX_MB: env.int(500).pipe(z.number().min(1).max(16_000)),
    /**
     * Each ingest job runs in a child process with this V8 heap (--max-old-space-size), so a file
     * that needs more ends that job `failed` and never the service.
     */
    INGEST_CHILD_HEAP_MB: env.int(768).pipe(z.number().min(64)),
    /** Wall clock of one ingest job's child process, killed after it (above INGEST_DEADLINE_SECONDS, its own deadline). */
    INGEST_JOB_TIMEOUT_SECONDS: env.int(1_200).pipe(z.number().min(5)),
    /** Starts of one job (a redelivery after a crash counts) before it is failed for good. */
    INGEST_MAX_ATTEMPTS: env.int(3).pipe(z.number().min(1).max(20)),
    /** The durable RabbitMQ work queue of ingest jobs (every reader replica consumes it, one job at a time). */
    INGEST_QUEUE: env.string('reader.ingest-jobs'),
    /** Whether this process runs ingest jobs (a replica may only take uploads and serve). */
    INGEST_WORKER: env.bool(true),

    /** Width of rendered PDF page images, pixels. */
    PDF_PAGE_WIDTH: env.int(1_200).pipe(z.number().min(100).max(4_000)),
    /** Per-issue text indexes kept in memory (LRU), by approximate size. */
    TEXT_INDEX_CACHE_MB: env.int(256).pipe(z.number().min(1)),

    /** The reader engine (web reader) and its address behind the gateway. */
    READER_ENGINE_URL: env.url('http://127.0.0.1:8080/reader-engine/'),
    READER_ENGINE_PROXIED_URL: env.url('http://127.0.0.1:8080/reader-engine/'),
    /** A tenant's store address; `{domain}` and `{tenant_id}` are replaced (as catalog's). */
    STORE_URL_TEMPLATE: env.string('http://{domain}:8080'),

    /** identity's exchange (account.deleted) and the eraser's queue and retries. */
    ...accountEraserEnv('reader'),

    /** Seed script only: the demo dataset; defaults to <repo>/fixtures/demo-dataset.json. */
    FIXTURES_PATH: z.string().optional(),
  })
  .superRefine((config, ctx) => {
    if (config.INGEST_JOB_TIMEOUT_SECONDS <= config.INGEST_DEADLINE_SECONDS) {
      ctx.addIssue({ code: 'custom', path: ['INGEST_JOB_TIMEOUT_SECONDS'], message: 'must exceed INGEST_DEADLINE_SECONDS (the ingest stops itself first)' });
    }
    if (config.READER_STORAGE === 's3' && (!config.S3_ACCESS_KEY_ID || !config.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({ code: 'custom', path: ['S3_ACCESS_KEY_ID'], message: 'READER_STORAGE=s3 needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY' });
    }
    if (config.NODE_ENV !== 'production') return;
    if (config.READER_TOKEN_KEY === DEV_READER_TOKEN_KEY) {
      ctx.addIssue({ code: 'custom', path: ['READER_TOKEN_KEY'], message: 'must be set in production' });
    }
    if (config.MEDIA_SIGNING_KEY === DEV_MEDIA_SIGNING_KEY) {
      ctx.addIssue({ code: 'custom', path: ['MEDIA_SIGNING_KEY'], message: 'must be set in production' });
    }
  });

export type ReaderConfig = z.infer<typeof configSchema>;

/** The archive bounds of the config, in bytes. */
export function archiveLimitsOf(config: ReaderConfig): ArchiveLimits {
  const mb = 1024 * 1024;
  return {
    maxArchiveBytes: config.ARCHIVE_MAX_MB * mb,
    maxEntries: config.ARCHIVE_MAX_ENTRIES,
    maxEntryBytes: config.ARCHIVE_MAX_ENTRY_MB * mb,
    maxTotalBytes: config.ARCHIVE_MAX_TOTAL_MB * mb,
    maxRatio: config.ARCHIVE_MAX_RATIO,
    maxXmlBytes: config.ARCHIVE_MAX_XML_MB * mb,
  };
}

export function loadReaderConfig(environment: Record<string, string | undefined> = process.env): ReaderConfig {
  // The AWS SDK (S3 storage) warns on every start that its releases from 2027 need Node 22; the
  // platform runs Node 20 with the SDK pinned by the lockfile, so the warning says nothing new.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return loadConfig(configSchema, environment);
}
