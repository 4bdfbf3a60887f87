// Command-line options of the API benchmark (`pnpm bench:api -- --help`).
export const USAGE = `pnpm bench:api [-- options]
  --dataset=demo|scale   which data the stack holds (scale: after pnpm bench:scale-data); default demo
  --duration=5           seconds of load per endpoint and round
  --warmup=1             seconds of the same load before each of those, not measured (0: none)
  --rounds=3             rounds over every endpoint; a row is the median of its rounds
  --connections=32       concurrent connections per endpoint
  --users=16             how many users share the load (demo: ana, bruno + bench-NN@example.test; scale: ana, bruno + scale users of tenant 1)
  --rest=60              seconds of rest after the load before the RSS is read again (0: skip)
  --settle=15            before the load, wait until the stack uses less than this % of one CPU (0: do not wait)
  --settle-timeout=300   seconds to wait for that at most
  --only=a,b             run only the endpoints whose name contains one of these words
  --uncached             the gateway's response cache off for the run (RESPONSE_CACHE_TTL_MS=0 ./dev restart gateway,
                         and ./dev restart gateway after): the uncached targets, its own table, and the gateway's CPU
                         per answer beside that of the last cached run of the dataset
  --no-readme            print the table without writing bench/api/README.md
  --gateway=http://127.0.0.1:8080   --maildev=http://127.0.0.1:1080`;

export function parseOptions(argv) {
  const args = new Map(
    argv
      .filter((arg) => arg.startsWith('--'))
      .map((arg) => {
        const [key, ...rest] = arg.slice(2).split('=');
        return [key, rest.length ? rest.join('=') : 'true'];
      }),
  );
  if (args.has('help')) {
    console.log(USAGE);
    process.exit(0);
  }
  const number = (key, fallback) => {
    const value = Number(args.get(key) ?? fallback);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${key} must be a positive number`);
    return value;
  };
  const dataset = args.get('dataset') ?? 'demo';
  if (!['demo', 'scale'].includes(dataset)) throw new Error('--dataset must be demo or scale');
  return {
    dataset,
    duration: number('duration', 5),
    warmup: args.has('warmup') ? Number(args.get('warmup')) || 0 : 1,
    rounds: Math.max(1, Math.floor(number('rounds', 3))),
    connections: number('connections', 32),
    users: Math.max(4, Math.floor(number('users', 16))),
    restSeconds: args.has('rest') ? Number(args.get('rest')) || 0 : 60,
    settleCpuPercent: args.has('settle') ? Number(args.get('settle')) || 0 : 15,
    settleTimeoutSeconds: number('settle-timeout', 300),
    only: args.get('only')?.split(',').filter(Boolean) ?? null,
    uncached: args.has('uncached') && args.get('uncached') !== 'false',
    writeReadme: !args.has('no-readme'),
    gateway: args.get('gateway') ?? process.env.BENCH_GATEWAY_URL ?? 'http://127.0.0.1:8080',
    maildev: args.get('maildev') ?? process.env.BENCH_MAILDEV_URL ?? 'http://127.0.0.1:1080',
  };
}
