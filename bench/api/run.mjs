// API load benchmark: drives every endpoint of the running stack's
// gateway with autocannon, beside a bare express 5 route measured in the same
// run, and prints req/s, p50, p99, non-2xx/errors and the ratio to the bare
// route, judged against the targets; then the RSS of every service.
// Writes the table into bench/api/README.md (see that file).
//
//   ./dev up && pnpm bench:api [-- --dataset=demo|scale --duration=5 --uncached]
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseOptions } from './lib/cli.mjs';
import { endpoints } from './lib/endpoints.mjs';
import { request } from './lib/http.mjs';
import { drive } from './lib/load.mjs';
import { loginAll } from './lib/logins.mjs';
import { prepare } from './lib/prepare.mjs';
import { cpuTicksBetween, cpuTicksByService, cpuTicksOfPid, rssByService } from './lib/processes.mjs';
import { settle } from './lib/settle.mjs';
import { gatewayCache, withCacheOff } from './lib/gateway-cache.mjs';
import {
  TARGETS,
  UNCACHED_TARGETS,
  cacheCpuTable,
  judge,
  loadResult,
  machine,
  medianOf,
  resultKey,
  saveResult,
  scaleRatioTable,
  table,
  writeBlock,
} from './lib/report.mjs';
import { counts, scaleUserEmail, tenantOneUsers } from '../scale/plan.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const options = parseOptions(process.argv.slice(2));
const log = (line) => console.error(line);
const atStart = machine();

// 1. The stack must be there.
const health = await request(options.gateway, 'GET', '/healthz').catch(() => null);
if (health?.status !== 200) {
  console.error(`The gateway at ${options.gateway} is not ready (${health ? health.status : 'no answer'}): run ./dev up first.`);
  process.exit(1);
}

// 2. Users: the demo's readers of tenant 1 and either fresh bench users or the scale dataset's users of tenant 1.
const demoUsers = ['ana@example.com', 'bruno@example.com'];
const others = options.users - demoUsers.length;
const extraUsers =
  options.dataset === 'scale'
    ? tenantOneUsers(others, counts(1).users).map(scaleUserEmail)
    : Array.from({ length: others }, (_, i) => `bench-${String(i + 1).padStart(2, '0')}@example.test`);
log(`logging in ${options.users} users …`);
const { tokens, fresh } = await loginAll([...demoUsers, ...extraUsers], {
  gateway: options.gateway,
  maildev: options.maildev,
  cacheFile: join(root, '.local', 'bench', 'logins.json'),
});
log(`  ${fresh} new logins, ${tokens.length - fresh} reused`);
const users = tokens.map(({ email, token }) => ({ email, token }));
// Note lists are read from the extra users of even rank (a fixed list each) and written by everyone else.
const noteReaders = users.filter((user, i) => !demoUsers.includes(user.email) && i % 2 === 0);
const noteWriters = users.filter((user) => !noteReaders.includes(user));

log('opening reader sessions and the fixed note lists …');
const { shelf } = await prepare(options.gateway, users, noteReaders);

const runDir = join(root, '.local', 'run');
// With --uncached the measurement runs against a gateway restarted with its response cache off
// (lib/gateway-cache.mjs), and the gateway gets its cache back afterwards, also on an error or Ctrl-C.
const result = options.uncached ? await withCacheOff(root, log, () => measure()) : await measure();

