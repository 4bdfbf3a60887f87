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

  it('when no context is active, then currentContext is undefined', () => {
    expect(currentContext()).toBeUndefined();
  });
});
