// Reading sessions of many users through the running stack's gateway: each
// user opens the app, opens a book, reads (a position save every
// 30 s of simulated time, now and then a note, one search in the book), goes
// back to the library, sometimes searches the store or follows a purchase
// redirect (lib/user.mjs). Reports per endpoint req/s, p50, p99, failures and
// the gateway's cache hit rate, and the stack's CPU as sessions per core.
// Writes the table into bench/sessions/README.md and HISTORY.md.
//
//   ./dev up && pnpm bench:sessions [-- --users=1000 --duration=30 --speed=10 --dataset=demo|scale --uncached]
import { spawnSync } from 'node:child_process';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cpuTicksBetween, cpuTicksByService } from '../api/lib/processes.mjs';
import { gatewayCache, withCacheOff } from '../api/lib/gateway-cache.mjs';
import { request } from '../api/lib/http.mjs';
import { settle } from '../api/lib/settle.mjs';
import { machine, writeBlock } from '../api/lib/report.mjs';
import { scaleUserEmail, tenantOneUsers, counts } from '../scale/plan.mjs';
import { createClient } from './lib/client.mjs';
import { loginMany } from './lib/logins.mjs';
import { rpcCounts } from './lib/metrics.mjs';
import { summarize, table } from './lib/report.mjs';
import { MEAN_CYCLE_SECONDS, runUser } from './lib/user.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const runDir = join(root, '.local', 'run');
const log = (line) => console.error(line);

const USAGE = `pnpm bench:sessions [-- options]
  --dataset=demo|scale   which data the stack holds (scale: after pnpm bench:scale-data); default demo
  --users=1000           users, each running sessions one after another (demo: session-NNNN@example.test,
                         created in tenant 1 by their first login; scale: the generator's users of tenant 1)
  --speed=10             simulated time runs this many times faster than real time (a save every 30 s becomes 3 s)
  --duration=30          measured seconds
  --warmup=<cycle>        seconds before the window, over which the users start: by default one mean cycle of a user
                         (a session and the pause after it, 9 simulated minutes: 54 s at --speed=10)
  --connections=512      keep-alive connections to the gateway at most (the pool the users share)
  --seed=1               of the users' random choices
  --settle-timeout=60    seconds to wait at most for the stack to use under 15 % of a CPU before the load
  --uncached             the gateway's response cache off for the run (RESPONSE_CACHE_TTL_MS=0 ./dev restart gateway, back after)
  --no-readme            print the table without writing README.md and HISTORY.md
  --gateway=http://127.0.0.1:8080   --maildev=http://127.0.0.1:1080`;

const options = parseOptions(process.argv.slice(2));
const atStart = machine();

const health = await request(options.gateway, 'GET', '/healthz').catch(() => null);
if (health?.status !== 200) {
  console.error(`The gateway at ${options.gateway} is not ready (${health ? health.status : 'no answer'}): run ./dev up first.`);
  process.exit(1);
}

// Users: on the scale data the generator's members of tenant 1 (with the refresh tokens it stored), else fresh users.
const planned =
  options.dataset === 'scale'
    ? tenantOneUsers(options.users, counts(1).users).map((n) => ({
        email: scaleUserEmail(n),
        // The generator's three sessions of user n are numbers n-1, n-1 + users, n-1 + 2 x users.
        refreshSeeds: [0, 1, 2].map((k) => `scale-refresh-token-${n - 1 + k * counts(1).users}`),
      }))
    : Array.from({ length: options.users }, (_, i) => ({ email: `session-${String(i + 1).padStart(4, '0')}@example.test` }));
if (planned.length < options.users) log(`only ${planned.length} users of tenant 1 in the scale plan`);
log(`logging in ${planned.length} users …`);
const { tokens, how } = await loginMany(planned, {
  gateway: options.gateway,
  maildev: options.maildev,
  cacheFile: join(root, '.local', 'bench', 'sessions-logins.json'),
  log,
});
log(`  ${how.reused} reused, ${how.refreshed} refreshed, ${how.emailed} logged in by e-mail`);
// Each user sends from its own address of 172.16.0.0/12, as one phone would.
const users = tokens.map(({ email, token }, k) => ({ email, token, ip: `172.${16 + ((k >> 16) & 15)}.${(k >> 8) & 255}.${k & 255}` }));

const result = options.uncached ? await withCacheOff(root, log, () => measure()) : await measure();

