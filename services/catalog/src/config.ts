// Typed configuration of the catalog service, parsed once at boot. Every
// other module receives the parsed object; nothing else reads process.env.
import { accountEraserEnv, env, loadConfig, serviceEnv } from '@folio/config';
import { tmpdir } from 'node:os';
import { z } from 'zod';

export const DEV_CURSOR_SECRET = 'dev-only-catalog-cursor-secret-change-me';

export const configSchema = serviceEnv({ grpcPort: 50052, database: 'folio_catalog' }).extend({
  /** Tenant settings (storefront_search flag, domain) come from identity's GetTenant. */
  IDENTITY_ADDR: env.grpcAddress('127.0.0.1:50051'),
  /** Access decisions and storefront offers come from commerce. */
  COMMERCE_ADDR: env.grpcAddress('127.0.0.1:50053'),
  /** Reading positions (continue reading) come from reader; while it is down that shelf is empty. */
  READER_ADDR: env.grpcAddress('127.0.0.1:50054'),
  /** Deadline of each call to identity and commerce; below the gateway's own deadline (2 s). */
  UPSTREAM_DEADLINE_MS: env.int(1_500).pipe(z.number().min(50)),
  /** Deadline of reader calls: a slow reader only costs the continue-reading shelf. */
  READER_DEADLINE_MS: env.int(700).pipe(z.number().min(50)),
  /** How long tenant settings from identity are reused when no tenant.updated dropped them first. */
  TENANT_CACHE_TTL_MS: env.int(30_000).pipe(z.number().min(0)),
  /**
   * Access decisions and offers from commerce are cached per tenant, user and issue and dropped by
   * commerce's access.changed; this TTL only bounds staleness when that event was missed (broker down). 0 disables.
   */
  ACCESS_CACHE_TTL_MS: env.int(30_000).pipe(z.number().min(0)),
  /** Offers kept in that cache (least recently used evicted first). */
  ACCESS_CACHE_MAX_ENTRIES: env.int(200_000).pipe(z.number().min(100)),

  /** A tenant's store address; `{domain}` and `{tenant_id}` are replaced. purchase_link = `<store>/app/purchase/<issue_id>`. */
  STORE_URL_TEMPLATE: env.string('http://{domain}:8080'),
  /**
   * Cover URL of issues that have none of their own (the demo dataset has none); `{issue_id}`
   * and `{tenant_id}` are replaced. The reader service serves real covers later.
   */
  COVER_URL_TEMPLATE: env.string('http://127.0.0.1:8080/media/covers/{issue_id}.svg'),
  /**
   * Signs my-content cursors so that clients cannot forge positions. A cursor only
   * positions a user within their own content, so the dev default is a warning in
   * production, not a refusal to start; set it anyway.
   */
  CURSOR_SECRET: env.string(DEV_CURSOR_SECRET),

  /** Shelves per page of GET /library (`per_page` there is items per shelf). */
  LIBRARY_SHELVES_PER_PAGE: env.int(4).pipe(z.number().min(1).max(50)),
  /**
   * Storefront listings (scope=all) ask commerce which candidates are individually acquirable,
   * in one call per request; this caps the candidates of each listing (best ranked / newest first).
   */
  STOREFRONT_CANDIDATE_LIMIT: env.int(1_000).pipe(z.number().min(10).max(20_000)),
  /**
   * Search hits kept as whole rankings of recent queries (domain/ranked-queries.ts), over all
   * queries: about 60 bytes each, so the default holds ~12 MB. 0 keeps none.
   */
  SEARCH_CACHE_HITS: env.int(200_000).pipe(z.number().min(0)),
  /** Reading positions considered for the library's continue-reading shelf (most recent first). */
  CONTINUE_READING_WINDOW: env.int(100).pipe(z.number().min(1).max(1_000)),
  /**
   * Periodic catch-up of the in-memory index with writes of other replicas (by updated_at); 0 disables it.
   * Announced writes (issues.changed) are caught up at once; this bounds a lost announcement: a publish or a
   * withdrawal shows in every replica's listings within this interval plus one catch-up (under 1 s), so it
   * stays below the publisher API's 10 s bound.
   */
  INDEX_REFRESH_INTERVAL_MS: env.int(5_000).pipe(z.number().min(0)),
  /**
   * How often a replica whose view changed writes a snapshot of it (one replica per state, see
   * domain/snapshot.ts); replicas start from the latest one. 0: this replica never writes one.
   */
  SNAPSHOT_INTERVAL_MS: env.int(300_000).pipe(z.number().min(0)),
  /**
   * A replica whose view took this many changes since the last snapshot it knows of (a bulk import, a
   * start that caught up with them) writes one within a second or two rather than at the next interval,
   * at most once a minute (domain/snapshot-refresh.ts); 0: only at the interval.
   */
  SNAPSHOT_REFRESH_CHANGES: env.int(2_000).pipe(z.number().min(0)),
  /**
   * Where the in-memory view keeps its issues' details (titles, descriptions, tags...): files
   * created and unlinked at once, so nothing is left behind (data/issue-details-file.ts). About
   * 350 bytes per issue, up to twice that before a compaction: give it room (an emptyDir in
   * Kubernetes). Default: the OS temporary directory.
   */
  ISSUE_DETAILS_DIR: env.string(tmpdir()),
  /** Size of the snapshot's chunk documents (each one `_id` lookup at start); below MongoDB's 16 MB document limit. */
  SNAPSHOT_CHUNK_BYTES: env.int(4 * 1024 * 1024).pipe(
    z
      .number()
      .min(1_024)
      .max(12 * 1024 * 1024),
  ),

  /** identity's exchange (account.deleted, tenant.updated) and the eraser's queue and retries. */
  ...accountEraserEnv('catalog'),
  /** reader's topic exchange: content.ingested (an issue's new file is ready), consumed by `<QUEUE_PREFIX>.content-ingested`. */
  READER_EVENTS_EXCHANGE: env.string('reader.events'),
  /** Commerce's topic exchange, where access.changed is published. */
  COMMERCE_EVENTS_EXCHANGE: env.string('commerce.events'),
  /**
   * Catalog's own topic exchange: favorites.changed, which drops a user's cached favorites on every replica, and
   * issues.changed, on which the other replicas catch up at once and the gateway drops the tenant's cached listings.
   */
  EVENTS_EXCHANGE: env.string('catalog.events'),
  /** How long a user's favorite flags are served from memory at most (0: read each time); dropped on change. */
  FAVORITE_CACHE_TTL_MS: env.int(60_000).pipe(z.number().min(0)),

  /** Seed script only: the demo dataset; defaults to <repo>/fixtures/demo-dataset.json. */
  FIXTURES_PATH: z.string().optional(),
});

export type CatalogConfig = z.infer<typeof configSchema>;

export function loadCatalogConfig(environment: Record<string, string | undefined> = process.env): CatalogConfig {
  return loadConfig(configSchema, environment);
}
