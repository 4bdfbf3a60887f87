// Circuit breakers on the upstream calls, on two levels (peers/index.ts):
// - one per service counts the failures that mean the process cannot be
//   reached (UNAVAILABLE: connection refused, no connection), so a service
//   that is down is failed fast on every method (503 + Retry-After) instead
//   of holding requests for a deadline each;
// - one per method counts the calls that ran out of time (DEADLINE_EXCEEDED),
//   so one slow method (a listing that outgrew its deadline) is failed fast
//   alone, while the service's other methods keep answering.
// Answers that prove the service is alive (a refused login, a missing object)
// never count as failures on either level.
import CircuitBreaker from 'opossum';
import { DomainError, unavailable, type ErrorCode } from '@folio/errors';
import type { Logger } from '@folio/logger';
import { countBreakerOpened, recordBreakerState, registerBreaker } from '@folio/telemetry';

export interface BreakerSettings {
  /** Which failures count against this breaker (default: every one but the client-side codes). */
  countsAsFailure?: (error: unknown) => boolean;
  /** Backstop above the gRPC deadline (false: none, for a breaker around one that has it). */
  timeoutMs: number | false;
  /** How long an open breaker fails fast before letting one call through. */
  resetMs: number;
  volumeThreshold: number;
  errorThresholdPercentage: number;
}

/** Codes a healthy service answers with: the caller's fault or a domain refusal, not an outage. */
const CLIENT_SIDE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'INVALID_ARGUMENT',
  'NOT_FOUND',
  'PERMISSION_DENIED',
  'UNAUTHENTICATED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'ALREADY_EXISTS',
  'RESOURCE_EXHAUSTED',
  // A drafted contract answering "not yet" is up and well.
  'UNIMPLEMENTED',
]);

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError || (error instanceof Error && error.name === 'DomainError' && 'code' in error);
}

export function countsAsFailure(error: unknown): boolean {
  return !(isDomainError(error) && CLIENT_SIDE.has(error.code));
}

/**
 * Errors a breaker made itself (its refusal while open, its backstop
 * timeout): a breaker around it must not count them as the service being
 * unreachable.
 */
const MADE_BY_A_BREAKER = new WeakMap<object, 'open' | 'timeout'>();

/** Deadlines that ran out while the channel had no connection (peers/index.ts marks them). */
const WITHOUT_CONNECTION = new WeakSet<object>();

/** Marks a failure as one of a call that never had a connection to wait on: the service level counts it. */
export function markUnreachable(error: unknown): void {
  if (error && typeof error === 'object') WITHOUT_CONNECTION.add(error);
}

/** The service level: the process could not be reached (or failed in a way no answer explains). */
export function isUnreachable(error: unknown): boolean {
  if (error && typeof error === 'object' && WITHOUT_CONNECTION.has(error)) return true;
  if (isDomainError(error)) return error.code === 'UNAVAILABLE' && !MADE_BY_A_BREAKER.has(error);
  return countsAsFailure(error);
}

/** The method level: the call ran out of time (the gRPC deadline or the breaker's backstop). */
export function isTooSlow(error: unknown): boolean {
  if (!isDomainError(error)) return false;
  if (WITHOUT_CONNECTION.has(error)) return false;
  return error.code === 'DEADLINE_EXCEEDED' || MADE_BY_A_BREAKER.get(error) === 'timeout';
}

/** What the breaker tells the call it lets through. */
export interface Attempt {
  /**
   * This call is the half-open breaker's one trial. It should wait for the
   * channel to be ready (up to its deadline): the channel of a service that has
   * just come back is often still in reconnect backoff, and a trial that fails
   * at once with "No connection established" would open the breaker again for
   * another reset period although the service is up.
   */
  trial: boolean;
}

type Thunk = () => Promise<unknown>;

export class Breaker {
  private readonly breaker: CircuitBreaker<[Thunk], unknown>;
  private openedAt = 0;

