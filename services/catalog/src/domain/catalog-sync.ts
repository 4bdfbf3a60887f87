// Keeps the in-memory view (catalog-view.ts) in step with MongoDB.
//
// Consistency, as documented for operators and API users:
//   - at start the view is filled before the gRPC server takes calls, so a
//     replica never answers from a half-loaded view: either from the stored
//     snapshot (snapshot.ts) followed by a catch-up from the snapshot's
//     high-water mark, or, when there is no usable snapshot, by reading the
//     whole catalog in batches. Both give the view a catch-up would have
//     given at the snapshot's time, brought up to date the same way;
//   - every write this process makes (seed, ingest) is applied to the view
//     right after MongoDB acknowledged it: read-your-writes on one replica;
//   - writes of other processes (other replicas, the seed command) are picked
//     up by a catch-up on `updated_at`: at once when the writer's issues.changed
//     announcement arrives (events/issues-changed.ts), and periodically in any
//     case, read by change bucket so that
//     it is an index lookup on FerretDB too (INDEX_REFRESH_INTERVAL_MS,
//     5 s by default), re-reading an overlap window of a few seconds so that
//     writers whose clocks differ by less than that are not missed. Removal is
//     a tombstone (`deleted_at`), which the catch-up sees like any change.
//     A snapshot records the high-water mark of the view it holds, so the
//     catch-up after a restore re-reads that same overlap window.
// So listings and search are eventually consistent across replicas: within
// the time a catch-up takes after an announced write (well under a second),
// and within one refresh interval plus one catch-up when the announcement is
// lost (broker down): 5 s + well under 1 s, inside the publisher API's 10 s
// bound for a publish or a withdrawal to show everywhere. Favorites are not part of the view: they are read from
// MongoDB on every call.
import type { Logger } from '@folio/logger';
import type { CatalogView, CollectionRecord, IssueRecord, IssueTags } from './catalog-view.js';
import { ValuePool } from './value-pool.js';
import type { ViewSnapshot } from './snapshot-codec.js';
import { stateOf, type CollectionRepository, type IssueRepository, type StoredCollection, type StoredIssue } from './repositories.js';

/** What the sync reads: the whole catalog at start, then what changed (repositories.ts). */
export interface CatalogSource {
  issues: Pick<IssueRepository, 'all' | 'changedSince'>;
  collections: Pick<CollectionRepository, 'all' | 'changedSince'>;
}

/**
 * `shared`: where records built together (a load, a batch) get the values
 * the view keeps in memory (type, shelves) from; the other fields go to the
 * details store as they are (issue-details.ts).
 */
export function toIssueRecord(doc: StoredIssue, shared = new ValuePool()): IssueRecord {
  const tags: IssueTags = { author: doc.tags?.author ?? [], keyword: doc.tags?.keyword ?? [], edition: doc.tags?.edition ?? [] };
  return {
    id: doc._id,
    tenantId: doc.tenant_id,
    name: doc.name,
    slug: doc.slug,
    type: shared.string(doc.type),
    description: doc.description ?? '',
    externalId: doc.external_id ?? '',
    numberOfPages: typeof doc.number_of_pages === 'number' ? doc.number_of_pages : null,
    lang: doc.lang ?? '',
    author: doc.author ?? '',
    publisher: doc.publisher ?? '',
    bisac: doc.bisac ?? '',
    publishedAtMs: new Date(doc.published_at).getTime(),
    tags,
    keywords: tags.keyword,
    collections: shared.list(doc.collections),
    coverUrl: doc.cover_url ?? null,
    accessibility: doc.accessibility ?? null,
    listed: stateOf(doc) === 'published',
    updatedAtMs: doc.updated_at ? new Date(doc.updated_at).getTime() : 0,
  };
}

function toCollectionRecord(doc: StoredCollection): CollectionRecord {
  return { tenantId: doc.tenant_id, slug: doc.slug, title: { ...(doc.title ?? {}) }, position: doc.position ?? 0 };
}

function sameCollection(a: CollectionRecord, b: CollectionRecord): boolean {
  const titles = (record: CollectionRecord) => JSON.stringify(Object.entries(record.title).sort(([x], [y]) => x.localeCompare(y)));
  return a.position === b.position && titles(a) === titles(b);
}

/** A position in the change feed: changes after this issue (by `updated_at`, then `_id`). */
type FeedCursor = { updated_at: Date; _id: number };

