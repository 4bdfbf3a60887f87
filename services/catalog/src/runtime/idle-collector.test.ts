import { describe, expect, it } from 'vitest';
import { IdleCollector } from './idle-collector.js';

const MB = 1024 * 1024;

/** A process whose heap and loop the test sets; a collection leaves `liveAfterGc` in use. */
function fakeProcess(start: { heap: number; liveAfterGc: number }) {
  const state = { heap: start.heap, busy: 0, collections: 0 };
  const collector = new IdleCollector(
    {
      collectGarbage: () => {
        state.collections += 1;
        state.heap = start.liveAfterGc;
      },
      heapUsed: () => state.heap,
      busyShare: () => state.busy,
    },
    { idleBelow: 0.02, minGarbageBytes: 8 * MB },
  );
  return { state, collector };
}

describe('IdleCollector', () => {
  it('when a burst left garbage and the loop went idle, then it collects once, not at every later look', () => {
    const { state, collector } = fakeProcess({ heap: 60 * MB, liveAfterGc: 62 * MB });
    state.heap = 86 * MB;
    expect(collector.check()).toBe(true);
    expect(collector.check()).toBe(false);
    expect(collector.check()).toBe(false);
    expect(state.collections).toBe(1);
  });

  it('when the loop is busy, then it never collects, however much garbage there is', () => {
    const { state, collector } = fakeProcess({ heap: 60 * MB, liveAfterGc: 62 * MB });
    state.heap = 120 * MB;
    state.busy = 0.4;
    expect(collector.check()).toBe(false);
    expect(state.collections).toBe(0);
  });

  it('when the heap grew by less than the threshold since the last collection, then it waits', () => {
    const { state, collector } = fakeProcess({ heap: 60 * MB, liveAfterGc: 60 * MB });
    state.heap = 66 * MB;
    expect(collector.check()).toBe(false);
    state.heap = 69 * MB;
    expect(collector.check()).toBe(true);
  });

  it('when a later burst leaves garbage again, then the next idle look collects again', () => {
    const { state, collector } = fakeProcess({ heap: 60 * MB, liveAfterGc: 62 * MB });
    state.heap = 90 * MB;
    expect(collector.check()).toBe(true);
    state.busy = 0.5;
    state.heap = 95 * MB;
    expect(collector.check()).toBe(false);
    state.busy = 0;
    expect(collector.check()).toBe(true);
    expect(state.collections).toBe(2);
  });
});