async function measure() {
  // What the stack does without this load (on a shared machine: other people's tests and builds):
  // the run waits a while for it to be quiet, and the per-core figures leave out what remains.
  log('waiting until the stack uses less than 15 % of a CPU …');
  const settled = await settle({ runDir, maxCpuPercent: 15, timeoutSeconds: options.settleTimeout, log });
  const cache = gatewayCache(runDir);
  const client = createClient(options.gateway, { maxSockets: options.connections });
  const sessions = { started: 0, completed: 0 };
  let stop = false;
  // The users' pauses, so that the end of the window ends them instead of waiting them out.
  const waits = new Set();
  const wait = (ms) =>
    new Promise((resolve) => {
      if (stop) return resolve();
      const entry = { resolve, timer: setTimeout(() => (waits.delete(entry), resolve()), ms) };
      waits.add(entry);
    });
  const ctx = { send: client.send, speed: options.speed, rampMs: options.warmup * 1000, wait, stopping: () => stop, sessions };

  const begin = performance.now();
  const windowFrom = begin + options.warmup * 1000;
  const windowTo = windowFrom + options.duration * 1000;
  client.recorder.setWindow(windowFrom, windowTo);
  log(`${users.length} users at ${options.speed} x real time: ${options.warmup} s of ramp, then ${options.duration} s measured …`);
  // Each user its own random sequence: the same choices in every run, whatever the timing.
  const running = users.map((user, k) => runUser(user, { ...ctx, random: mulberry32(options.seed * 1_000_003 + k) }));

  await sleepUntil(windowFrom);
  const at = { sessions: { ...sessions }, cpu: cpuTicksByService(runDir), rpc: await rpcCounts(), self: process.cpuUsage() };
  const wallFrom = performance.now();
  await sleepUntil(windowTo);
  const cpu = cpuTicksBetween(at.cpu, cpuTicksByService(runDir));
  const rpc = await rpcCounts();
  const self = process.cpuUsage(at.self);
  const seconds = (performance.now() - wallFrom) / 1000;
  const inWindow = { started: sessions.started - at.sessions.started, completed: sessions.completed - at.sessions.completed };
  stop = true;
  for (const entry of waits) {
    clearTimeout(entry.timer);
    entry.resolve();
  }
  waits.clear();
  log('waiting for the requests in flight to end …');
  await Promise.race([Promise.all(running), new Promise((resolve) => setTimeout(resolve, 35_000).unref())]);
  client.close();

  const cacheAtEnd = gatewayCache(runDir);
  return summarize({
    dataset: options.dataset,
    machine: atStart,
    options,
    users: users.length,
    responseCacheTtlMs: cache?.ttlMs,
    idleCores: settled.cpuPercent / 100,
    gatewayRestarted: cacheAtEnd?.pid !== cache?.pid,
    seconds,
    sessions: inWindow,
    endpoints: client.recorder.endpoints(),
    cpu,
    rpc: { before: at.rpc, after: rpc },
    loadGeneratorCpuSeconds: (self.user + self.system) / 1e6,
  });
}

const text = table(result);
console.log(`\n${text}\n`);
if (result.gatewayRestarted) console.log('The gateway was restarted during the run (by someone else?): the figures mix two gateways.');

if (options.writeReadme) {
  await mkdir(join(here, 'results'), { recursive: true });
  await writeFile(join(here, 'results', `${options.dataset}${result.uncached ? '-uncached' : ''}.json`), `${JSON.stringify(result, null, 1)}\n`);
  await writeBlock(join(here, 'README.md'), `sessions-${options.dataset}${result.uncached ? '-uncached' : ''}`, text).catch(async (error) => {
    log(`${error.message}; the table goes to HISTORY.md only`);
  });
  await appendFile(join(here, 'HISTORY.md'), `\n## ${result.machine.date}\n\n${text}\n`);
  console.log(`written into ${join(here, 'README.md')} and HISTORY.md`);
  // The capacity model sizes the pods on these results: the production overlay and docs/capacity.md follow them.
  spawnSync(process.execPath, [join(root, 'bench', 'capacity', 'generate.mjs')], { stdio: 'inherit' });
}

function parseOptions(argv) {
  const args = new Map(
    argv
      .filter((arg) => arg.startsWith('--') && arg !== '--')
      .map((arg) => {
        const [key, ...rest] = arg.slice(2).split('=');
        return [key, rest.length ? rest.join('=') : 'true'];
      }),
  );
  if (args.has('help')) {
    console.log(USAGE);
    process.exit(0);
  }
  const known = new Set([
    'dataset',
    'users',
    'speed',
    'duration',
    'warmup',
    'connections',
    'seed',
    'settle-timeout',
    'uncached',
    'no-readme',
    'gateway',
    'maildev',
    'help',
  ]);
  for (const key of args.keys()) if (!known.has(key)) throw new Error(`unknown option --${key}\n${USAGE}`);
  const number = (key, fallback) => {
    const value = Number(args.get(key) ?? fallback);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${key} must be a positive number`);
    return value;
  };
  const dataset = args.get('dataset') ?? 'demo';
  const speed = number('speed', 10);
  if (!['demo', 'scale'].includes(dataset)) throw new Error('--dataset must be demo or scale');
  return {
    dataset,
    users: Math.floor(number('users', 1000)),
    speed,
    duration: number('duration', 30),
    warmup: args.has('warmup') ? Number(args.get('warmup')) || 0 : Math.ceil(MEAN_CYCLE_SECONDS / speed),
    connections: Math.floor(number('connections', 512)),
    seed: Math.floor(number('seed', 1)),
    settleTimeout: number('settle-timeout', 60),
    uncached: args.has('uncached') && args.get('uncached') !== 'false',
    writeReadme: !args.has('no-readme'),
    gateway: args.get('gateway') ?? process.env.BENCH_GATEWAY_URL ?? 'http://127.0.0.1:8080',
    maildev: args.get('maildev') ?? process.env.BENCH_MAILDEV_URL ?? 'http://127.0.0.1:1080',
  };
}

function sleepUntil(at) {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));
}

/** A small seeded generator, so two runs make the same choices. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
