// Wires the catalog service: database, the in-memory catalog view (loaded
// before the first call, then kept in sync), clients of identity, commerce
// and reader, the account-deletion consumer and the gRPC server. Tests start
// it in-process on port 0 with a fresh database.
import { createPromiseClient } from '@folio/grpc';
import { createLogger, type Logger } from '@folio/logger';
import { announceUserChange, ReferenceCache, subscribeUserChanges, type AccountDeletion } from '@folio/messaging';
import { catalog, commerce, identity, reader } from '@folio/proto';
import { startService } from '@folio/service';
import { DEV_CURSOR_SECRET, type CatalogConfig } from './config.js';
import { forgetFavoritesOf, openCatalogRepositories, type FavoriteCache } from './data/index.js';
import { CatalogSync } from './domain/catalog-sync.js';
import { CatalogView } from './domain/catalog-view.js';
import { CatalogSnapshots, type SnapshotWrite, type ViewLoad } from './domain/snapshot.js';
import { IssueDetailsFile } from './data/issue-details-file.js';
import { MongoSnapshotRepository } from './data/snapshots.js';
import { SnapshotRefresh } from './domain/snapshot-refresh.js';
import { ContinueReading } from './domain/continue-reading.js';
import { CursorCodec } from './domain/cursor.js';
import { Favorites } from './domain/favorites.js';
import { IssueLookup } from './domain/issues.js';
import { Library } from './domain/library.js';
import { MyContent } from './domain/my-content.js';
import { RankedQueries } from './domain/ranked-queries.js';
import { Search } from './domain/search.js';
import { Storefront } from './domain/storefront.js';
import { FAVORITES_CHANGED, subscribeCacheInvalidation } from './events/cache-invalidation.js';
import { startContentIngestedConsumer } from './events/content-ingested.js';
import { announceIssuesChanged, subscribeIssuesChanged } from './events/issues-changed.js';
import { CatalogIngest, type AnnounceIssues } from './domain/ingest.js';
import { IngestedContent } from './domain/ingested-content.js';
import { Publishing } from './domain/publishing.js';
import { catalogHandlers } from './grpc/handlers.js';
import { Presenter } from './grpc/mappers.js';
import { CachedAccess } from './peers/cached-access.js';
import { CommerceAccess } from './peers/commerce.js';
import { ReaderPositions } from './peers/reader.js';
import { IdentityTenants } from './peers/tenants.js';
import { processIdleCollector } from './runtime/idle-collector.js';

export const SERVICE_NAME = 'svc.catalog.v1.CatalogService';

export interface RunningCatalog {
  grpcPort: number;
  /** Stops taking calls, drains the consumer, closes every connection. */
  stop(): Promise<void>;
  /** Runs the periodic catch-up of the in-memory view now; resolves with the number of documents applied. */
  catchUpIndex(): Promise<number>;
  /** How the view was filled at start: from a snapshot (plus a catch-up) or from the whole catalog. */
  startedFrom: ViewLoad;
  /** Writes a snapshot of the view now if it changed since the last one (replicas start from it). */
  writeSnapshot(): Promise<SnapshotWrite>;
  /**
   * True once every cache-invalidation subscription is bound. The broker
   * connects in the background (a catalog serves without RabbitMQ), and each
   * subscription empties its cache when it binds, so a test that relies on a
   * cached value waits for this first.
   */
  invalidationsLive(): boolean;
}

