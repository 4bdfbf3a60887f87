import { Writable } from 'node:stream';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createLogger, currentContext, runWithContext } from './index.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, stream };
}

describe('logger', () => {
  it('when logging inside a request context, then the line carries its ids', async () => {
    const { lines, stream } = capture();
    const log = createLogger({ service: 'test', destination: stream });
    await runWithContext({ requestId: 'req-1', tenantId: 2, userId: 7 }, async () => {
      await Promise.resolve();
      log.info('inside');
    });
    log.info('outside');
    expect(lines[0]).toMatchObject({ service: 'test', request_id: 'req-1', tenant_id: 2, user_id: 7, msg: 'inside' });
    expect(lines[1]).not.toHaveProperty('request_id');
  });

  it('when a secret is logged, then it is redacted', () => {
    const { lines, stream } = capture();
    const log = createLogger({ service: 'test', destination: stream });
    log.info({ body: { refresh_token: 'secret', email: 'a@b.c' } }, 'login');
    expect(lines[0]).toMatchObject({ body: { refresh_token: '[redacted]', email: 'a@b.c' } });
  });

  it('when secrets sit one level down in any logged object, then each is censored and the object itself is left alone', () => {
    const { lines, stream } = capture();
    const log = createLogger({ service: 'test', destination: stream });
    const input = { email: 'a@b.c', code: '123456', password: 'hunter2', access_token: 'eyJ', authorization: 'Bearer x' };
    log.info({ input, other: { name: 'n' }, count: 3 }, 'validate');
    expect(lines[0]).toMatchObject({
      input: { email: 'a@b.c', code: '[redacted]', password: '[redacted]', access_token: '[redacted]', authorization: '[redacted]' },
      other: { name: 'n' },
      count: 3,
    });
    expect(input.code).toBe('123456');
  });

  it('when a request is logged, then its Authorization header is censored and its other headers kept', () => {
    const { lines, stream } = capture();
    const log = createLogger({ service: 'test', destination: stream });
    const headers = { authorization: 'Bearer secret', 'user-agent': 'ua' };
    log.info({ req: { method: 'GET', url: '/x', headers } }, 'request');
    expect(lines[0]).toMatchObject({ req: { method: 'GET', headers: { authorization: '[redacted]', 'user-agent': 'ua' } } });
    expect(headers.authorization).toBe('Bearer secret');
  });

  it('when an error is logged, then its code stays readable (an error code, not a login code)', () => {
    const { lines, stream } = capture();
    const log = createLogger({ service: 'test', destination: stream });
    log.warn({ err: Object.assign(new Error('reset'), { code: 'ECONNRESET' }), rpc: '/a/B', code: 14 }, 'failed');
    expect(lines[0]).toMatchObject({ err: { message: 'reset', code: 'ECONNRESET' }, rpc: '/a/B', code: 14 });
  });

  it('when no context is active, then currentContext is undefined', () => {
    expect(currentContext()).toBeUndefined();
  });
});

describe('standard output', () => {
  // A process of its own with the built logger, as a service writes its lines.
  const loggerModule = new URL('../dist/index.js', import.meta.url).href;
  const run = (script: string) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', `const { createLogger } = await import(${JSON.stringify(loggerModule)});\n${script}`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    return {
      child,
      exited,
      lines: () =>
        out
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { msg: string }),
    };
  };

  it('when a few lines are written and the process stays idle, then they arrive within about a second', async () => {
    const service = run(`const log = createLogger({ service: 'idle' }); log.info('one'); log.info('two'); setTimeout(() => {}, 10_000);`);
    try {
      await expect.poll(() => service.lines().map((line) => line.msg), { timeout: 3_000, interval: 50 }).toEqual(['one', 'two']);
    } finally {
      service.child.kill();
    }
  });

  it('when the process exits right after writing, also on an uncaught error, then every line was written', async () => {
    const exiting = run(`const log = createLogger({ service: 'exit' }); for (let i = 0; i < 50; i++) log.info('line ' + i); process.exit(0);`);
    expect(await exiting.exited).toBe(0);
    expect(exiting.lines()).toHaveLength(50);
    const crashing = run(`const log = createLogger({ service: 'crash' }); log.error('before the crash'); setTimeout(() => { throw new Error('boom'); }, 10);`);
    expect(await crashing.exited).toBe(1);
    expect(crashing.lines().map((line) => line.msg)).toEqual(['before the crash']);
  });
});
