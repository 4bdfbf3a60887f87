// Collects catalog's garbage once a burst of calls is over.
//
// V8 starts a full collection when allocation uses up the old generation's
// budget. An idle replica allocates next to nothing, so whatever the last
// burst left behind stays in its heap, and in its RSS, for as long as it is
// idle. On the scale data (100,000 issues) catalog ended the benchmark with
// 86 MB of heap in use, 66 MB of it live, at 156-160 MB RSS a minute after its
// last call; a full collection then brought it to 141 MB. So every
// CHECK_INTERVAL_MS this looks at the event loop's utilization since the
// previous look and at the heap: an idle loop and enough garbage since the
// last collection (heap in use beyond what that collection left live) and it
// collects once. A replica under load is never interrupted, and an idle one
// is collected once per burst, not over and over: what its collection leaves
// live is the next baseline.
//
// Needs `--expose-gc` (./dev and the manifests start catalog with it); without
// it app.ts starts none.
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

export interface IdleCollectorDeps {
  collectGarbage: () => void;
  /** Bytes of JS heap in use. */
  heapUsed: () => number;
  /** Share of the time the event loop was busy since the previous call, 0..1. */
  busyShare: () => number;
}

export interface IdleCollectorOptions {
  /** A loop busy less than this share of the time since the previous check is idle. */
  idleBelow: number;
  /** Collect only when the heap holds at least this many bytes more than the last collection left. */
  minGarbageBytes: number;
}

export const CHECK_INTERVAL_MS = 10_000;

const DEFAULTS: IdleCollectorOptions = { idleBelow: 0.02, minGarbageBytes: 8 * 1024 * 1024 };

export class IdleCollector {
  private live: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: IdleCollectorDeps,
    private readonly options: IdleCollectorOptions = DEFAULTS,
  ) {
    this.live = deps.heapUsed();
  }

  /** One look: collects when the loop was idle and the heap holds enough garbage. True when it collected. */
  check(): boolean {
    const idle = this.deps.busyShare() < this.options.idleBelow;
    if (!idle || this.deps.heapUsed() - this.live < this.options.minGarbageBytes) return false;
    this.deps.collectGarbage();
    this.live = this.deps.heapUsed();
    return true;
  }

  start(intervalMs = CHECK_INTERVAL_MS): void {
    this.timer = setInterval(() => this.check(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** The process's collector: `gc` is the global one `--expose-gc` gives. */
export function processIdleCollector(gc: () => void): IdleCollector {
  let previous = performance.eventLoopUtilization();
  return new IdleCollector({
    collectGarbage: gc,
    heapUsed: () => getHeapStatistics().used_heap_size,
    busyShare: () => {
      const now = performance.eventLoopUtilization();
      const share = performance.eventLoopUtilization(now, previous).utilization;
      previous = now;
      return share;
    },
  });
}
