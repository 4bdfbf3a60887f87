// node bench/routing/run.mjs [--rounds=4] [--duration=3] [--no-readme]
//
// What finding a request's route costs the gateway: its route table (the
// built services/gateway/dist) mounted two ways, each route with a chain of
// three trivial handlers (an async admission, a parser that passes, the
// answer) behind six pass-through app middlewares, as in the gateway:
//   - `express Router`: one express 5 Router holding every route, as the
//     gateway did before it had a dispatcher of its own;
//   - `dispatcher`: the gateway's http/dispatch.ts (find-my-way).
// Each variant is a server process of its own (on CPU 0 where `taskset`
// exists, the load generator on CPU 1); autocannon drives three routes near
// the start, the middle and the end of the table, and the figure is the
// server's CPU time per answer (process.cpuUsage), the median of --rounds,
// the variants alternating; beside it the bytes it allocated per answer
// (scavenges of a young generation of fixed size). Writes the table into
// README.md.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const gateway = `${root}services/gateway/`;
const VARIANTS = ['express Router', 'dispatcher'];
/** The servers' young generation, fixed, so that a scavenge counts the same bytes (bench/routing/README.md). */
const SEMI_SPACE_MB = 16;

if (process.argv[2] === '--serve') await serve(process.argv[3]);
else await measure();

async function serve(variant) {
  const express = createRequire(`${gateway}package.json`)('express');
  const { routeTable } = await import(`${gateway}dist/routes/index.js`);
  const { routeDispatcher } = await import(`${gateway}dist/http/dispatch.js`);
  const { expressPath } = await import(`${gateway}dist/http/route.js`);
  const handlers = [
    async (_req, _res, next) => {
      await null;
      next();
    },
    (_req, _res, next) => next(),
    (_req, res) => res.json({ ok: true }),
  ];
  // Scavenges so far: with a young generation of fixed size (the flags the
  // server is started with) each one stands for the same bytes allocated.
  let scavenges = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges++;
  }).observe({ entryTypes: ['gc'] });
  const app = express();
  app.get('/_cpu', (_req, res) => res.json({ ...process.cpuUsage(), scavenges }));
  for (let i = 0; i < 6; i++) app.use((_req, _res, next) => next());
  if (variant === 'dispatcher') {
    app.use(routeDispatcher(routeTable.map((route) => ({ method: route.method, path: expressPath(route.path), handlers }))));
  } else {
    const router = express.Router();
    for (const route of routeTable) router[route.method](expressPath(route.path), ...handlers);
    app.use(router);
  }
  const server = app.listen(0, () => console.log(`listening ${server.address().port} ${routeTable.length}`));
}

async function measure() {
  const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
  const rounds = Number(args.rounds ?? 4);
  const duration = Number(args.duration ?? 3);
  const autocannon = createRequire(`${root}bench/api/package.json`)('autocannon');
  const pinned = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  if (pinned) spawnSync('taskset', ['-pc', '1', String(process.pid)]);
  const { routeTable } = await import(`${gateway}dist/routes/index.js`).catch(() => {
    console.error('services/gateway is not built: pnpm turbo run build --filter @folio/gateway...');
    process.exit(1);
  });
  const position = (method, path) => routeTable.findIndex((route) => route.method === method && route.path === path) + 1;
  const targets = [
    { method: 'GET', url: '/api/v2/user', rank: position('get', '/api/v2/user') },
    { method: 'POST', url: '/api/v2/reader/1003/sessions', rank: position('post', '/api/v2/reader/{issue_id}/sessions') },
    { method: 'GET', url: '/app/purchase/1002', rank: position('get', '/app/purchase/{issue_id}') },
  ];
  const figures = new Map();
  const allocations = new Map();
  for (let round = 1; round <= rounds; round++) {
    for (const variant of round % 2 ? VARIANTS : [...VARIANTS].reverse()) {
      console.error(`round ${round}/${rounds}: ${variant} …`);
      const command = [process.execPath, `--min-semi-space-size=${SEMI_SPACE_MB}`, `--max-semi-space-size=${SEMI_SPACE_MB}`, fileURLToPath(import.meta.url), '--serve', variant];
      const server = pinned ? spawn('taskset', ['-c', '0', ...command], { stdio: ['ignore', 'pipe', 'inherit'] }) : spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
      const [line] = await once(server.stdout, 'data');
      const base = `http://127.0.0.1:${String(line).match(/listening (\d+)/)[1]}`;
      try {
        for (const target of targets) {
          const load = { url: base + target.url, method: target.method, connections: 16 };
          await autocannon({ ...load, duration: 1 });
          const before = await (await fetch(`${base}/_cpu`)).json();
          const result = await autocannon({ ...load, duration });
          const after = await (await fetch(`${base}/_cpu`)).json();
          if (result.non2xx || result.errors) throw new Error(`${variant} ${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
          const us = (after.user + after.system - before.user - before.system) / result.requests.total;
          // A scavenge empties one semi-space: what was allocated since the last one.
          const kb = ((after.scavenges - before.scavenges) * SEMI_SPACE_MB * 1024) / result.requests.total;
          const key = `${variant}\n${target.url}`;
          figures.set(key, [...(figures.get(key) ?? []), us]);
          allocations.set(key, [...(allocations.get(key) ?? []), kb]);
        }
      } finally {
        server.kill();
      }
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
  const lines = [
    `${new Date().toISOString()}; ${os.cpus().length} CPUs, node ${process.version}; ${routeTable.length} routes; ${rounds} rounds of ${duration} s per route and variant, alternating${pinned ? '; server on CPU 0, autocannon (16 connections) on CPU 1' : ''}; load average ${os.loadavg()[0].toFixed(1)} at the end.`,
    '',
    '| Route (its place in the table) | KB allocated per answer: express Router | dispatcher | server CPU µs per answer: express Router | dispatcher | CPU rounds (express / dispatcher) |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...targets.map((target) => {
      const [express, dispatcher] = VARIANTS.map((variant) => figures.get(`${variant}\n${target.url}`));
      const [expressKb, dispatcherKb] = VARIANTS.map((variant) => median(allocations.get(`${variant}\n${target.url}`)).toFixed(1));
      const show = (values) => values.map((us) => Math.round(us)).join(', ');
      return (
        `| \`${target.method} ${target.url}\` (${target.rank} of ${routeTable.length}) | ${expressKb} | ${dispatcherKb} | ` +
        `${Math.round(median(express))} | ${Math.round(median(dispatcher))} | ${show(express)} / ${show(dispatcher)} |`
      );
    }),
  ];
  const table = lines.join('\n');
  console.log(`\n${table}\n`);
  if (args['no-readme'] === undefined) {
    const readme = fileURLToPath(new URL('README.md', import.meta.url));
    const text = readFileSync(readme, 'utf8');
    const [start, end] = ['<!-- bench:routing:start -->', '<!-- bench:routing:end -->'];
    writeFileSync(readme, `${text.slice(0, text.indexOf(start) + start.length)}\n${table}\n${text.slice(text.indexOf(end))}`);
    console.log('written into bench/routing/README.md');
  }
}
