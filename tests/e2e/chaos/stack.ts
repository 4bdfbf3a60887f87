// Faults on the stack ./dev up started: a service's process killed (its
// supervisor restarts it, as Kubernetes would), infrastructure restarted with
// ./dev, and a small load that records what every client saw meanwhile.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { api } from '../test/client.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const run = promisify(execFile);

export const SERVICE_PORTS = { identity: 50051, catalog: 50052, commerce: 50053, reader: 50054, notes: 50055, integrations: 50056 } as const;
export type ServiceName = keyof typeof SERVICE_PORTS;

/** Each service's /metrics port (replica 1), as ./dev gives it. */
export const METRICS_PORTS = { gateway: 9464, identity: 9465, catalog: 9466, commerce: 9467, reader: 9468, notes: 9469, integrations: 9470 } as const;

/** How many replicas of every service the stack runs (./dev up --replicas=N keeps N in .local/run/replicas). */
export async function stackReplicas(): Promise<number> {
  const text = await readFile(join(ROOT, '.local', 'run', 'replicas'), 'utf8').catch(() => '1');
  const replicas = Number(text.trim());
  return Number.isInteger(replicas) && replicas >= 1 ? replicas : 1;
}

/**
 * Replica k of a service as ./dev names and places it: `catalog` is replica 1,
 * `catalog-2` the second; every port of replica k is shifted by 100 * (k - 1),
 * and with two or more the gateways listen on 8081..808N behind HAProxy.
 */
export function replica(service: ServiceName | 'gateway', k: number): { name: string; port: number; metricsPort: number } {
  const shift = 100 * (k - 1);
  return {
    name: k === 1 ? service : `${service}-${k}`,
    port: service === 'gateway' ? 8080 + k : SERVICE_PORTS[service] + shift,
    metricsPort: METRICS_PORTS[service] + shift,
  };
}

/**
 * The requests a replica has answered since it started, from its /metrics:
 * the gateway's API routes (not HAProxy's /readyz checks), a service's calls
 * of its own gRPC services (not grpc.health.v1's). 0 while it does not answer.
 */
export async function answeredRequests(service: ServiceName | 'gateway', metricsPort: number): Promise<number> {
  const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(2_000) })
    .then((response) => response.text())
    .catch(() => '');
  const series =
    service === 'gateway'
      ? /^http_server_requests_total\{[^}]*route="\/api\/[^}]*\} (\d+)/
      : /^grpc_server_handled_total\{[^}]*grpc_service="svc\.[^}]*\} (\d+)/;
  let total = 0;
  for (const line of text.split('\n')) {
    const match = series.exec(line);
    if (match) total += Number(match[1]);
  }
  return total;
}

