// Per-IP rate limits in Redis, shared by every gateway replica. The limits
// the spec promises (refresh, purchase redirect) fail closed when Redis is
// unreachable (503); the global per-IP limit is our own flood guard and
// fails open, so a Redis outage does not take the whole API down.
import type { RequestHandler } from 'express';
import { tooManyRequests, unavailable } from '@folio/errors';
import type { Logger } from '@folio/logger';
import { RateLimiter, type RateRule } from '@folio/rate-limit';
import { stateOf } from './context.js';

export const RATE_RULES = {
  /** Spec: 429 after 10 refreshes per minute per IP. */
  refresh: { name: 'refresh-ip', limit: 10, windowSeconds: 60 },
  /** Spec: 429 after 60 purchase redirects per minute per IP. */
  purchase: { name: 'purchase-ip', limit: 60, windowSeconds: 60 },
} as const satisfies Record<string, RateRule>;

export class RateLimits {
  private lastWarning = 0;

  constructor(
    private readonly limiter: RateLimiter,
    private readonly logger: Logger,
  ) {}

  /** Throws 429 (with Retry-After) when the key is over the rule's limit. */
  async enforce(rule: RateRule, key: string, { failOpen = false } = {}): Promise<void> {
    let decision;
    try {
      decision = await this.limiter.hit(rule, key);
    } catch (error) {
      if (Date.now() - this.lastWarning > 10_000) {
        this.lastWarning = Date.now();
        this.logger.error({ err: error, rule: rule.name }, 'rate limiter unavailable');
      }
      if (failOpen) return;
      throw unavailable('Service temporarily unavailable.', 5);
    }
    if (!decision.allowed) throw tooManyRequests('Too many requests.', decision.retryAfterSeconds);
  }

  /** The global per-IP limit as middleware. */
  globalLimit(perMinute: number): RequestHandler {
    const rule: RateRule = { name: 'global-ip', limit: perMinute, windowSeconds: 60 };
    return async (_req, res, next) => {
      await this.enforce(rule, stateOf(res).clientIp, { failOpen: true });
      next();
    };
  }
}
