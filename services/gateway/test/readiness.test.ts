// The readiness rule (docs/reliability.md): a gateway whose upstreams are down
// stays ready, and a down service costs only its own routes (503 with
// Retry-After), never the routes of the services that are up.
import { uniqueEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThroughGateway, startStack, type Stack, type Tokens } from './support.js';

describe('readiness with one service down', () => {
  // Identity is real; catalog, commerce, reader, notes and integrations point at a closed port.
  let stack: Stack;
  let tokens: Tokens;

  beforeAll(async () => {
    stack = await startStack();
    tokens = await loginThroughGateway(stack.http, uniqueEmail('ready'));
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('when notes is unreachable, then /readyz stays 200 and ?verbose says notes is down', async () => {
    const ready = await stack.http.get('/readyz');
    expect(ready.status).toBe(200);
    const verbose = await stack.http.get('/readyz?verbose=1');
    expect(verbose.status).toBe(200);
    expect(verbose.body.upstreams).toMatchObject({ identity: true, notes: false });
  });

  it('when notes is unreachable, then its routes answer 503 with Retry-After while identity routes answer 200', async () => {
    const headers = { 'x-svc-tenant-id': '1', 'reader-token': 'any' };
    const notes = await stack.http.get('/api/v2/reader/notes', { token: tokens.access_token, headers });
    expect(notes.status).toBe(503);
    expect(notes.body).toEqual({ message: 'Service temporarily unavailable.' });
    expect(Number(notes.headers['retry-after'])).toBeGreaterThan(0);

    const user = await stack.http.get('/api/v2/user', { token: tokens.access_token });
    expect(user.status).toBe(200);
    expect(user.body.email).toEqual(expect.any(String));
  });
});
