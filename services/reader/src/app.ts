// Wires the reader service: database, content storage, the media HTTP server,
// peers (identity, catalog, commerce), Redis (session liveness for the
// gateway, the users' reading state versions), the account.deleted consumer
// and the gRPC server. Tests start it in-process on port 0 with a fresh
// database and a temporary storage directory.
import { createHmac } from 'node:crypto';
import { createLogger, type Logger } from '@folio/logger';
import { announceUserChange, ReferenceCache, subscribeUserChanges } from '@folio/messaging';
import { reader, readerSync } from '@folio/proto';
import { startService } from '@folio/service';
import { archiveLimitsOf, type ReaderConfig } from './config.js';
import { MongoKosyncRepository } from './data/kosync.js';
import { MongoProgressionRepository } from './data/progression.js';
import { RedisReaderSessionLiveness } from './data/session-liveness.js';
import { RedisUserVersions } from './data/user-versions.js';
import { MongoContentJobRepository } from './data/content-jobs.js';
import { openReaderRepositories, type ManifestCache, type SessionCache, type UserPositionsCache, type UserSettingsCache } from './data/index.js';
import { ContentLinks } from './domain/content.js';
import { Downloads } from './domain/downloads.js';
import { AccountEraser } from './domain/erasure.js';
import { KosyncProgress } from './domain/kosync.js';
import { ReadingPositions } from './domain/positions.js';
import { OpdsProgressions } from './domain/progression.js';
import { Publications } from './domain/publications.js';
import { PublicationFiles } from './domain/publication-files.js';
import { TextSearch } from './domain/search.js';
import { ReaderSessions } from './domain/sessions.js';
import { ReaderSettings } from './domain/settings.js';
import { TokenService } from './domain/tokens.js';
import { ContentUploads, IngestJobs } from './domain/uploads.js';
import { readerHandlers } from './grpc/handlers.js';
import { readerSyncHandlers } from './grpc/sync-handlers.js';
import { CoverRasters } from './media/cover-raster.js';
import { startMediaServer } from './media/server.js';
import { MediaUrls } from './media/signing.js';
import {
  announceSessionsEnded,
  subscribeAccessInvalidation,
  POSITIONS_CHANGED,
  subscribeContentInvalidation,
  subscribeSessionInvalidation,
  type ManifestForgetter,
} from './events/cache-invalidation.js';
import { ContentIngestedPublisher } from './events/content-ingested.js';
import { ChildProcessIngestRunner } from './jobs/child-runner.js';
import { IngestWorkQueue } from './jobs/work-queue.js';
import { CachedAccessPeers } from './peers/cached-access.js';
import { GrpcPeers } from './peers/grpc-peers.js';
import { TextIndexStore } from './search/index-store.js';
import { contentStorageOf } from './storage/from-config.js';

export const SERVICE_NAME = 'svc.reader.v1.ReaderService';
export const SYNC_SERVICE_NAME = 'svc.reader.v1.ReaderSyncService';

/** Expired sessions are pruned hourly: a scan of the sessions (ReaderSessions.pruneExpired). */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface RunningReader {
  grpcPort: number;
  /** The media HTTP server's port. */
  mediaPort: number;
  /** Stops taking calls and requests, drains the consumer, closes every connection. */
  stop(): Promise<void>;
}

