// Every provider call goes through one opossum circuit breaker per provider:
// a call past its timeout is aborted (the child process killed, the request
// cancelled) and counts as a failure; enough failures open the breaker and
// further calls fail at once until a trial call succeeds. Failures reach the
// client as UNAVAILABLE with a Retry-After (503), never as INTERNAL. Domain
// errors a provider raises on purpose (a 422 for an unknown target language)
// pass through and do not count against the provider.
import { DomainError, unavailable } from '@folio/errors';
import type { Logger } from '@folio/logger';
import { countBreakerOpened, recordBreakerState, registerBreaker } from '@folio/telemetry';
import CircuitBreaker from 'opossum';

export interface BreakerSettings {
  timeoutMs: number;
  resetMs: number;
  errorPercent: number;
  volume: number;
  /** Calls running at once; the others wait (inside their timeout) for a slot. */
  concurrency?: number;
}

/** Seconds a client should wait after a single failure while the breaker is still closed. */
const RETRY_AFTER_SINGLE_FAILURE = 5;

type Action = (signal: AbortSignal) => Promise<unknown>;

class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async acquire(signal: AbortSignal): Promise<() => void> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        const ready = () => {
          signal.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          this.waiting.splice(this.waiting.indexOf(ready), 1);
          reject(signal.reason);
        };
        this.waiting.push(ready);
        signal.addEventListener('abort', abort, { once: true });
      });
    }
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.();
    };
  }
}

export class ProviderBreaker {
  private readonly breaker: CircuitBreaker<[Action, AbortSignal], unknown>;
  private readonly slots: Slots | undefined;

  constructor(
    readonly provider: string,
    private readonly settings: BreakerSettings,
    private readonly logger: Logger,
  ) {
    this.slots = settings.concurrency ? new Slots(settings.concurrency) : undefined;
    this.breaker = new CircuitBreaker(
      async (action: Action, signal: AbortSignal) => {
        const release = this.slots ? await this.slots.acquire(signal) : () => {};
        try {
          return await action(signal);
        } finally {
          release();
        }
      },
      {
        name: provider,
        timeout: settings.timeoutMs,
        resetTimeout: settings.resetMs,
        errorThresholdPercentage: settings.errorPercent,
        volumeThreshold: settings.volume,
        // A provider's deliberate refusal (bad input) says nothing about its health.
        errorFilter: (error: unknown) => error instanceof DomainError && error.code !== 'UNAVAILABLE',
      },
    );
    // folio_breaker_state{breaker} and folio_breaker_opened_total{breaker}, named by provider.
    registerBreaker(provider);
    this.breaker.on('open', () => {
      countBreakerOpened(provider);
      this.logger.warn({ provider }, 'provider breaker opened');
    });
    this.breaker.on('halfOpen', () => {
      recordBreakerState(provider, 'half-open');
      this.logger.info({ provider }, 'provider breaker half-open: trying one call');
    });
    this.breaker.on('close', () => {
      recordBreakerState(provider, 'closed');
      this.logger.info({ provider }, 'provider breaker closed');
    });
  }

  get opened(): boolean {
    return this.breaker.opened;
  }

  /** Runs `action` under the breaker; `action` must stop its work when `signal` aborts. */
  async run<T>(action: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`${this.provider} timed out after ${this.settings.timeoutMs} ms`)), this.settings.timeoutMs);
    try {
      return (await this.breaker.fire(action, controller.signal)) as T;
    } catch (error) {
      throw this.toDomainError(error);
    } finally {
      clearTimeout(timer);
      // opossum's own timeout rejected first: stop the work it left running.
      if (!controller.signal.aborted) controller.abort(new Error('finished'));
    }
  }

  private toDomainError(error: unknown): DomainError {
    if (error instanceof DomainError && error.code !== 'UNAVAILABLE') return error;
    const code = (error as { code?: unknown } | null)?.code;
    const retryAfter = this.breaker.opened ? Math.max(1, Math.ceil(this.settings.resetMs / 1000)) : RETRY_AFTER_SINGLE_FAILURE;
    if (code === 'EOPENBREAKER') {
      return unavailable(`The ${this.provider} provider is temporarily unavailable.`, retryAfter);
    }
    this.logger.warn({ provider: this.provider, err: error }, code === 'ETIMEDOUT' ? 'provider call timed out' : 'provider call failed');
    return unavailable(`The ${this.provider} provider did not answer in time or failed.`, retryAfter);
  }

  shutdown(): void {
    this.breaker.shutdown();
  }
}
