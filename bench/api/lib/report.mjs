// The benchmark's table: figures per endpoint against the benchmark's targets,
// printed and written into bench/api/README.md between markers (one block per
// dataset, plus scale/demo ratios once both datasets have been measured).
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';

export const TARGETS = {
  read: { ratio: 0.25, p99: 50 },
  write: { ratio: 0.1, p99: 100 },
  /** Each endpoint on the scale data keeps at least this share of its demo req/s. */
  scaleOverDemo: 0.8,
  rssMb: 150,
};

/** The targets of a run with the gateway's response cache off: the request the cache cannot answer. */
export const UNCACHED_TARGETS = {
  ...TARGETS,
  read: { ratio: 0.3, p99: 50 },
  write: { ratio: 0.25, p99: 80 },
  /** The gateway's CPU per uncached read over its CPU per cached read of the same endpoint. */
  gatewayCpuOverCached: 1.5,
};

/** The targets a run is judged on: the cached run's, or the uncached run's when the gateway's cache was off. */
export const targetsOf = (result) => (result.uncached ? UNCACHED_TARGETS : TARGETS);

/** Where a run's raw figures and README table go: `demo`, `scale`, `demo-uncached`, `scale-uncached`. */
export const resultKey = (dataset, uncached) => (uncached ? `${dataset}-uncached` : dataset);

export function machine() {
  let nproc = cpus().length;
  try {
    nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    // cpus() it is
  }
  // The load average says how much else the (shared) machine was doing when the run started.
  return {
    nproc,
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    date: new Date().toISOString(),
    loadAverage: loadavg()[0].toFixed(1),
  };
}

/**
 * One row from the runs of several rounds: the run with the median req/s
 * (the lower middle of an even count) gives req/s, p50 and p99; answers and
 * failures are summed over every run, so one bad answer in any round fails
 * the row; `rounds` keeps each run's req/s, to show the spread.
 */
export function medianOf(runs) {
  const sorted = [...runs].sort((a, b) => a.reqPerSec - b.reqPerSec);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  const statuses = {};
  for (const run of runs) for (const [code, count] of Object.entries(run.statuses)) statuses[code] = (statuses[code] ?? 0) + count;
  const sum = (field) => runs.reduce((total, run) => total + run[field], 0);
  return {
    reqPerSec: median.reqPerSec,
    p50: median.p50,
    p99: median.p99,
    requests: sum('requests'),
    unexpected: sum('unexpected'),
    errors: sum('errors'),
    statuses,
    rounds: runs.map((run) => run.reqPerSec),
    cpuUsPerRequest: medianByKey(runs.map((run) => run.cpuUsPerRequest ?? {})),
  };
}

/** Each key's median over the rounds (a service's CPU per answer; rounds without it are left out). */
function medianByKey(records) {
  const keys = new Set(records.flatMap((record) => Object.keys(record)));
  return Object.fromEntries(
    [...keys].map((key) => {
      const values = records
        .map((record) => record[key])
        .filter((value) => value !== undefined)
        .sort((a, b) => a - b);
      return [key, values[Math.floor((values.length - 1) / 2)]];
    }),
  );
}

/** CPU per answer summed over the stack's processes (the load generator is in neither this nor the bare figure). */
export function stackCpuUs(row) {
  return Object.values(row.cpuUsPerRequest ?? {}).reduce((sum, us) => sum + us, 0);
}

/** Adds ratio and verdict to each endpoint row. */
export function judge(rows, bare, targets = TARGETS) {
  return rows.map((row) => {
    const target = targets[row.kind];
    const ratio = row.reqPerSec / bare;
    const clean = row.unexpected === 0 && row.errors === 0;
    return { ...row, ratio, pass: clean && ratio >= target.ratio && row.p99 <= target.p99 };
  });
}

const cpuText = (us) => (us === undefined ? '' : Math.round(us).toLocaleString('en'));

const fmt = {
  int: (v) => Math.round(v).toLocaleString('en'),
  ms: (v) => `${v} ms`,
  ratio: (v) => (v >= 0.1 ? v.toFixed(2) : v.toFixed(3)),
};

