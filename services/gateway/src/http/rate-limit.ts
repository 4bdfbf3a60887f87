// Per-IP rate limits in Redis, shared by every gateway replica. The limits
// the spec promises (refresh, purchase redirect) fail closed when Redis is
// unreachable (503); the global per-IP limit is our own flood guard and
// fails open, so a Redis outage does not take the whole API down.
//
// A routed request makes ONE Redis round trip (`admit`): the global counter,
// the route's own counter and the keys the request needs read (session
// liveness, reader session liveness, the user's response version) together.
// The global limit is decided at once (before the body is parsed, as
// before); the route's limit and the keys are used later, in the pipeline's
// order.
// Requests that match no route (404s, the docs) count through `globalLimit`.
import type { RequestHandler } from 'express';
import { tooManyRequests, unavailable } from '@folio/errors';
import type { Logger } from '@folio/logger';
import { RateLimiter, type RateDecision, type RateHit, type RateRule } from '@folio/rate-limit';
import { stateOf } from './context.js';

export const RATE_RULES = {
  /** Spec: 429 after 10 refreshes per minute per IP. */
  refresh: { name: 'refresh-ip', limit: 10, windowSeconds: 60 },
  /** Spec: 429 after 60 purchase redirects per minute per IP. */
  purchase: { name: 'purchase-ip', limit: 60, windowSeconds: 60 },
  /** Ours: an annotation export reads every note of the user and looks up their stores and issues. */
  annotationExport: { name: 'annotation-export-ip', limit: 10, windowSeconds: 60 },
} as const satisfies Record<string, RateRule>;

/** What the one round trip of a routed request found out. */
export interface Admission {
  /** The route's own limit: a decision, `unavailable` when Redis failed, undefined for routes without one. */
  route: RateDecision | 'unavailable' | undefined;
  /** The session key's value: null when absent, undefined when not asked for or Redis failed. */
  session: string | null | undefined;
  /** The user's response version (http/response-cache.ts): null when absent, undefined when not asked for or Redis failed. */
  userVersion: string | null | undefined;
  /** The reader-token's session liveness key (http/reader-token.ts): null when absent, undefined when not asked for or Redis failed. */
  readerSession: string | null | undefined;
}

/** The keys a routed request reads in its round trip, each when it has one. */
export interface AdmissionReads {
  session?: string | undefined;
  userVersion?: string | undefined;
  readerSession?: string | undefined;
}

const READS = ['session', 'userVersion', 'readerSession'] as const;

export class RateLimits {
  private lastWarning = 0;
  private readonly globalRule: RateRule;

  constructor(
    private readonly limiter: RateLimiter,
    private readonly logger: Logger,
    globalPerMinute: number,
  ) {
    this.globalRule = { name: 'global-ip', limit: globalPerMinute, windowSeconds: 60 };
  }

  /** Throws 429 (with Retry-After) when the key is over the rule's limit. */
  async enforce(rule: RateRule, key: string, { failOpen = false } = {}): Promise<void> {
    let decision;
    try {
      decision = await this.limiter.hit(rule, key);
    } catch (error) {
      this.warnUnavailable(error, rule.name);
      if (failOpen) return;
      throw unavailable('Service temporarily unavailable.', 5);
    }
    refuseIfOver(decision);
  }

  /**
   * The routed request's round trip: counts the global and the route's
   * limit for `ip` and reads the `reads` keys. Throws 429 when the global
   * limit refuses (it fails open); the rest is for `enforceRoute`, auth, the
   * reader-token and the response cache.
   */
  async admit(ip: string, route: RateRule | undefined, reads: AdmissionReads = {}): Promise<Admission> {
    const hits: RateHit[] = [{ rule: this.globalRule, key: ip }];
    if (route) hits.push({ rule: route, key: ip });
    const asked = READS.filter((name) => reads[name] !== undefined);
    const admission: Admission = { route: undefined, session: undefined, userVersion: undefined, readerSession: undefined };
    let result;
    try {
      result = await this.limiter.hitAndRead(hits, ...asked.map((name) => reads[name]!));
    } catch (error) {
      this.warnUnavailable(error, route?.name ?? this.globalRule.name);
      return { ...admission, route: route ? 'unavailable' : undefined };
    }
    refuseIfOver(result.decisions[0]!);
    admission.route = result.decisions[1];
    asked.forEach((name, index) => (admission[name] = result.values[index] ?? null));
    return admission;
  }

  /** The route's own limit, decided from the admission: 429 when over, 503 when Redis could not count (fail closed). */
  enforceRoute(admission: Admission): void {
    if (admission.route === 'unavailable') throw unavailable('Service temporarily unavailable.', 5);
    if (admission.route) refuseIfOver(admission.route);
  }

  /** The global per-IP limit as middleware, for requests no route admitted. */
  globalLimit(): RequestHandler {
    return async (_req, res, next) => {
      const state = stateOf(res);
      if (!state.admitted) await this.enforce(this.globalRule, state.clientIp, { failOpen: true });
      next();
    };
  }

  private warnUnavailable(error: unknown, rule: string): void {
    if (Date.now() - this.lastWarning <= 10_000) return;
    this.lastWarning = Date.now();
    this.logger.error({ err: error, rule }, 'rate limiter unavailable');
  }
}

function refuseIfOver(decision: RateDecision): void {
  if (!decision.allowed) throw tooManyRequests('Too many requests.', decision.retryAfterSeconds);
}
