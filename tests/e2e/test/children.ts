// Services of the running stack's code started again as child processes
// (their built dist/main.js, on ports of their own, every peer the running
// stack's unless told otherwise): what a test needs to cut, hold or stop
// without touching the stack that other test files share.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, uniqueName, waitFor } from '@folio/testing';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Child {
  process: ChildProcess;
  /** Everything it wrote, for the failure message. */
  output: () => string;
  /** Resolves with the exit code and when it exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Sends SIGTERM, waits for the process to log that it is shutting down, and returns when it was sent. */
  terminate(): Promise<number>;
}

/** A service's built entry point as a child process with only the given environment (everything else default). */
export function startChild(service: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, [join(ROOT, 'services', service, 'dist/main.js')], {
    cwd: join(ROOT, 'services', service),
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (data) => (output += String(data)));
  child.stderr!.on('data', (data) => (output += String(data)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return {
    process: child,
    output: () => output,
    exited,
    async terminate() {
      const at = Date.now();
      child.kill('SIGTERM');
      await waitFor(() => (output.includes('"shutting down"') ? true : undefined), { what: `${service} to log "shutting down"` });
      return at;
    },
  };
}

/** A gateway of its own on free ports, its peers the running stack's services, `/media/*` sent to `mediaUrl`. */
export async function startGatewayChild(mediaUrl: string, extra: Record<string, string> = {}): Promise<{ gateway: Child; url: string; port: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const gateway = startChild('gateway', {
    HTTP_PORT: String(port),
    METRICS_PORT: String(await freePort()),
    READER_MEDIA_URL: mediaUrl,
    RATE_LIMIT_PREFIX: uniqueName('child:rl'),
    ...extra,
  });
  await waitFor(async () => ((await fetch(`${url}/healthz`)).status === 200 ? true : undefined), {
    what: `the child gateway on ${url}`,
    timeoutMs: 30_000,
  });
  return { gateway, url, port };
}