/** How quiet the stack was when the load began (lib/settle.mjs); nothing for a run that did not wait. */
function settledText(settled) {
  if (!settled) return '';
  const share = `${Math.round(settled.cpuPercent)} % of a CPU`;
  return settled.quiet
    ? `the stack at ${share} when the load began (after ${settled.waitedSeconds} s of waiting); `
    : `**the stack still at ${share} after ${settled.waitedSeconds} s of waiting**; `;
}

/** What the table's first line says of the gateway's response cache (older results do not record it). */
function cacheText(result) {
  if (result.responseCacheTtlMs === undefined) return '';
  return result.responseCacheTtlMs === 0
    ? "**the gateway's response cache off** (`RESPONSE_CACHE_TTL_MS=0`: every read goes to the services; the uncached targets); "
    : `the gateway's response cache on (TTL ${fmt.int(result.responseCacheTtlMs)} ms); `;
}

export function table(result) {
  const targets = targetsOf(result);
  const rounds = result.rounds ?? 1;
  const spread = (values) => (values && values.length > 1 ? values.map(fmt.int).join(' / ') : '');
  const bareMedian = medianOf(result.bareRuns);
  // Older results have no CPU figures.
  const bareCpu = bareMedian.cpuUsPerRequest.bare;
  const lines = [
    `Dataset \`${result.dataset}\`; ${result.machine.nproc} CPUs, ${result.machine.memoryGb} GB, node ${result.machine.node}; ${result.machine.date}; load average ${result.machine.loadAverage} at the start; ${settledText(result.settled)}${cacheText(result)}` +
      `${result.connections} connections, ${rounds > 1 ? `${rounds} rounds of ` : ''}${result.duration} s per endpoint${result.warmup ? ` (each after ${result.warmup} s of the same load, not measured)` : ''}, ${result.users} users.` +
      (rounds > 1 ? ' Each row is the median of its rounds (the runs with the median req/s give p50 and p99); "rounds" shows every run.' : ''),
    '',
    '| Endpoint | kind | req/s | rounds | p50 | p99 | non-2xx/errors | vs bare | target | pass | CPU µs/answer: gateway, stack | CPU vs bare |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |',
    `| bare express 5 \`GET /hello\` | ref | ${fmt.int(result.bare)} | ${spread(result.bareRuns.map((run) => run.reqPerSec))} | ${fmt.ms(bareMedian.p50)} | ${fmt.ms(bareMedian.p99)} | ${bareMedian.unexpected + bareMedian.errors} | 1 | | | ${cpuText(bareCpu)} | ${bareCpu ? 1 : ''} |`,
    ...result.rows.map((row) => {
      const target = targets[row.kind];
      const bad = row.unexpected + row.errors;
      const statuses = bad
        ? ` (${Object.entries(row.statuses)
            .map(([code, count]) => `${code}: ${count}`)
            .join(', ')}${row.errors ? `, errors: ${row.errors}` : ''})`
        : '';
      return (
        `| \`${row.name}\` | ${row.kind} | ${fmt.int(row.reqPerSec)} | ${spread(row.rounds)} | ${fmt.ms(row.p50)} | ${fmt.ms(row.p99)} | ${bad}${statuses} | ${fmt.ratio(row.ratio)} | ` +
        `>= ${target.ratio}, p99 <= ${target.p99} ms | ${row.pass ? 'pass' : 'FAIL'} | ` +
        `${row.cpuUsPerRequest?.gateway !== undefined ? `${cpuText(row.cpuUsPerRequest.gateway)}, ${cpuText(stackCpuUs(row))}` : ''} | ${bareCpu && stackCpuUs(row) ? fmt.ratio(bareCpu / stackCpuUs(row)) : ''} |`
      );
    }),
    '',
    `RSS right after the last endpoint (MB, target < ${TARGETS.rssMb} per service): ${rssLine(result.rss)}.`,
    ...(result.rssAtRest ? ['', `RSS after ${result.restSeconds} s at rest (what a pod holds once the burst is over): ${rssLine(result.rssAtRest)}.`] : []),
  ];
  return lines.join('\n');
}

const INFRASTRUCTURE = ['docdb', 'postgres', 'redis', 'rabbitmq'];

function rssLine(rss) {
  return Object.entries(rss)
    .map(([name, mb]) => `${name} ${Math.round(mb)}${!INFRASTRUCTURE.includes(name) && mb >= TARGETS.rssMb ? ' (FAIL)' : ''}`)
    .join(', ');
}