/** The pid of the service's node process: the child of its ./dev supervisor. */
async function servicePid(name: string): Promise<number> {
  const supervisor = Number((await readFile(join(ROOT, '.local', 'run', `${name}.pid`), 'utf8')).split('\n')[0]);
  const { stdout } = await run('pgrep', ['-P', String(supervisor)]);
  const pid = Number(stdout.trim().split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no process under ${name}'s supervisor ${supervisor}`);
  return pid;
}

/**
 * SIGKILL: no drain, no goodbye; the supervisor starts it again after its
 * backoff. A service's name is its replica 1; `catalog-2` names another.
 * Resolves with the killed pid.
 */
export async function killService(name: ServiceName | string): Promise<number> {
  const pid = await servicePid(name);
  process.kill(pid, 'SIGKILL');
  return pid;
}

/**
 * Whether something listens on the port. The probe connects from 127.0.0.2:
 * the services' ports lie in Linux's ephemeral range, and a connect from
 * 127.0.0.1 to a closed one can be given that very port as its source and
 * connect to itself (TCP simultaneous open). That socket then looks like a
 * listener, and holds the port after it closes, so the restarted service
 * fails with EADDRINUSE until the kernel lets it go (a reader that never
 * came back in one CI run).
 */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Until `probe` is true, checked every 100 ms; the time it took. */
export async function until(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await probe().catch(() => false)) return Date.now() - started;
    await sleep(100);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `./dev restart <infra>` (redis, rabbitmq, docdb): stops it and starts it again. */
export async function restartInfra(name: 'redis' | 'rabbitmq' | 'docdb'): Promise<void> {
  await run(join(ROOT, 'dev'), ['restart', name], { cwd: ROOT, timeout: 120_000 });
}

export interface Outcome {
  route: string;
  at: number;
  status: number;
  retryAfter: string | null;
  /** Transport error instead of an answer (reset, refused). */
  error?: string;
}

let freshCount = 0;

/**
 * The path with a query parameter no route reads, new on every call. The
 * gateway's per-user response cache (services/gateway/src/http/response-cache.ts)
 * keys answers by URL: a read it cached before a fault would answer 200 from
 * memory for up to its TTL and hide both the fault and the recovery. With
 * it, every request reaches the services the route needs and their breakers.
 */
export function uncached(path: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}fresh=${Date.now().toString(36)}-${(freshCount++).toString(36)}`;
}

export interface LoadRoute {
  name: string;
  send: () => Promise<{ status: number; headers: Headers }>;
}

/**
 * A bounded load: `concurrency` loops, each sending the routes in turn with a
 * pause between requests, recording every outcome until stopped.
 */
export function startLoad(routes: LoadRoute[], { concurrency = 4, pauseMs = 40 } = {}) {
  const outcomes: Outcome[] = [];
  let running = true;
  const loops = Array.from({ length: concurrency }, async (_, loop) => {
    let turn = loop;
    while (running) {
      const route = routes[turn++ % routes.length]!;
      const at = Date.now();
      try {
        const response = await route.send();
        outcomes.push({ route: route.name, at, status: response.status, retryAfter: response.headers.get('retry-after') });
      } catch (error) {
        outcomes.push({ route: route.name, at, status: 0, retryAfter: null, error: String(error) });
      }
      await sleep(pauseMs);
    }
  });
  return {
    outcomes,
    async stop(): Promise<Outcome[]> {
      running = false;
      await Promise.all(loops);
      return outcomes;
    },
  };
}

const LOGGED = ['gateway', 'identity', 'catalog', 'commerce', 'reader', 'notes', 'integrations'];

/**
 * The errors the services logged (level error and above) since `sinceMs`, a
 * few lines each: a failure message carries them, so that a red run in CI says
 * what failed inside the stack and not only what the client saw.
 */
export async function loggedErrors(sinceMs: number, limit = 6): Promise<string[]> {
  const found: string[] = [];
  for (const name of LOGGED) {
    const text = await readFile(join(ROOT, '.local', 'logs', `${name}.log`), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      // Only error (50) and fatal (60) lines are parsed: a log holds megabytes of info lines.
      if (!line.startsWith('{') || !/"level":[56]\d/.test(line)) continue;
      let entry: { level?: number; time?: string; msg?: string; rpc?: string; route?: string; err?: { type?: string; message?: string; stack?: string } };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        continue;
      }
      if ((entry.level ?? 0) < 50 || Date.parse(entry.time ?? '') < sinceMs) continue;
      const stack = (entry.err?.stack ?? '')
        .split('\n')
        .slice(1, 4)
        .map((frame) => frame.trim())
        .join(' < ');
      found.push(
        `${name} ${entry.time} ${entry.rpc ?? entry.route ?? ''} ${entry.msg ?? ''} ${entry.err?.type ?? ''}: ${entry.err?.message ?? ''} ${stack}`.slice(
          0,
          700,
        ),
      );
    }
  }
  return found.slice(0, limit);
}

/** Counts per route and status, for failure messages. */
export function summary(outcomes: Outcome[]): Record<string, Record<string, number>> {
  const table: Record<string, Record<string, number>> = {};
  for (const outcome of outcomes) {
    const row = (table[outcome.route] ??= {});
    const key = outcome.error ? 'error' : String(outcome.status);
    row[key] = (row[key] ?? 0) + 1;
  }
  return table;
}

export { api };

/** A v2 note on chapter 1 of the EPUB the fault cases open, under the caller's uuid. */
export const chaosNote = (uuid: string, color = 'yellow') => ({
  uuid,
  color,
  totalLength: 10,
  totalText: 'The keeper',
  epubLocationStartCfi: 'epubcfi(/6/2[chapter-1]!/4/2,/1:0,/1:10)',
  epubLocationEndCfi: 'epubcfi(/6/2[chapter-1]!/4/2/1:10)',
  epubChapter: 'text/chapter-1.xhtml',
  epubLocationStartChar: '0',
  epubLocation: ['text/chapter-1.xhtml', 'epubcfi(/6/2[chapter-1]!/4/2,/1:0,/1:10)'],
});
