// Drives one endpoint with autocannon's programmatic API and reduces the
// result to what the table shows.
import { execFileSync } from 'node:child_process';
import autocannon from 'autocannon';

/** /proc counts CPU time in clock ticks (USER_HZ, 100 on Linux). */
const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);

const NO_CPU = { sample: () => null, ticksSince: () => ({}) };

/**
 * @param target     base URL (the gateway or the bare express server)
 * @param build      (n) => { method, path, headers, body }: the n-th request
 * @param expected   the status every answer must have
 * @param cpu        { sample(), ticksSince(sample) => { name: clock ticks } }: read
 *                   around the measured seconds, for the CPU each answer cost
 */
export async function drive(target, build, expected, { connections, duration, warmup }, cpu = NO_CPU) {
  let n = 0;
  const requests = [{ setupRequest: (request) => ({ ...request, ...build(n++) }) }];
  // The same load for `warmup` seconds first, left out of the result: a run
  // measures the steady state, not the seconds in which a service's young
  // generation grows back after it idled through the other rows (README).
  if (warmup > 0) await autocannon({ url: target, connections, duration: warmup, timeout: 10, requests });
  const before = cpu.sample();
  const result = await autocannon({ url: target, connections, duration, timeout: 10, requests });
  const used = cpu.ticksSince(before);
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]));
  const answered = Object.values(statuses).reduce((sum, count) => sum + count, 0);
  const unexpected = answered - (statuses[String(expected)] ?? 0);
  return {
    reqPerSec: answered / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: answered,
    unexpected,
    errors: result.errors + result.timeouts,
    statuses,
    // Microseconds of CPU per answer, by process: what a shared machine's
    // speed moves far less than req/s (README, "CPU per answer").
    cpuUsPerRequest: Object.fromEntries(
      Object.entries(used).map(([name, ticks]) => [name, answered > 0 ? (ticks * TICK_US) / answered : 0]),
    ),
  };
}