async function measure() {
  const cacheAtStart = gatewayCache(runDir);
  // 3. A quiet stack: nothing left over from ./dev up, a data load or the preparation above (lib/settle.mjs).
  let settled = null;
  if (options.settleCpuPercent > 0) {
    log(`waiting until the stack uses less than ${options.settleCpuPercent} % of a CPU …`);
    settled = await settle({ runDir, maxCpuPercent: options.settleCpuPercent, timeoutSeconds: options.settleTimeoutSeconds, log });
  }

  // 4. The bare route in its own process.
  const hello = spawn(process.execPath, [join(here, 'hello-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await once(hello.stdout, 'data');
  const helloUrl = `http://127.0.0.1:${String(line).match(/listening (\d+)/)[1]}`;

  const load = { connections: options.connections, duration: options.duration, warmup: options.warmup };
  // CPU per answer: of the bare server's process, and of each service of the stack (lib/processes.mjs).
  const bareCpu = { sample: () => cpuTicksOfPid(hello.pid), ticksSince: (before) => ({ bare: cpuTicksOfPid(hello.pid) - before }) };
  const stackCpu = { sample: () => cpuTicksByService(runDir), ticksSince: (before) => cpuTicksBetween(before, cpuTicksByService(runDir)) };
  const bareRun = async () => drive(helloUrl, () => ({ method: 'GET', path: '/hello', headers: {} }), 200, load, bareCpu);
  const selected = endpoints({ users, noteReaders, noteWriters, shelf }).filter(
    (endpoint) => !options.only || options.only.some((word) => endpoint.name.includes(word)),
  );

  let result;
  // A gateway restarted with the cache off by hand is measured, and reported, as uncached.
  const uncached = cacheAtStart?.ttlMs === 0;
  if (uncached && !options.uncached) log('the gateway runs with RESPONSE_CACHE_TTL_MS=0: this run is reported as uncached');
  try {
    // Rounds, each over every endpoint in turn, so that the shared machine's
    // drift touches all rows alike; a row is the median of its rounds.
    const bareRuns = [];
    const runs = selected.map(() => []);
    for (let round = 1; round <= options.rounds; round++) {
      const of = options.rounds > 1 ? `round ${round}/${options.rounds}: ` : '';
      log(`${of}bare express 5 GET /hello, ${options.duration} s …`);
      bareRuns.push(await bareRun());
      for (const [i, endpoint] of selected.entries()) {
        log(`${of}${endpoint.name}, ${options.duration} s …`);
        runs[i].push(await drive(options.gateway, endpoint.build, endpoint.expected, load, stackCpu));
      }
    }
    log(`bare express 5 GET /hello again, ${options.duration} s …`);
    bareRuns.push(await bareRun());
    const rows = selected.map((endpoint, i) => ({ name: endpoint.name, kind: endpoint.kind, ...medianOf(runs[i]) }));
    const bare = medianOf(bareRuns).reqPerSec;
    result = {
      dataset: options.dataset,
      uncached,
      responseCacheTtlMs: cacheAtStart?.ttlMs,
      machine: atStart,
      settled,
      connections: options.connections,
      duration: options.duration,
      warmup: options.warmup,
      rounds: options.rounds,
      users: users.length,
      bare,
      bareRuns,
      rows: judge(rows, bare, uncached ? UNCACHED_TARGETS : TARGETS),
      rss: rssByService(join(root, '.local', 'run')),
    };
    // What a pod holds once the burst is over: V8 collects the load's garbage
    // and shrinks its heap after some seconds without allocation.
    if (options.restSeconds > 0) {
      log(`resting ${options.restSeconds} s for the RSS at rest …`);
      await new Promise((resolve) => setTimeout(resolve, options.restSeconds * 1000));
      result.restSeconds = options.restSeconds;
      result.rssAtRest = rssByService(join(root, '.local', 'run'));
    }
  } finally {
    hello.kill('SIGTERM');
  }
  // Other people's `./dev restart gateway` on a shared machine would change what was measured.
  const cacheAtEnd = gatewayCache(runDir);
  if (cacheAtEnd?.pid !== cacheAtStart?.pid) {
    result.gatewayRestarted = true;
    log(
      `the gateway was restarted during the run (pid ${cacheAtStart?.pid} -> ${cacheAtEnd?.pid}, cache TTL now ${cacheAtEnd?.ttlMs} ms): its rows are not one gateway's`,
    );
  }
  return result;
}

// 5. Report.
const text = table(result);
console.log(`\n${text}\n`);
const throttled = result.rows.filter((row) => row.statuses['429']);
if (throttled.length) {
  console.log(
    `429 answers in ${throttled.map((row) => row.name).join(', ')}: a limit bit despite the spread of client addresses. ` +
      "If it is the gateway's global per-IP limit, raise it for the benchmark: GLOBAL_RATE_LIMIT_PER_MINUTE=1000000 ./dev restart gateway",
  );
}
// Where each answer's CPU went, service by service (the table shows the gateway and the sum).
console.log('CPU µs per answer by service:');
for (const row of result.rows) {
  const byService = Object.entries(row.cpuUsPerRequest ?? {})
    .filter(([, us]) => us >= 1)
    .sort(([, a], [, b]) => b - a)
    .map(([name, us]) => `${name} ${Math.round(us)}`);
  console.log(`  ${row.name}: ${byService.join(', ')}`);
}
const failed = result.rows.filter((row) => !row.pass).length;
console.log(`${result.rows.length - failed} of ${result.rows.length} endpoints meet their target.`);

if (result.gatewayRestarted) console.log('The gateway was restarted during the run: its rows mix two gateways.');

// The gateway's CPU per read with and without its cache: this run beside the last full run of the other kind.
const counterpart = await loadResult(join(here, 'results', `${resultKey(options.dataset, !result.uncached)}.json`));
const cacheCpu = counterpart && (result.uncached ? cacheCpuTable(counterpart, result) : cacheCpuTable(result, counterpart));
if (cacheCpu) console.log(`\nThe gateway's CPU per read, cached and uncached:\n\n${cacheCpu}\n`);

if (options.writeReadme && !options.only && !result.gatewayRestarted) {
  const readme = join(here, 'README.md');
  const key = resultKey(options.dataset, result.uncached);
  await saveResult(join(here, 'results', `${key}.json`), result);
  await writeBlock(readme, key, text);
  if (cacheCpu) await writeBlock(readme, `cache-cpu-${options.dataset}`, cacheCpu);
  const demo = await loadResult(join(here, 'results', 'demo.json'));
  const scale = await loadResult(join(here, 'results', 'scale.json'));
  if (demo && scale) await writeBlock(readme, 'ratio', scaleRatioTable(demo, scale));
  console.log(`written into ${readme}`);
  // The capacity model takes each service's RSS from these results: the production overlay and docs/capacity.md follow them.
  spawnSync(process.execPath, [join(root, 'bench', 'capacity', 'generate.mjs')], { stdio: 'inherit' });
}
