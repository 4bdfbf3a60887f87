// The session load's table: per endpoint, then the stack's CPU as sessions per core.
import { execFileSync } from 'node:child_process';
import { percentile } from './client.mjs';
import { CACHED_READS, hitRate } from './metrics.mjs';
import { MODEL } from './user.mjs';

const TICK_SECONDS = 1 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);

export function summarize(run) {
  const rows = run.endpoints
    .map((entry) => {
      const sorted = [...entry.latencies].sort((a, b) => a - b);
      const answers = entry.latencies.length;
      return {
        name: entry.name,
        requests: answers,
        reqPerSec: answers / run.seconds,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        failed: entry.failed,
        statuses: entry.statuses,
        hitRate: hitRate(entry.name, entry.statuses[entry.expected] ?? 0, run.rpc.before, run.rpc.after),
        cached: entry.name in CACHED_READS,
      };
    })
    .sort((a, b) => b.requests - a.requests);
  const cpuSeconds = Object.fromEntries(Object.entries(run.cpu).map(([name, ticks]) => [name, ticks * TICK_SECONDS]));
  const stackCpuSeconds = Object.values(cpuSeconds).reduce((sum, s) => sum + s, 0);
  const requests = rows.reduce((sum, row) => sum + row.requests, 0);
  const cores = stackCpuSeconds / run.seconds;
  // The load's own share: what the stack used before it began (other work on a shared machine) left out.
  const loadCores = Math.max(0.01, cores - (run.idleCores ?? 0));
  return {
    ...run,
    endpoints: undefined,
    rpc: undefined,
    uncached: run.responseCacheTtlMs === 0,
    rows,
    requests,
    cpuSeconds,
    stackCpuSeconds,
    cores,
    // Sessions a core carries: the sessions that ended in the window per CPU-hour of the whole stack,
    // and the users (at real speed, in this model) whose traffic one core of the stack serves.
    loadCores,
    sessionsPerCoreHour: (run.sessions.completed / (loadCores * run.seconds)) * 3600,
    usersPerCore: (run.users * run.options.speed) / loadCores,
    cpuUsPerRequest: requests > 0 ? ((loadCores * run.seconds) / requests) * 1e6 : 0,
    gatewayCpuUsPerRequest: requests > 0 ? ((cpuSeconds.gateway ?? 0) / requests) * 1e6 : 0,
  };
}

const int = (v) => Math.round(v).toLocaleString('en');
const ms = (v) => (v < 10 ? `${v.toFixed(1)} ms` : `${Math.round(v)} ms`);
const pct = (v) => (v === undefined ? '' : `${Math.round(v * 100)} %`);

export function table(result) {
  const o = result.options;
  const cache =
    result.responseCacheTtlMs === undefined
      ? ''
      : result.responseCacheTtlMs === 0
        ? "**the gateway's response cache off** (`RESPONSE_CACHE_TTL_MS=0`); "
        : `the gateway's response cache on (TTL ${int(result.responseCacheTtlMs)} ms); `;
  const services = Object.entries(result.cpuSeconds)
    .filter(([, seconds]) => seconds > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([name, seconds]) => `${name} ${(seconds / result.seconds).toFixed(2)}`)
    .join(', ');
  const lines = [
    `Dataset \`${result.dataset}\`; ${result.machine.nproc} CPUs, ${result.machine.memoryGb} GB, node ${result.machine.node}; ${result.machine.date}; ` +
      `load average ${result.machine.loadAverage} at the start; ${cache}${int(result.users)} users at ${o.speed} x real time ` +
      `(the traffic of ${int(result.users * o.speed)} users), ${Math.round(result.seconds)} s measured after ${o.warmup} s of ramp; ` +
      `${int(result.sessions.started)} sessions opened and ${int(result.sessions.completed)} ended in the window.`,
    '',
    '| Endpoint | requests | req/s | p50 | p99 | failed | cache hits |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...result.rows.map((row) => {
      const bad = row.failed
        ? `${row.failed} (${Object.entries(row.statuses)
            .map(([code, count]) => `${code === '0' ? 'no answer' : code}: ${count}`)
            .join(', ')})`
        : '0';
      return `| \`${row.name}\` | ${int(row.requests)} | ${int(row.reqPerSec)} | ${ms(row.p50)} | ${ms(row.p99)} | ${bad} | ${row.cached ? pct(row.hitRate) : 'not cached'} |`;
    }),
    `| all | ${int(result.requests)} | ${int(result.requests / result.seconds)} | | | ${int(result.rows.reduce((sum, row) => sum + row.failed, 0))} | |`,
    '',
    `CPU (cores busy over the window, \`/proc\`): stack ${result.cores.toFixed(2)} (${services}), of which ${(result.idleCores ?? 0).toFixed(2)} before the load began; ` +
      `the load generator ${(result.loadGeneratorCpuSeconds / result.seconds).toFixed(2)}. ` +
      `Per answer: stack ${int(result.cpuUsPerRequest)} µs (the load's share), gateway ${int(result.gatewayCpuUsPerRequest)} µs.`,
    '',
    `**Sessions per core: ${int(result.sessionsPerCoreHour)} sessions per CPU-hour of the stack; one core serves ${int(result.usersPerCore)} users** ` +
      `(over the ${result.loadCores.toFixed(2)} cores the load added) ` +
      `of this model (sessions of ${MODEL.readSeconds[0] / 60}-${MODEL.readSeconds[1] / 60} min of reading, ${MODEL.pauseSeconds[0] / 60}-${MODEL.pauseSeconds[1] / 60} min apart).`,
  ];
  return lines.join('\n');
}