/**
 * Each endpoint on the scale data over the same endpoint on the demo data.
 * The two runs are minutes or days apart on a shared machine whose speed moves
 * by tens of percent, so the verdict compares each run's own ratio to its bare
 * route (what a figure counts as here: a ratio measured in one run); the raw
 * req/s ratio is shown beside it.
 */
export function scaleRatioTable(demo, scale) {
  const demoByName = new Map(demo.rows.map((row) => [row.name.replace(/=[^=]*$/, ''), row]));
  const lines = [
    `Scale run of ${scale.machine.date} over demo run of ${demo.machine.date} (bare route: ${fmt.int(scale.bare)} over ${fmt.int(demo.bare)} req/s).`,
    '',
    `| Endpoint | demo req/s | scale req/s | scale/demo req/s | scale/demo, each over its bare route | target | pass |`,
    '| --- | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  for (const row of scale.rows) {
    const before = demoByName.get(row.name.replace(/=[^=]*$/, ''));
    if (!before) continue;
    const raw = row.reqPerSec / before.reqPerSec;
    const relative = row.reqPerSec / scale.bare / (before.reqPerSec / demo.bare);
    lines.push(
      `| \`${row.name}\` | ${fmt.int(before.reqPerSec)} | ${fmt.int(row.reqPerSec)} | ${raw.toFixed(2)} | ${relative.toFixed(2)} | >= ${TARGETS.scaleOverDemo} | ${relative >= TARGETS.scaleOverDemo ? 'pass' : 'FAIL'} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The gateway's CPU per answer for each read, with its response cache on and
 * off, against the target for their ratio, and what the services behind it
 * spent per uncached answer. The two runs are separate, so the table names
 * both: CPU per answer moves far less than req/s between runs, but it does
 * move between days (README).
 */
export function cacheCpuTable(cached, uncached) {
  const cachedByName = new Map(cached.rows.map((row) => [row.name, row]));
  const limit = UNCACHED_TARGETS.gatewayCpuOverCached;
  const lines = [
    `Dataset \`${uncached.dataset}\`: uncached run of ${uncached.machine.date} (bare route ${fmt.int(uncached.bare)} req/s) beside the cached run of ${cached.machine.date} (bare route ${fmt.int(cached.bare)} req/s).`,
    '',
    '| Endpoint | gateway µs/answer cached | uncached | uncached/cached | target | pass | uncached: µs/answer of the services behind it |',
    '| --- | ---: | ---: | ---: | --- | --- | --- |',
  ];
  for (const row of uncached.rows) {
    const before = cachedByName.get(row.name);
    if (row.kind !== 'read' || !before?.cpuUsPerRequest?.gateway || !row.cpuUsPerRequest?.gateway) continue;
    const ratio = row.cpuUsPerRequest.gateway / before.cpuUsPerRequest.gateway;
    const behind = Object.entries(row.cpuUsPerRequest)
      .filter(([name, us]) => name !== 'gateway' && us >= 20)
      .sort(([, a], [, b]) => b - a)
      .map(([name, us]) => `${name} ${cpuText(us)}`)
      .join(', ');
    lines.push(
      `| \`${row.name}\` | ${cpuText(before.cpuUsPerRequest.gateway)} | ${cpuText(row.cpuUsPerRequest.gateway)} | ${ratio.toFixed(2)} | <= ${limit} | ${ratio <= limit ? 'pass' : 'FAIL'} | ${behind} |`,
    );
  }
  return lines.join('\n');
}

export async function saveResult(path, result) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(result, null, 1)}\n`);
}

export async function loadResult(path) {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return null;
  }
}

/** Replaces what lies between `<!-- bench:api:<key>:start -->` and its end marker. */
export async function writeBlock(readmePath, key, content) {
  const readme = await readFile(readmePath, 'utf8');
  const start = `<!-- bench:api:${key}:start -->`;
  const end = `<!-- bench:api:${key}:end -->`;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${readmePath} lacks the markers ${start} … ${end}`);
  await writeFile(readmePath, `${readme.slice(0, from + start.length)}\n${content}\n${readme.slice(to)}`);
}
