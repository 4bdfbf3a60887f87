// Drives one endpoint with autocannon's programmatic API and reduces the
// result to what the table shows.
import autocannon from 'autocannon';

/**
 * @param target     base URL (the gateway or the bare express server)
 * @param build      (n) => { method, path, headers, body }: the n-th request
 * @param expected   the status every answer must have
 */
export async function drive(target, build, expected, { connections, duration, warmup }) {
  let n = 0;
  const result = await autocannon({
    url: target,
    connections,
    duration,
    // The same load for `warmup` seconds first, left out of the result: a run
    // measures the steady state, not the seconds in which a service's young
    // generation grows back after it idled through the other rows (README).
    ...(warmup > 0 ? { warmup: { connections, duration: warmup } } : {}),
    timeout: 10,
    requests: [
      {
        setupRequest: (request) => ({ ...request, ...build(n++) }),
      },
    ],
  });
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
  };
}
