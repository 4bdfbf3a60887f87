// Liveness (/healthz: the process answers) and readiness (/readyz: Redis
// answers and every upstream reports SERVING on grpc.health.v1).
import { Router } from 'express';
import type { Redis } from 'ioredis';
import { upstreamHealth, type Upstreams } from '../upstreams/index.js';

async function redisReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const pong = await Promise.race([
      redis.ping(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('redis ping timed out')), timeoutMs);
      }),
    ]);
    return pong === 'PONG';
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function healthRouter(redis: Redis, upstreams: Upstreams, timeoutMs = 1_000): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const [redisOk, services] = await Promise.all([redisReady(redis, timeoutMs), upstreamHealth(upstreams, timeoutMs)]);
    const checks = { redis: redisOk, ...services };
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable', checks });
  });
  return router;
}
