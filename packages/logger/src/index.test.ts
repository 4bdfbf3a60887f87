import { Writable } from 'node:stream';
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
