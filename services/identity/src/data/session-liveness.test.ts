import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@folio/logger';
import { RedisSessionLiveness } from './session-liveness.js';

// A Redis that takes connections and commands and never answers: one that is
// stuck, or restarting behind a proxy. A caller that waited for its writes
// would wait for the client's command timeout (here a minute: longer than the test may run).
let hung: Server;
let dir: string;
let socketPath: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hung-redis-'));
  socketPath = join(dir, 'redis.sock');
  hung = createServer((socket) => socket.on('data', () => {}));
  await new Promise<void>((resolve) => hung.listen(socketPath, resolve));
});

afterAll(async () => {
  await new Promise((resolve) => hung.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('RedisSessionLiveness', () => {
  it('when Redis does not answer, then CheckSession’s and login’s best-effort writes do not hold them up, and a tombstone still waits', async () => {
    const redis = new Redis(socketPath, { maxRetriesPerRequest: 1, commandTimeout: 60_000, enableReadyCheck: false });
    redis.on('error', () => {});
    const liveness = new RedisSessionLiveness(redis, createLogger({ service: 'identity-test', level: 'silent' }));
    const session = { jti: 'j-1', userId: 7, email: 'a@example.com', admin: false, tokenExpiresAt: new Date(Date.now() + 60_000) };
    try {
      await liveness.confirmed(session);
      await liveness.started(session);
      // A tombstone is not best effort: logout waits for it (and fails if Redis refuses it).
      const tombstone = liveness.ended([{ jti: 'j-1', tokenExpiresAt: session.tokenExpiresAt }]).then(
        () => 'settled',
        () => 'settled',
      );
      expect(await Promise.race([tombstone, new Promise((resolve) => setTimeout(resolve, 300, 'waiting'))])).toBe('waiting');
    } finally {
      redis.disconnect();
    }
  });
});