/**
 * Changes read before the view they are for exists: a start reads them while
 * the snapshot is fetched and decoded (snapshot.ts), then applies them with
 * catchUpFrom(). Held in memory, so the read stops at a cap and the rest is
 * read after the restore.
 */
export interface ReadAhead {
  /** The snapshot's high-water mark it was read for: only that view may adopt it. */
  highWater: Date;
  /** When reading began: the next catch-up starts there, minus the overlap. */
  startedAt: Date;
  since: Date;
  issues: StoredIssue[];
  collections: StoredCollection[];
  /** Where the read stopped at the cap; absent when it read everything. */
  resumeAfter?: FeedCursor;
}

export interface SyncOptions {
  /** How far before the last seen change a catch-up starts reading again (clock skew between writers). */
  overlapMs?: number;
  batchSize?: number;
  /** How many issues a read-ahead holds at most before it leaves the rest to the catch-up. */
  readAheadIssues?: number;
}

export class CatalogSync {
  private watermark: Date | undefined;
  private changes = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private again = false;
  private readonly overlapMs: number;
  private readonly batchSize: number;
  private readonly readAheadIssues: number;

  constructor(
    private readonly view: CatalogView,
    private readonly source: CatalogSource,
    private readonly logger: Logger,
    options: SyncOptions = {},
  ) {
    this.overlapMs = options.overlapMs ?? 5_000;
    this.batchSize = options.batchSize ?? 2_000;
    this.readAheadIssues = options.readAheadIssues ?? 50_000;
  }

  /** Reads the whole catalog into the view; `indexMs` is the part spent building the view, the rest is reading. */
  async load(): Promise<{ issues: number; collections: number; ms: number; indexMs: number }> {
    const started = performance.now();
    // Anything written while the load runs is read again by the first catch-up.
    const startedAt = new Date();
    let issues = 0;
    let indexMs = 0;
    // One pool for the whole load, so that every record shares a list with all others; dropped with it.
    const shared = new ValuePool();
    const timed = (work: () => void) => {
      const t = performance.now();
      work();
      indexMs += performance.now() - t;
    };
    for await (const batch of this.source.issues.all(this.batchSize)) {
      timed(() => this.applyIssues(batch, shared));
      issues += batch.length;
    }
    const collections = await this.source.collections.all();
    timed(() => {
      this.applyCollections(collections);
      // Also packs the posting lists, which grew one by one (search-index.ts).
      this.view.prepare();
    });
    this.watermark = startedAt;
    return { issues, collections: collections.length, ms: Math.round(performance.now() - started), indexMs: Math.round(indexMs) };
  }

  /** Adopts a snapshot's view and its high-water mark; a catchUp() then brings it up to date. */
  restore(snapshot: ViewSnapshot): void {
    this.view.restore(snapshot);
    this.watermark = snapshot.watermark;
  }

  /** The latest `updated_at` the view reflects: the catch-up starts there, minus the overlap. */
  get highWater(): Date | undefined {
    return this.watermark;
  }

  /** Grows with every change applied to the view: whether a new snapshot is worth writing. */
  get changeCount(): number {
    return this.changes;
  }

  /** Applies written or read issue documents to the view (tombstones remove). */
  applyIssues(docs: readonly StoredIssue[], shared = new ValuePool()): void {
    for (const doc of docs) {
      // The overlap window of a catch-up brings back documents the view already holds.
      const current = this.view.issueById(doc._id);
      // A draft is seen by nothing but the publisher RPCs: the view holds none.
      if (doc.deleted_at || stateOf(doc) === 'draft') {
        if (current) {
          this.view.removeIssue(doc._id);
          this.changes += 1;
        }
      } else {
        const unchanged = current && doc.updated_at && current.updatedAtMs === new Date(doc.updated_at).getTime() && current.tenantId === doc.tenant_id;
        if (!unchanged) {
          this.view.upsertIssue(toIssueRecord(doc, shared));
          this.changes += 1;
        }
      }
      this.advance(doc.updated_at);
    }
  }

  applyCollections(docs: readonly StoredCollection[]): void {
    for (const doc of docs) {
      const current = this.view.tenant(doc.tenant_id)?.collection(doc.slug);
      if (doc.deleted_at) {
        if (current) {
          this.view.removeCollection(doc.tenant_id, doc.slug);
          this.changes += 1;
        }
      } else {
        const record = toCollectionRecord(doc);
        if (!current || !sameCollection(current, record)) {
          this.view.upsertCollection(record);
          this.changes += 1;
        }
      }
      this.advance(doc.updated_at);
    }
  }

