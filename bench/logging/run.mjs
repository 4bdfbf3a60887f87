// node bench/logging/run.mjs [--lines=200000] [--rounds=5] [--no-readme]
//
// CPU time per log line of the gateway's access line, three ways, in one
// process (no I/O: lines go to a sink that drops them):
//   - pino without any redaction (the floor);
//   - pino with the `redact` wildcard paths @folio/logger used before
//     (`*.password`, ...): pino hands every value of a line to them;
//   - @folio/logger as built (packages/logger/dist), which censors the same
//     secrets in its `formatters.log` hook (packages/logger/src/redaction.ts).
// Prints the median of --rounds and writes the table into README.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(`${root}packages/logger/package.json`);
const pino = require('pino');
const { createLogger } = await import(`${root}packages/logger/dist/index.js`).catch(() => {
  console.error('packages/logger is not built: pnpm turbo run build --filter @folio/logger');
  process.exit(1);
});

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const LINES = Number(args.lines ?? 200_000);
const ROUNDS = Number(args.rounds ?? 5);

const sink = { write() {} };
const common = {
  level: 'info',
  base: { service: 'gateway' },
  timestamp: pino.stdTimeFunctions.isoTime,
  mixin: () => ({ request_id: 'b1f0c6a2-6c1e-4a55-9f1e-0a4c1f1e2d3c', tenant_id: 1, user_id: 51 }),
};
const OLD_PATHS = ['*.password', '*.code', '*.refresh_token', '*.access_token', '*.authorization', 'req.headers.authorization'];
const variants = [
  ['pino, no redaction (floor)', pino(common, sink)],
  ['pino `redact` with the old wildcard paths', pino({ ...common, redact: { paths: OLD_PATHS, censor: '[redacted]' } }, sink)],
  ['@folio/logger (formatters.log censor)', createLogger({ service: 'gateway', destination: sink })],
];
const accessLine = () => ({ method: 'POST', path: '/api/v2/reader/1003/sessions', route: 'POST /api/v2/reader/{issue_id}/sessions', status: 200, ms: 12, ip: '10.1.2.3' });

const samples = variants.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  variants.forEach(([, log], i) => {
    const started = process.hrtime.bigint();
    for (let n = 0; n < LINES; n++) log.info(accessLine(), 'request');
    samples[i].push(Number(process.hrtime.bigint() - started) / LINES / 1000);
  });
  process.stdout.write(`round ${round + 1}/${ROUNDS}\n`);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const floor = median(samples[0]);
const rows = variants.map(([name], i) => {
  const m = median(samples[i]);
  return `| ${name} | ${m.toFixed(2)} | ${(m / floor).toFixed(1)}x | ${samples[i].map((s) => s.toFixed(2)).join(' / ')} |`;
});
const table = [
  `${new Date().toISOString()}; ${os.cpus().length} CPUs, node ${process.version}; ${LINES.toLocaleString('en')} access lines per round, ${ROUNDS} rounds; median of the rounds.`,
  '',
  '| Logger | µs per line | vs floor | rounds |',
  '| --- | ---: | ---: | --- |',
  ...rows,
].join('\n');
console.log(`\n${table}`);

if (args['no-readme'] === undefined) {
  const readme = `${root}bench/logging/README.md`;
  const text = readFileSync(readme, 'utf8');
  const start = '<!-- bench:logging:start -->';
  const end = '<!-- bench:logging:end -->';
  writeFileSync(readme, `${text.slice(0, text.indexOf(start) + start.length)}\n${table}\n${text.slice(text.indexOf(end))}`);
  console.log(`written to ${readme}`);
}
