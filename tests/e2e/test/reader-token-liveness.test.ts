// Reader-tokens are verified by reader once, then from Redis: a second
// gateway (a child process of this test) reaches the stack's reader through
// a cuttable proxy, so the tests see which requests need reader. Reader
// writes each session's liveness key (services/reader/src/data/session-liveness.ts);
// the gateway reads it in the request's one Redis round trip. The stack's own
// gateway is the other replica that ends a session.
import { Redis } from 'ioredis';
import { startTcpProxy, testInfra, waitFor, type TcpProxy } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayChild, type Child } from './children.js';
import type { Tokens } from './client.js';
import { api, READER_ADDR, readerClient, sharedLogin, STORE, userIdOf, v2 } from './reader-helpers.js';

/** The stack's reader writes its keys under its default prefix (READER_SESSION_LIVENESS_PREFIX). */
const LIVENESS_PREFIX = 'rsess';

describe('reader-tokens from Redis (a second gateway, reader behind a cuttable proxy)', () => {
  let proxy: TcpProxy;
  let gateway: Child | undefined;
  let url: string;
  let ana: Tokens;
  const redis = new Redis(testInfra().redisUrl);
  const reader = readerClient();

  beforeAll(async () => {
    const [host, port] = READER_ADDR.split(':') as [string, string];
    proxy = await startTcpProxy(host, Number(port));
    // The breaker stays closed through the cuts: this file is about the token, not breakers.
    ({ gateway, url } = await startGatewayChild('http://127.0.0.1:1', {
      READER_ADDR: `127.0.0.1:${proxy.port}`,
      BREAKER_VOLUME_THRESHOLD: '100000',
      LOG_LEVEL: 'warn',
    }));
    ana = await sharedLogin('ana@example.com');
  }, 60_000);
  afterAll(async () => {
    gateway?.process.kill('SIGTERM');
    await gateway?.exited;
    await proxy?.close();
    reader.close();
    await redis.quit();
  });

  /** A v1 session of ana's, as the reader engine gets it (settings token, then the exchange), through the stack's gateway. */
  async function openV1Session(): Promise<{ id: string; token: string; livenessKey: string }> {
    const settings = await api('GET', '/api/v2/reader/settings/1001', { token: ana.access_token, headers: v2(1) });
    expect(settings.status).toBe(200);
    const opened = await api('POST', '/api/v1/sessions', { headers: { host: STORE[1] }, body: { token: settings.body.token } });
    expect(opened.status).toBe(200);
    const { context } = await reader.verifyReaderToken({ readerToken: opened.body.token, expectedTenantId: 1 });
    return { id: opened.body.id, token: opened.body.token, livenessKey: `${LIVENESS_PREFIX}:${context!.sessionId}` };
  }

  const notesHere = (readerToken: string) => api('GET', '/api/v1/notes', { baseUrl: url, headers: { host: STORE[1], 'reader-token': readerToken } });

  /** gRPC reconnects with a backoff after the cut: the first calls may still find the channel down. */
  const answeredOnceReaderIsBack = (readerToken: string) =>
    waitFor(async () => ((await notesHere(readerToken)).status === 200 ? true : undefined), {
      what: 'the token answered once reader is back',
      timeoutMs: 15_000,
    });

  it('when a reader-token was verified once, then its next requests are answered while reader is unreachable', async () => {
    const session = await openV1Session();
    expect((await notesHere(session.token)).status).toBe(200);
    await proxy.cut();
    try {
      expect((await notesHere(session.token)).status).toBe(200);
      expect((await notesHere(session.token)).status).toBe(200);
    } finally {
      await proxy.restore();
    }
  });

  it('when its session is deleted through the other gateway, then the very next request here is refused, without asking reader', async () => {
    const session = await openV1Session();
    expect((await notesHere(session.token)).status).toBe(200);
    await proxy.cut();
    try {
      expect((await api('DELETE', `/api/v1/sessions/${session.id}`, { headers: { host: STORE[1] } })).status).toBe(200);
      const refused = await notesHere(session.token);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: 'The reader-token is missing, invalid or expired.' });
    } finally {
      await proxy.restore();
    }
    expect(await redis.get(session.livenessKey)).toBe('-');
    expect((await notesHere(session.token)).status).toBe(403);
  });

  it('when its liveness key is lost, then the gateway asks reader again, and reader writes the key back', async () => {
    const session = await openV1Session();
    expect((await notesHere(session.token)).status).toBe(200);
    await redis.del(session.livenessKey);
    await proxy.cut();
    try {
      // Unknown, and reader cannot be asked: an outage, not a refusal.
      expect((await notesHere(session.token)).status).toBe(503);
    } finally {
      await proxy.restore();
    }
    await answeredOnceReaderIsBack(session.token);
    expect(await redis.get(session.livenessKey)).toBe(String(userIdOf(ana.access_token)));
  });

  it('when a key names another user (a foreign or stale key), then the gateway does not take it and asks reader', async () => {
    const session = await openV1Session();
    expect((await notesHere(session.token)).status).toBe(200);
    await redis.set(session.livenessKey, '999999', 'PX', 60_000);
    await proxy.cut();
    try {
      expect((await notesHere(session.token)).status).toBe(503);
    } finally {
      await proxy.restore();
    }
    await redis.del(session.livenessKey);
    await answeredOnceReaderIsBack(session.token);
  });
});
