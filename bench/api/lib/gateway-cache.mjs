// The gateway's per-user response cache, seen and switched from outside: a
// benchmark of the request the cache cannot answer needs the gateway started
// with RESPONSE_CACHE_TTL_MS=0 (its config reads the variable only at start),
// and its table must say which gateway it measured. What the running gateway
// uses is read from its process's environment, so a gateway someone restarted
// by hand with the cache off is reported as such too.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { processTreeOf } from './processes.mjs';

/** The gateway's default (services/gateway/src/config.ts). */
export const DEFAULT_TTL_MS = 10_000;

/** { pid, ttlMs } of the running gateway's node process, or null when ./dev runs none. */
export function gatewayCache(runDir) {
  const node = processTreeOf(runDir, 'gateway').find((entry) => entry.cmdline.includes('dist/main.js'));
  if (!node) return null;
  let environ = '';
  try {
    environ = readFileSync(`/proc/${node.pid}/environ`, 'utf8');
  } catch {
    return null;
  }
  const value = environ
    .split('\0')
    .find((entry) => entry.startsWith('RESPONSE_CACHE_TTL_MS='))
    ?.slice('RESPONSE_CACHE_TTL_MS='.length);
  return { pid: node.pid, ttlMs: value === undefined || value === '' ? DEFAULT_TTL_MS : Number(value) };
}

/**
 * `./dev restart gateway` with the cache off (`off`) or at its default. It
 * rebuilds the gateway first; a build that fails leaves the running gateway
 * as it was, which the caller sees in gatewayCache().
 */
export function restartGateway(root, { off, log }) {
  const env = { ...process.env };
  if (off) env.RESPONSE_CACHE_TTL_MS = '0';
  else delete env.RESPONSE_CACHE_TTL_MS;
  log(`${off ? 'RESPONSE_CACHE_TTL_MS=0 ' : ''}./dev restart gateway …`);
  const done = spawnSync(join(root, 'dev'), ['restart', 'gateway'], { cwd: root, env, stdio: ['ignore', 2, 2] });
  if (done.status !== 0) throw new Error(`./dev restart gateway failed (exit ${done.status ?? done.signal})`);
}

/**
 * Runs `fn` with the gateway's response cache off, then restarts the gateway
 * with its default again, also when `fn` throws or the run is interrupted.
 * A gateway already running with the cache off is used as it is and left so.
 */
export async function withCacheOff(root, log, fn) {
  const runDir = join(root, '.local', 'run');
  const before = gatewayCache(runDir);
  if (before?.ttlMs === 0) {
    log('the gateway already runs with RESPONSE_CACHE_TTL_MS=0: measuring it as it is');
    return fn(before);
  }
  restartGateway(root, { off: true, log });
  const now = gatewayCache(runDir);
  if (now?.ttlMs !== 0) throw new Error(`the restarted gateway does not run with RESPONSE_CACHE_TTL_MS=0 (${JSON.stringify(now)})`);
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      restartGateway(root, { off: false, log });
    } catch (error) {
      log(`${error.message}: the gateway still runs WITHOUT its response cache; run ./dev restart gateway`);
    }
  };
  const onSignal = (signal) => {
    restore();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await fn(now);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    restore();
  }
}