export async function startCatalog(
  config: CatalogConfig,
  logger: Logger = createLogger({ service: 'catalog', level: config.LOG_LEVEL }),
): Promise<RunningCatalog> {
  if (config.NODE_ENV === 'production' && config.CURSOR_SECRET === DEV_CURSOR_SECRET) {
    logger.warn('CURSOR_SECRET is the public development default: set a secret of your own');
  }

  // Each connection closes on stop, newest first, or when start-up fails half-way.
  return startService('catalog', logger, async (kit) => {
    const connection = await kit.mongo(config.MONGO_URL);
    // A user's favorite flags (every GET /reader/settings asks): dropped by this replica's
    // writes at once and by favorites.changed on the others.
    let announceFavorites: (userId: number) => void = () => {};
    const favoriteCache: FavoriteCache = {
      entries: new ReferenceCache({ name: 'catalog-favorites', ttlMs: config.FAVORITE_CACHE_TTL_MS, maxEntries: 100_000 }),
      changed: (userId) => announceFavorites(userId),
    };
    const store = await openCatalogRepositories(connection, { favorites: favoriteCache });

    // Each tenant's issue details in files of their own, off the heap.
    // Present when the process runs with --expose-gc (./dev and the manifests start catalog so).
    const collectGarbage = (globalThis as { gc?: () => void }).gc;
    const view = new CatalogView(() => new IssueDetailsFile(config.ISSUE_DETAILS_DIR));
    const sync = new CatalogSync(view, store, logger);
    // From the latest snapshot plus a catch-up when there is a usable one, else the whole catalog.
    const snapshots = new CatalogSnapshots(
      {
        view,
        sync,
        store: new MongoSnapshotRepository(connection, config.SNAPSHOT_CHUNK_BYTES),
        logger,
        collectGarbage,
      },
      { intervalMs: config.SNAPSHOT_INTERVAL_MS },
    );
    const loaded = await snapshots.loadView();
    logger.info(loaded, 'catalog view loaded');
    sync.start(config.INDEX_REFRESH_INTERVAL_MS);
    kit.onStop(() => sync.stop());
    kit.onStop(() => snapshots.stop());
    // What a burst of calls leaves in the heap is collected once the replica is idle again.
    const idleCollector = collectGarbage && processIdleCollector(collectGarbage);
    idleCollector?.start();
    kit.onStop(() => idleCollector?.stop());

    const identityClient = createPromiseClient(identity.IdentityServiceClient, config.IDENTITY_ADDR);
    const commerceClient = createPromiseClient(commerce.CommerceServiceClient, config.COMMERCE_ADDR);
    const readerClient = createPromiseClient(reader.ReaderServiceClient, config.READER_ADDR);
    kit.onStop(() => [identityClient, commerceClient, readerClient].forEach((client) => client.close()));

    const tenants = new IdentityTenants(identityClient, { ttlMs: config.TENANT_CACHE_TTL_MS, deadlineMs: config.UPSTREAM_DEADLINE_MS, logger });
    const access = new CachedAccess(new CommerceAccess(commerceClient, config.UPSTREAM_DEADLINE_MS), {
      ttlMs: config.ACCESS_CACHE_TTL_MS,
      maxEntries: config.ACCESS_CACHE_MAX_ENTRIES,
    });
    const reading = new ReaderPositions(readerClient, { deadlineMs: config.READER_DEADLINE_MS, logger });
    const storefront = new Storefront(access, tenants, config.STORE_URL_TEMPLATE);

    const favorites = new Favorites({ view, favorites: store.favorites, issues: store.issues });
    const library = new Library({
      view,
      access,
      reading,
      storefront,
      settings: {
        shelvesPerPage: config.LIBRARY_SHELVES_PER_PAGE,
        candidateLimit: config.STOREFRONT_CANDIDATE_LIMIT,
        continueReadingWindow: config.CONTINUE_READING_WINDOW,
      },
    });
    const search = new Search({
      view,
      access,
      tenants,
      storefront,
      candidateLimit: config.STOREFRONT_CANDIDATE_LIMIT,
      rankings: new RankedQueries({ maxHits: config.SEARCH_CACHE_HITS }),
    });
    const myContent = new MyContent({ view, access, cursors: new CursorCodec(config.CURSOR_SECRET) });
    const continueReading = new ContinueReading({ view, reading });
    const issues = new IssueLookup({ view, issues: store.issues });

    const broker = await kit.broker(config.AMQP_URL);
    // The publisher API's writes and reader's content.ingested go to the database, into this view at
    // once, and are announced: the other replicas catch up when they hear it (events/issues-changed.ts).
    const announceIssues: AnnounceIssues = announceIssuesChanged({ broker, exchange: config.EVENTS_EXCHANGE, logger });
    const ingest = new CatalogIngest(store, sync, announceIssues);
    const publishing = new Publishing({ issues: store.issues, ingest, view });
    const issueChanges = await subscribeIssuesChanged({ broker, exchange: config.EVENTS_EXCHANGE, logger, catchUp: () => sync.catchUpSoon() });
    kit.onStop(() => issueChanges.stop());
    const ingestedContent = new IngestedContent({ publishing, logger });
    kit.onStop((await startContentIngestedConsumer({ broker, connection, logger, ingested: ingestedContent, config })).stop);
    // account.deleted erases the user's favorites in every tenant (@folio/messaging decodes it).
    const eraseFavorites = async ({ userId }: AccountDeletion) =>
      logger.info({ user_id: userId, favorites: await favorites.eraseUser(userId) }, 'account data erased');
    await kit.eraser({ broker, connection, config, erase: eraseFavorites });
    const invalidations = await subscribeCacheInvalidation({
      broker,
      logger,
      access,
      tenants,
      exchanges: { commerce: config.COMMERCE_EVENTS_EXCHANGE, identity: config.IDENTITY_EVENTS_EXCHANGE },
    });
    kit.onStop(() => Promise.all(invalidations.map((subscription) => subscription.stop())));
    const favoriteInvalidation = await subscribeUserChanges({
      broker,
      logger,
      exchange: config.EVENTS_EXCHANGE,
      type: FAVORITES_CHANGED,
      forgetUser: (userId) => forgetFavoritesOf(favoriteCache.entries, userId),
      forgetAll: () => favoriteCache.entries.clear(),
    });
    kit.onStop(() => favoriteInvalidation.stop());
    announceFavorites = (userId) => announceUserChange(broker, config.EVENTS_EXCHANGE, FAVORITES_CHANGED, userId, logger);

    const grpc = await kit.grpc(config, [
      {
        name: SERVICE_NAME,
        definition: catalog.CatalogServiceService,
        handlers: catalogHandlers({
          issues,
          library,
          favorites,
          search,
          myContent,
          continueReading,
          publishing,
          presenter: new Presenter(config.COVER_URL_TEMPLATE),
        }),
      },
    ]);

    // Snapshots are written only once serving: a write holds the event loop and the store, which the
    // rest of a start (subscriptions, consumers) would wait on.
    snapshots.start();
    // Many changes since the snapshot (a start that caught up with an import) are written into a new one
    // soon, so that the next start does not read them again.
    if (config.SNAPSHOT_INTERVAL_MS > 0 && config.SNAPSHOT_REFRESH_CHANGES > 0) {
      const refresh = new SnapshotRefresh({ sync, snapshots, logger }, { changes: config.SNAPSHOT_REFRESH_CHANGES, checkMs: 1_000, minGapMs: 60_000 });
      // A full load's snapshot is written by snapshots.start(); a restored view counts from its snapshot.
      refresh.start(loaded.source === 'snapshot' ? 0 : sync.changeCount);
      kit.onStop(() => refresh.stop());
    }

    return {
      grpcPort: grpc.port,
      stop: kit.stop,
      catchUpIndex: () => sync.catchUp(),
      startedFrom: loaded,
      writeSnapshot: () => snapshots.writeSnapshot(),
      invalidationsLive: () => [...invalidations, favoriteInvalidation, issueChanges].every((subscription) => subscription.attached()),
    };
  });
}
