// Starts the catalog view from a stored snapshot instead of reading every
// issue, and keeps that snapshot recent. Reading 100,000 issues from the
// local FerretDB and tokenizing them takes tens of seconds; restoring a
// snapshot is a few `_id` lookups and a decode, and the catch-up that
// follows reads only what changed since the snapshot's high-water mark.
//
// Start (loadView): read the head; if it names a snapshot of this code's
// format and fingerprint whose bytes are all there and match their SHA-256,
// adopt it and catch up from its high-water mark (the same read as the
// periodic catch-up, overlap included). That read starts as soon as the head
// is known, beside fetching and decoding the snapshot (CatalogSync.readAhead):
// after a bulk write it is the longer part of a start, and it is the store's
// work, not this process's. Otherwise (fresh
// database, other version, corrupt or half-deleted snapshot) log why, read
// the whole catalog as before, and write a snapshot in the background once
// the replica serves (start()).
//
// Writing: every `intervalMs`, a replica whose view changed since the last
// snapshot it knows of writes one, unless the head is already at least as
// recent. Replicas in the same state compete for the same snapshot id (the
// high-water mark and issue count) with a unique insert, so one of them
// writes it. Capturing the view is synchronous (a consistent state and its
// high-water mark); compressing and storing are not.
import { createHash } from 'node:crypto';
import type { Logger } from '@folio/logger';
import type { CatalogSync, ReadAhead } from './catalog-sync.js';
import type { CatalogView } from './catalog-view.js';
import { decodeSnapshot, encodeSnapshot, SNAPSHOT_FINGERPRINT, SNAPSHOT_FORMAT, UnusableSnapshotError } from './snapshot-codec.js';
import type { SnapshotHead, SnapshotRepository } from './repositories.js';

export type ViewLoad =
  | { source: 'snapshot'; snapshotId: string; issues: number; caughtUp: number; ms: number; restoreMs: number }
  | { source: 'database'; issues: number; collections: number; ms: number; indexMs: number; snapshotIgnored?: string };

export type SnapshotWrite =
  | { written: true; snapshotId: string; bytes: number; chunks: number; ms: number; blockingMs: number }
  | { written: false; reason: 'unchanged' | 'head is current' | 'claimed by another replica' };

