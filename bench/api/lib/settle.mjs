// A run starts on a quiet stack. Right after `pnpm bench:scale-data` wrote
// 675,000 documents, PostgreSQL vacuums and analyses the new tables and
// catalog catches up for minutes, and a run started then measures that work
// instead of the requests (HISTORY.md has such a run beside a later one on
// the same stack). So the benchmark waits until the
// stack's processes together use less than `maxCpuPercent` of one CPU over
// `windowSeconds`, and says so; after `timeoutSeconds` it goes on anyway and
// the table says the stack was still busy.
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuTicksBetween, cpuTicksByService } from './processes.mjs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** @returns {{ waitedSeconds: number, quiet: boolean, cpuPercent: number }} */
export async function settle({ runDir, maxCpuPercent, windowSeconds = 5, timeoutSeconds, log }) {
  const started = Date.now();
  for (;;) {
    const before = cpuTicksByService(runDir);
    await sleep(windowSeconds * 1000);
    const used = cpuTicksBetween(before, cpuTicksByService(runDir));
    const busy = Object.entries(used)
      .map(([name, ticks]) => [name, (100 * ticks) / TICKS_PER_SECOND / windowSeconds])
      .sort((a, b) => b[1] - a[1]);
    const cpuPercent = busy.reduce((sum, [, percent]) => sum + percent, 0);
    const waitedSeconds = Math.round((Date.now() - started) / 1000);
    if (cpuPercent < maxCpuPercent) return { waitedSeconds, quiet: true, cpuPercent };
    if (waitedSeconds >= timeoutSeconds) {
      log(`  the stack is still busy after ${waitedSeconds} s (${Math.round(cpuPercent)} % of a CPU); measuring anyway`);
      return { waitedSeconds, quiet: false, cpuPercent };
    }
    const who = busy
      .slice(0, 3)
      .map(([name, percent]) => `${name} ${Math.round(percent)} %`)
      .join(', ');
    log(`  waiting for the stack to settle: ${Math.round(cpuPercent)} % of a CPU over ${windowSeconds} s (${who}) …`);
  }
}