  /** Sorts what changed writes left unsorted, off the request path. */
  prepare(): void {
    this.view.prepare();
  }

  /** Reads what changed since the last seen change (minus the overlap); returns the number of documents applied. */
  catchUp(): Promise<number> {
    this.running ??= this.readChanges().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * Reads what a view restored from a snapshot with this high-water mark lacks, without
   * touching the view: the same read as that view's first catch-up, started before it exists.
   */
  async readAhead(highWater: Date): Promise<ReadAhead> {
    const startedAt = new Date();
    const since = this.catchUpStart(highWater);
    const issues: StoredIssue[] = [];
    const resumeAfter = await this.readIssues(since, undefined, (page) => issues.push(...page), this.readAheadIssues);
    const collections = await this.source.collections.changedSince(since);
    return { highWater, startedAt, since, issues, collections, resumeAfter };
  }

  /**
   * The first catch-up of a restored view from changes read ahead for it (the rest of the
   * feed read now when the read-ahead stopped at its cap). Returns the documents applied,
   * or undefined when the view is not the one they were read for (then catchUp()).
   */
  catchUpFrom(ahead: ReadAhead): Promise<number> | undefined {
    if (this.running || this.watermark?.getTime() !== ahead.highWater.getTime()) return undefined;
    this.running = this.readChanges(ahead).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * A catch-up that starts after this call: an announced write (issues.changed)
   * may have been committed after a catch-up already running had read past it,
   * so a running one is followed by one more (several calls meanwhile share it).
   */
  catchUpSoon(): void {
    const fail = (error: unknown) => this.logger.warn({ err: error }, 'catalog index catch-up failed; retrying at the next interval');
    if (!this.running) {
      this.catchUp().catch(fail);
      return;
    }
    if (this.again) return;
    this.again = true;
    this.running
      .catch(() => 0)
      .then(() => {
        this.again = false;
        return this.catchUp();
      })
      .catch(fail);
  }

  /** Catches up every `intervalMs` until stop(); 0 disables it. */
  start(intervalMs: number): void {
    if (intervalMs <= 0) return;
    this.timer = setInterval(() => {
      this.catchUp().catch((error: unknown) => this.logger.warn({ err: error }, 'catalog index catch-up failed; retrying at the next interval'));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => 0);
  }

  private async readChanges(ahead?: ReadAhead): Promise<number> {
    // Everything committed before this moment is read below, so the next catch-up can start
    // here (minus the overlap) even when nothing changed: it never re-reads a long quiet past.
    const startedAt = ahead?.startedAt ?? new Date();
    const since = ahead?.since ?? this.catchUpStart(this.watermark);
    let applied = 0;
    const apply = (page: StoredIssue[]) => {
      this.applyIssues(page);
      applied += page.length;
    };
    if (ahead) apply(ahead.issues);
    if (!ahead || ahead.resumeAfter) await this.readIssues(since, ahead?.resumeAfter, apply);
    const collections = ahead?.collections ?? (await this.source.collections.changedSince(since));
    this.applyCollections(collections);
    applied += collections.length;
    this.advance(startedAt);
    if (applied > 0) {
      this.view.prepare();
      this.logger.debug({ applied }, 'catalog index caught up');
    }
    return applied;
  }

  private catchUpStart(highWater: Date | undefined): Date {
    return new Date((highWater ?? new Date(0)).getTime() - this.overlapMs);
  }

  /** Hands the issues changed since `since` to `take` page by page; stops after `max` with where it stopped. */
  private async readIssues(since: Date, from: FeedCursor | undefined, take: (page: StoredIssue[]) => void, max = Infinity): Promise<FeedCursor | undefined> {
    let after = from;
    let read = 0;
    for (;;) {
      const page = await this.source.issues.changedSince(since, this.batchSize, after);
      take(page);
      read += page.length;
      const last = page.at(-1);
      if (!last || page.length < this.batchSize) return undefined;
      after = { updated_at: last.updated_at, _id: last._id };
      if (read >= max) return after;
    }
  }

  private advance(updatedAt: Date | undefined): void {
    if (updatedAt && (!this.watermark || updatedAt > this.watermark)) this.watermark = new Date(updatedAt);
  }
}