export async function startReader(config: ReaderConfig, logger: Logger = createLogger({ service: 'reader', level: config.LOG_LEVEL })): Promise<RunningReader> {
  // Each connection, server and worker closes on stop, newest first, or when start-up fails half-way.
  return startService('reader', logger, async (kit) => {
    const connection = await kit.mongo(config.MONGO_URL);
    // Session liveness for the gateway (data/session-liveness.ts) and the users' reading state
    // versions (data/user-versions.ts). Auto-pipelined: the keys of one turn of the event loop go
    // to Redis in one write, not one write each, and so do the versions every cached read asks
    // (`pnpm bench:api -- --only=sessions` measures it).
    const redis = kit.redis(config.REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 5_000, commandTimeout: 1_000, enableAutoPipelining: true });
    const versionsOf = (aggregate: string) =>
      new RedisUserVersions(redis, logger, { prefix: config.READING_STATE_VERSION_PREFIX, aggregate, cacheTtlMs: config.POSITION_CACHE_TTL_MS });
    // A user's positions from memory while their version holds; other replicas hear positions.changed
    // once the broker is there (below), which drops entries sooner.
    let announcePositions: (userId: number) => void = () => {};
    const positionCache: UserPositionsCache = {
      entries: new ReferenceCache({ ttlMs: config.POSITION_CACHE_TTL_MS, maxEntries: config.POSITION_CACHE_MAX_USERS }),
      versions: versionsOf('positions'),
      changed: (userId) => announcePositions(userId),
    };
    // The user's reader settings: same lifetime and announcement as the positions, a version of their own.
    const settingsCache: UserSettingsCache = {
      entries: new ReferenceCache({ name: 'reader-user-settings', ttlMs: config.POSITION_CACHE_TTL_MS, maxEntries: config.POSITION_CACHE_MAX_USERS }),
      versions: versionsOf('settings'),
      changed: (userId) => announcePositions(userId),
    };
    const manifestCache: ManifestCache = {
      summaries: new ReferenceCache({ ttlMs: config.MANIFEST_CACHE_TTL_MS, maxEntries: 20_000 }),
      // Spines, page and track lists: the bulky part, fewer of them.
      structures: new ReferenceCache({ ttlMs: config.MANIFEST_CACHE_TTL_MS, maxEntries: 2_000 }),
      coverKeys: new ReferenceCache({ name: 'reader-cover-keys', ttlMs: config.MANIFEST_CACHE_TTL_MS, maxEntries: 20_000 }),
    };
    // Sessions that exist: every reader-token route checks its session.
    let announceSessions: (change: { sessionId?: number; userId?: number }) => void = () => {};
    const sessionCache: SessionCache = {
      entries: new ReferenceCache({ ttlMs: config.SESSION_CACHE_TTL_MS, maxEntries: 100_000 }),
      ended: (change) => announceSessions(change),
    };
    const store = await openReaderRepositories(connection, {
      positions: positionCache,
      settings: settingsCache,
      manifests: manifestCache,
      sessions: sessionCache,
    });

    // The same store the ingest child, the seed and the CLI open (storage/from-config.ts).
    const storage = contentStorageOf(config);
    kit.onStop(async () => storage.close?.());
    const urls = new MediaUrls(config.MEDIA_PUBLIC_BASE_URL, config.MEDIA_SIGNING_KEY, config.MEDIA_URL_TTL_SECONDS);
    const indexes = new TextIndexStore(storage, config.TEXT_INDEX_CACHE_MB);
    const tokens = new TokenService(config.READER_TOKEN_KEY, config.READER_TOKEN_TTL_SECONDS, config.SETTINGS_TOKEN_TTL_SECONDS);
    const grpcPeers = new GrpcPeers(
      {
        identity: config.IDENTITY_ADDR,
        catalog: config.CATALOG_ADDR,
        commerce: config.COMMERCE_ADDR,
        deadlineMs: config.UPSTREAM_DEADLINE_MS,
        tenantCacheTtlMs: config.TENANT_CACHE_TTL_MS,
        issueCacheTtlMs: config.ISSUE_CACHE_TTL_MS,
      },
      logger,
    );
    kit.onStop(() => grpcPeers.close());
    const peers = new CachedAccessPeers(grpcPeers, { ttlMs: config.ACCESS_CACHE_TTL_MS, maxEntries: config.ACCESS_CACHE_MAX_ENTRIES });

    // Session starts and ends, where the gateway reads them.
    const liveness = new RedisReaderSessionLiveness(redis, logger, {
      prefix: config.READER_SESSION_LIVENESS_PREFIX,
      readerTokenTtlSeconds: config.READER_TOKEN_TTL_SECONDS,
    });

    const content = new ContentLinks(storage, urls, archiveLimitsOf(config));
    const sessions = new ReaderSessions({ manifests: store.manifests, sessions: store.sessions, tokens, peers, content, liveness });
    const prune = setInterval(() => {
      sessions
        .pruneExpired(new Date(), config.SESSION_RETENTION_HOURS * 3_600_000)
        .then((pruned) => pruned && logger.info({ pruned }, 'pruned expired reader sessions'))
        .catch((error: unknown) => logger.warn({ err: error }, 'pruning reader sessions failed'));
    }, PRUNE_EVERY_MS);
    prune.unref();
    kit.onStop(() => clearInterval(prune));
    const settings = new ReaderSettings({
      sessions,
      settings: store.settings,
      positions: store.positions,
      tokens,
      peers,
      links: {
        engineUrl: config.READER_ENGINE_URL,
        engineProxiedUrl: config.READER_ENGINE_PROXIED_URL,
        storeUrlTemplate: config.STORE_URL_TEMPLATE,
        trackerKey: createHmac('sha256', Buffer.from(config.READER_TOKEN_KEY, 'base64')).update('tracker-token-key').digest('hex'),
      },
    });
    const positions = new ReadingPositions({ sessions, positions: store.positions, peers });
    const downloads = new Downloads({ sessions, peers, content, storeUrlTemplate: config.STORE_URL_TEMPLATE });
    const search = new TextSearch({ manifests: store.manifests, indexes, peers });
    const publications = new Publications({ sessions, peers, content });
    // E-readers: OPDS downloads and KOReader progress sync (ReaderSyncService).
    const files = new PublicationFiles({ manifests: store.manifests, peers, urls });
    const kosyncStore = new MongoKosyncRepository(connection);
    await kosyncStore.ensureIndexes();
    const kosync = new KosyncProgress({ kosync: kosyncStore, manifests: store.manifests, positions: store.positions, readingPositions: positions, logger });
    // OPDS Progression 1.0: the same positions, with the document the app sent kept beside them.
    const progressionStore = new MongoProgressionRepository(connection);
    await progressionStore.ensureIndexes();
    const progressions = new OpdsProgressions({ sessions, positions: store.positions, readingPositions: positions, progressions: progressionStore, peers });

    const coverKeyOf = (issueId: number) => store.manifests.coverKeyOf(issueId);
    const media = await startMediaServer(
      {
        storage,
        urls,
        logger,
        coverKeyOf,
        rasters: new CoverRasters(storage),
        archiveLimits: archiveLimitsOf(config),
        packageBytesInFlight: config.PACKAGE_MAX_MB_IN_FLIGHT * 1024 * 1024,
      },
      config.MEDIA_PORT,
      config.MEDIA_HOST,
    );
    kit.onStop(() => media.close());

    const broker = await kit.broker(config.AMQP_URL);
    const accessInvalidation = await subscribeAccessInvalidation({ broker, logger, access: peers, exchange: config.COMMERCE_EVENTS_EXCHANGE });
    kit.onStop(() => accessInvalidation.stop());
    // positions.changed drops both of the user's cached reading state: positions and reader settings.
    const readingState = {
      delete(userId: number) {
        positionCache.entries.delete(userId);
        settingsCache.entries.delete(userId);
      },
      clear() {
        positionCache.entries.clear();
        settingsCache.entries.clear();
      },
    };
    const positionInvalidation = await subscribeUserChanges({
      broker,
      logger,
      exchange: config.EVENTS_EXCHANGE,
      type: POSITIONS_CHANGED,
      forgetUser: (userId) => readingState.delete(userId),
      forgetAll: () => readingState.clear(),
    });
    kit.onStop(() => positionInvalidation.stop());
    announcePositions = (userId) => announceUserChange(broker, config.EVENTS_EXCHANGE, POSITIONS_CHANGED, userId, logger);
    const sessionInvalidation = await subscribeSessionInvalidation({ broker, logger, sessions: store.sessions, exchange: config.EVENTS_EXCHANGE });
    kit.onStop(() => sessionInvalidation.stop());
    announceSessions = (change) => announceSessionsEnded(broker, config.EVENTS_EXCHANGE, change, logger);
    // account.deleted erases the user's sessions, settings, positions and progressions (@folio/messaging decodes it).
    const eraser = new AccountEraser(store, sessions, logger, kosync, progressions);
    await kit.eraser({ broker, connection, config, erase: ({ userId }) => eraser.erase(userId).then(() => {}) });

    // Publishing: uploads stream into storage and wait on the ingest work queue; this replica's
    // worker (INGEST_WORKER) runs one job at a time in a child process, and every replica drops
    // an issue's cached manifest when its new file is live (content.ingested).
    const manifestForgetter: ManifestForgetter = {
      forget(tenantId, issueId) {
        manifestCache.summaries.delete(`${tenantId}:${issueId}`);
        manifestCache.structures.delete(`${tenantId}:${issueId}`);
        manifestCache.coverKeys?.delete(issueId);
      },
      forgetAll() {
        manifestCache.summaries.clear();
        manifestCache.structures.clear();
        manifestCache.coverKeys?.clear();
      },
    };
    const contentInvalidation = await subscribeContentInvalidation({ broker, logger, manifests: manifestForgetter, exchange: config.EVENTS_EXCHANGE });
    kit.onStop(() => contentInvalidation.stop());
    const contentJobs = new MongoContentJobRepository(connection);
    await contentJobs.ensureIndexes();
    const ingestQueue = new IngestWorkQueue(broker, config.INGEST_QUEUE, logger);
    kit.onStop(() => ingestQueue.close());
    const uploadLimits = { maxBytes: config.UPLOAD_MAX_MB * 1024 * 1024, maxAttempts: config.INGEST_MAX_ATTEMPTS };
    const uploads = new ContentUploads({ jobs: contentJobs, manifests: store.manifests, storage, queue: ingestQueue, limits: uploadLimits });
    if (config.INGEST_WORKER) {
      const runner = new ChildProcessIngestRunner({
        mongoUrl: config.MONGO_URL,
        // Only what opening the storage takes crosses to the child.
        storage: {
          READER_STORAGE: config.READER_STORAGE,
          READER_STORAGE_DIR: config.READER_STORAGE_DIR,
          S3_ENDPOINT: config.S3_ENDPOINT,
          S3_REGION: config.S3_REGION,
          S3_BUCKET: config.S3_BUCKET,
          S3_ACCESS_KEY_ID: config.S3_ACCESS_KEY_ID,
          S3_SECRET_ACCESS_KEY: config.S3_SECRET_ACCESS_KEY,
          S3_FORCE_PATH_STYLE: config.S3_FORCE_PATH_STYLE,
          S3_PREFIX: config.S3_PREFIX,
        },
        bounds: {
          archive: archiveLimitsOf(config),
          deadlineMs: config.INGEST_DEADLINE_SECONDS * 1000,
          toolTimeoutMs: config.PDF_TOOL_TIMEOUT_SECONDS * 1000,
          toolMaxMemoryBytes: config.PDF_TOOL_MAX_MB * 1024 * 1024,
        },
        pdfPageWidth: config.PDF_PAGE_WIDTH,
        heapMb: config.INGEST_CHILD_HEAP_MB,
        timeoutMs: config.INGEST_JOB_TIMEOUT_SECONDS * 1000,
        logger,
      });
      const ingestJobs = new IngestJobs({
        jobs: contentJobs,
        manifests: store.manifests,
        storage,
        runner,
        announcer: new ContentIngestedPublisher({ broker, exchange: config.EVENTS_EXCHANGE, manifests: manifestForgetter, logger }),
        limits: uploadLimits,
        log: (level, fields, message) => logger[level](fields, message),
      });
      const worker = ingestQueue.consume((job) => ingestJobs.run(job));
      kit.onStop(async () => {
        runner.stop();
        await worker.stop();
      });
    }

    const grpc = await kit.grpc(config, [
      {
        name: SERVICE_NAME,
        definition: reader.ReaderServiceService,
        handlers: readerHandlers({ sessions, settings, positions, downloads, search, publications, progressions, uploads }),
      },
      { name: SYNC_SERVICE_NAME, definition: readerSync.ReaderSyncServiceService, handlers: readerSyncHandlers({ files, kosync }) },
    ]);

    return { grpcPort: grpc.port, mediaPort: media.port, stop: kit.stop };
  });
}