  constructor(
    readonly name: string,
    private readonly settings: BreakerSettings,
    logger?: Logger,
  ) {
    this.breaker = new CircuitBreaker((thunk: Thunk) => thunk(), {
      name,
      timeout: settings.timeoutMs,
      resetTimeout: settings.resetMs,
      volumeThreshold: settings.volumeThreshold,
      errorThresholdPercentage: settings.errorThresholdPercentage,
      rollingCountTimeout: 10_000,
      rollingCountBuckets: 10,
      // Nothing reads opossum's latency percentiles or its per-second stats
      // snapshots. With them on (its default), each breaker keeps the latency of
      // every call in the window (5,000 at 500 calls a second) and concatenates
      // and sorts them all once a second, and again on every failure: work that
      // grows with the load, and is heaviest during an outage.
      rollingPercentilesEnabled: false,
      enableSnapshots: false,
      // Filtered errors still reject; they just do not count against the service.
      errorFilter: (error: unknown) => !(settings.countsAsFailure ?? countsAsFailure)(error),
    });
    // folio_breaker_state{breaker} and folio_breaker_opened_total{breaker}.
    registerBreaker(name);
    this.breaker.on('open', () => {
      this.openedAt = Date.now();
      countBreakerOpened(name);
      logger?.warn({ upstream: name }, 'circuit breaker opened');
    });
    this.breaker.on('halfOpen', () => {
      recordBreakerState(name, 'half-open');
      logger?.info({ upstream: name }, 'circuit breaker half-open');
    });
    this.breaker.on('close', () => {
      recordBreakerState(name, 'closed');
      logger?.info({ upstream: name }, 'circuit breaker closed');
    });
  }

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.breaker.halfOpen) return 'half-open';
    return this.breaker.opened ? 'open' : 'closed';
  }

  /** Runs a call; breaker refusals and timeouts come out as UNAVAILABLE domain errors. */
  async run<T>(call: (attempt: Attempt) => Promise<T>): Promise<T> {
    // Half-open lets exactly one call through (the others are refused at once),
    // so marking every call made while half-open marks that one trial.
    const attempt: Attempt = { trial: this.breaker.halfOpen };
    try {
      return (await this.breaker.fire(() => call(attempt))) as T;
    } catch (error) {
      throw this.translate(error);
    }
  }

  private translate(error: unknown): unknown {
    if (isDomainError(error)) {
      if ((error.code === 'UNAVAILABLE' || error.code === 'DEADLINE_EXCEEDED') && error.details.retryAfterSeconds === undefined) {
        const withRetry = new DomainError(error.code, error.message, { ...error.details, retryAfterSeconds: this.retryAfterSeconds() });
        // Keep the client-side stack: it names the RPC and the transport's reason.
        withRetry.stack = error.stack;
        if (WITHOUT_CONNECTION.has(error)) WITHOUT_CONNECTION.add(withRetry);
        return withRetry;
      }
      return error;
    }
    const code = (error as { code?: string } | undefined)?.code;
    if (code === 'EOPENBREAKER') return this.ownError('open');
    if (code === 'ETIMEDOUT') return this.ownError('timeout');
    return error;
  }

  private ownError(reason: 'open' | 'timeout'): DomainError {
    const error = unavailable('Service temporarily unavailable.', this.retryAfterSeconds());
    MADE_BY_A_BREAKER.set(error, reason);
    return error;
  }

  /** While open: until the breaker lets a probe through; otherwise a short pause. */
  private retryAfterSeconds(): number {
    if (this.breaker.opened) {
      const left = this.openedAt + this.settings.resetMs - Date.now();
      return Math.max(1, Math.ceil(left / 1000));
    }
    return Math.max(1, Math.min(5, Math.ceil(this.settings.resetMs / 1000)));
  }

  shutdown(): void {
    this.breaker.shutdown();
  }
}
