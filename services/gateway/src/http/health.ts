// Liveness (/healthz: the process answers) and readiness (/readyz: this pod
// can serve). Readiness depends only on what the pod itself needs: its process
// and Redis (rate limits, session liveness). Upstream services are reported
// with /readyz?verbose but never make the gateway unready: a load balancer that
// takes every gateway pod out because one service is down would turn the
// outage of the notes routes into an outage of the whole API. A down upstream
// costs only its own routes (503 + Retry-After from its breaker).
// The rule is written down in docs/reliability.md.
import { Router } from 'express';
import type { Redis } from 'ioredis';
import { upstreamHealth, type Upstreams } from '../peers/index.js';

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

/** `?verbose`, `?verbose=1`, `?verbose=true`: anything but an explicit false. */
function wantsVerbose(query: Record<string, unknown>): boolean {
  if (!('verbose' in query)) return false;
  const value = String(query.verbose).toLowerCase();
  return value !== '0' && value !== 'false';
}

export function healthRouter(redis: Redis, upstreams: Upstreams, timeoutMs = 1_000): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    const verbose = wantsVerbose(req.query);
    // Upstreams are only probed when asked for: a readiness probe stays one Redis round trip.
    const [redisOk, services] = await Promise.all([redisReady(redis, timeoutMs), verbose ? upstreamHealth(upstreams, timeoutMs) : undefined]);
    const checks = { redis: redisOk };
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ok' : 'unavailable',
      checks,
      ...(services && { upstreams: services }),
    });
  });
  return router;
}
