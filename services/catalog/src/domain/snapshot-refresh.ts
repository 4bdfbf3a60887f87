// Writes a snapshot soon after the view took many changes (a bulk import, or a
// start that caught up with thousands of them) instead of at the next
// periodic write (SNAPSHOT_INTERVAL_MS): until then every replica that starts
// reads those changes again, at the store's read rate, and a replica that
// restarts before its first periodic write (a rolling deploy, a crash loop)
// makes the next start read them once more. Which replica writes is settled
// as for the periodic write (CatalogSnapshots: a head at least as recent
// wins, then a unique claim of the snapshot id). A write holds the event loop
// while the view is captured, so a replica does it at most once per `minGapMs`.
import type { Logger } from '@folio/logger';
import type { CatalogSync } from './catalog-sync.js';
import type { CatalogSnapshots } from './snapshot.js';

export interface SnapshotRefreshOptions {
  /** Changes to the view since the last snapshot this replica knows of that make a write worth it now. */
  changes: number;
  /** How often the change count is looked at. */
  checkMs: number;
  /** The least time between two writes of this replica. */
  minGapMs: number;
}

export class SnapshotRefresh {
  /** The sync's change count the last snapshot this replica knows of reflects. */
  private baseline = 0;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly deps: { sync: Pick<CatalogSync, 'changeCount'>; snapshots: Pick<CatalogSnapshots, 'writeSnapshot'>; logger: Logger },
    private readonly options: SnapshotRefreshOptions,
  ) {}

  /**
   * `baseline`: the change count the view's last snapshot reflects (0 for a view restored from one).
   * Checks at once too: a start that caught up with many changes writes right away, in the background,
   * as a start that read the whole catalog does, so that a replica stopped soon after still leaves it.
   */
  start(baseline: number): void {
    this.baseline = baseline;
    this.timer = setInterval(() => void this.check(), this.options.checkMs);
    this.timer.unref();
    void this.check();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.checking;
  }

  /** Writes a snapshot if enough changed and the last write is long enough ago; one check at a time. */
  check(): Promise<void> {
    this.checking ??= this.writeIfWorthIt().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async writeIfWorthIt(): Promise<void> {
    const changes = this.deps.sync.changeCount;
    const taken = changes - this.baseline;
    if (taken < this.options.changes) return;
    if (performance.now() - this.lastWriteAt < this.options.minGapMs) return;
    this.lastWriteAt = performance.now();
    try {
      const result = await this.deps.snapshots.writeSnapshot();
      // Written here, by another replica, or claimed: either way a snapshot at least this recent is coming.
      this.baseline = changes;
      if (result.written) this.deps.logger.info({ ...result, changes: taken }, 'catalog snapshot written');
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'catalog snapshot not written; retrying later');
    }
  }
}