/** A snapshot older than this (by high-water mark) is rewritten even if nothing changed. */
const SNAPSHOT_MAX_AGE_MS = 30 * 60_000;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export class CatalogSnapshots {
  /** The sync's change count the last known snapshot reflects (-1: none). */
  private savedChanges = -1;
  /** The high-water mark of the last known snapshot: an old one is refreshed even without changes. */
  private savedHighWater = 0;
  private writing: Promise<SnapshotWrite> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      view: CatalogView;
      sync: CatalogSync;
      store: SnapshotRepository;
      logger: Logger;
      /**
       * A full garbage collection, when the runtime offers one (app.ts). Restoring or writing a
       * snapshot leaves ~130 MB of buffers behind at 100,000 issues, and V8 would only collect
       * them at some later major GC, which an idle replica may not run for a long time.
       */
      collectGarbage?: () => void;
    },
    private readonly options: { intervalMs: number },
  ) {}

  /** Fills the view, from the snapshot when one is usable, else from the database; prepared for the first call. */
  async loadView(): Promise<ViewLoad> {
    try {
      return await this.fillView();
    } finally {
      this.deps.collectGarbage?.();
    }
  }

  private async fillView(): Promise<ViewLoad> {
    const started = performance.now();
    const { sync, logger } = this.deps;
    let readingAhead: Promise<ReadAhead | undefined> | undefined;
    const restored = await this.restore((head) => {
      // The store reads the changes since the snapshot while this process fetches and decodes it.
      readingAhead = sync.readAhead(head.watermark).catch((error: unknown) => {
        logger.warn({ err: error }, 'catalog changes not read ahead of the snapshot; catching up after it');
        return undefined;
      });
    });
    const ahead = await readingAhead;
    if (typeof restored !== 'string') {
      const restoreMs = Math.round(performance.now() - started);
      this.saved(sync.changeCount, restored.watermark);
      const caughtUp = await ((ahead && sync.catchUpFrom(ahead)) ?? sync.catchUp());
      sync.prepare();
      return {
        source: 'snapshot',
        snapshotId: restored.snapshot_id,
        issues: this.deps.view.issueCount,
        caughtUp,
        ms: Math.round(performance.now() - started),
        restoreMs,
      };
    }
    const loaded = await sync.load();
    return { source: 'database', ...loaded, ...(restored === 'none' ? {} : { snapshotIgnored: restored }) };
  }

  /**
   * Writes a snapshot every `intervalMs` when the view changed, and at once after a full load;
   * 0 disables writing. Called once the replica serves: a write holds the event loop and the store.
   */
  start(): void {
    if (this.options.intervalMs <= 0) return;
    this.timer = setInterval(() => this.writeInBackground(), this.options.intervalMs);
    this.timer.unref();
    if (this.savedChanges < 0) this.writeInBackground();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.writing?.catch(() => undefined);
  }

  /** Writes a snapshot now if the view changed since the last one known (one write at a time). */
  writeSnapshot(): Promise<SnapshotWrite> {
    const previous = this.writing?.catch(() => undefined) ?? Promise.resolve();
    const next = previous.then(() => this.writeIfChanged());
    this.writing = next;
    return next.finally(() => {
      if (this.writing === next) this.writing = undefined;
    });
  }

  private writeInBackground(): void {
    this.writeSnapshot().then(
      (result) => {
        if (!result.written) return;
        this.deps.logger.info(result, 'catalog snapshot written');
        this.deps.collectGarbage?.();
      },
      (error: unknown) => {
        this.deps.logger.warn({ err: error }, 'catalog snapshot not written; retrying at the next interval');
        this.deps.collectGarbage?.();
      },
    );
  }

  /**
   * The head adopted, or why none was: 'none' (no snapshot yet) or a reason to warn about.
   * `usable` hears of a head of this code's format before its bytes are read.
   */
  private async restore(usable: (head: SnapshotHead) => void): Promise<SnapshotHead | string> {
    const { store, sync, view, logger } = this.deps;
    const head = await store.head();
    if (!head) {
      logger.info('no catalog snapshot yet: reading the whole catalog');
      return 'none';
    }
    const unusable = (reason: string) => {
      logger.warn({ snapshotId: head.snapshot_id, reason }, 'catalog snapshot ignored: reading the whole catalog');
      return reason;
    };
    if (head.format !== SNAPSHOT_FORMAT || head.fingerprint !== SNAPSHOT_FINGERPRINT) {
      return unusable(`written by another version (format ${head.format}/${head.fingerprint}, this one reads ${SNAPSHOT_FORMAT}/${SNAPSHOT_FINGERPRINT})`);
    }
    usable(head);
    const bytes = await store.read(head);
    if (!bytes) return unusable('a chunk is missing');
    if (bytes.length !== head.bytes || sha256(bytes) !== head.sha256) return unusable('its bytes do not match their checksum');
    try {
      sync.restore(await decodeSnapshot(bytes));
    } catch (error) {
      view.restore({ tenants: [], collections: [] });
      if (error instanceof UnusableSnapshotError) return unusable(error.message);
      return unusable(`it does not fit the view: ${(error as Error).message}`);
    }
    return head;
  }

  private saved(changes: number, highWater: Date): void {
    this.savedChanges = changes;
    this.savedHighWater = highWater.getTime();
  }

  private async writeIfChanged(): Promise<SnapshotWrite> {
    const { store, sync, view } = this.deps;
    const highWater = sync.highWater;
    if (!highWater) return { written: false, reason: 'unchanged' };
    // A quiet catalog still gets a fresh snapshot now and then, so that a start never catches up over hours.
    const stale = highWater.getTime() - this.savedHighWater > SNAPSHOT_MAX_AGE_MS;
    if (sync.changeCount === this.savedChanges && !stale) return { written: false, reason: 'unchanged' };
    const changes = sync.changeCount;
    const head = await store.head();
    // With changes, only a head at least as recent will do; a refresh is skipped when another replica refreshed lately.
    const recentEnough = changes === this.savedChanges ? highWater.getTime() - SNAPSHOT_MAX_AGE_MS / 2 : highWater.getTime();
    if (head && head.fingerprint === SNAPSHOT_FINGERPRINT && head.watermark.getTime() >= recentEnough) {
      // Another replica stored a view recent enough; a restore catches up from there.
      this.saved(changes, head.watermark);
      return { written: false, reason: 'head is current' };
    }
    const snapshotId = `${highWater.getTime().toString(36)}-${view.issueCount}`;
    if (!(await store.claim(snapshotId))) {
      this.saved(changes, highWater);
      return { written: false, reason: 'claimed by another replica' };
    }
    const started = performance.now();
    // Captured in one synchronous step: the view and the high-water mark it reflects.
    const captured = { ...view.snapshot(), watermark: sync.highWater ?? highWater };
    const capturedChanges = sync.changeCount;
    const encoding = encodeSnapshot(captured);
    // Capturing and serializing hold the event loop (calls wait); compressing and storing do not.
    const blockingMs = Math.round(performance.now() - started);
    const payload = await encoding;
    const written = await store.write(
      {
        snapshot_id: snapshotId,
        format: SNAPSHOT_FORMAT,
        fingerprint: SNAPSHOT_FINGERPRINT,
        sha256: sha256(payload),
        watermark: captured.watermark,
        issues: captured.tenants.reduce((sum, tenant) => sum + tenant.issues.length, 0),
        created_at: new Date(),
      },
      payload,
    );
    this.saved(capturedChanges, captured.watermark);
    return { written: true, snapshotId, bytes: written.bytes, chunks: written.chunks, ms: Math.round(performance.now() - started), blockingMs };
  }
}
