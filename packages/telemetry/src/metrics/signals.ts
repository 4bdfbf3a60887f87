// The series behind the alerts and the questions support asks: is a breaker
// open, are we rejecting callers, is the outbox draining, are consumers
// keeping up, what went to the dead-letter queue, do the caches help.
import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from './registry.js';

const registers = [metricsRegistry];

const breakerState = new Gauge({
  name: 'folio_breaker_state',
  help: 'Circuit breaker state per peer: 0 closed, 1 half-open, 2 open.',
  labelNames: ['breaker'],
  registers,
});

const breakerOpened = new Counter({
  name: 'folio_breaker_opened_total',
  help: 'Times a circuit breaker opened, per peer.',
  labelNames: ['breaker'],
  registers,
});

const rateLimitRejections = new Counter({
  name: 'folio_rate_limit_rejections_total',
  help: 'Requests rejected by a rate limit, by limiter.',
  labelNames: ['limiter'],
  registers,
});

const outboxPending = new Gauge({
  name: 'folio_outbox_pending',
  help: 'Outbox rows written but not yet published to the broker.',
  registers,
});

const outboxOldestAge = new Gauge({
  name: 'folio_outbox_oldest_age_seconds',
  help: 'Age of the oldest unpublished outbox row; 0 when the outbox is empty.',
  registers,
});

const consumerBacklog = new Gauge({
  name: 'folio_consumer_backlog_messages',
  help: 'Messages waiting in a consumer queue (the consumer lag), by queue.',
  labelNames: ['queue'],
  registers,
});

const deadLetterQueue = new Gauge({
  name: 'folio_dead_letter_queue_messages',
  help: "Messages waiting in a consumer's dead-letter queue for an operator, by consumer queue.",
  labelNames: ['queue'],
  registers,
});

const consumed = new Counter({
  name: 'folio_messages_consumed_total',
  help: 'Messages a consumer took off its queue, by queue and outcome (handled, duplicate, retried, dead_lettered, requeued).',
  labelNames: ['queue', 'outcome'],
  registers,
});

const redelivered = new Counter({
  name: 'folio_messages_redelivered_total',
  help: 'Messages the broker delivered again (the last delivery was not acknowledged), by queue.',
  labelNames: ['queue'],
  registers,
});

const deadLetters = new Counter({
  name: 'folio_dead_letters_total',
  help: 'Messages a consumer gave up on and dead-lettered, by queue.',
  labelNames: ['queue'],
  registers,
});

const cacheLookups = new Counter({
  name: 'folio_cache_lookups_total',
  help: 'Cache lookups by cache and result (hit or miss); the hit ratio is hit / all.',
  labelNames: ['cache', 'result'],
  registers,
});

export type BreakerState = 'closed' | 'half-open' | 'open';
const BREAKER_VALUES: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

export function recordBreakerState(breaker: string, state: BreakerState): void {
  breakerState.set({ breaker }, BREAKER_VALUES[state]);
}

/** One breaker opening; also sets its state to open. */
export function countBreakerOpened(breaker: string): void {
  breakerOpened.inc({ breaker });
  recordBreakerState(breaker, 'open');
}

/** A new breaker: closed, and its open counter at 0 so rates work from the first scrape. */
export function registerBreaker(breaker: string): void {
  breakerOpened.inc({ breaker }, 0);
  recordBreakerState(breaker, 'closed');
}

export function countRateLimitRejection(limiter: string): void {
  rateLimitRejections.inc({ limiter });
}

export function recordOutbox({ pending, oldestAgeSeconds }: { pending: number; oldestAgeSeconds: number }): void {
  outboxPending.set(pending);
  outboxOldestAge.set(oldestAgeSeconds);
}

export function recordConsumerBacklog(queue: string, messages: number): void {
  consumerBacklog.set({ queue }, messages);
}

export function countDeadLetter(queue: string): void {
  deadLetters.inc({ queue });
}

export function recordDeadLetterQueue(queue: string, messages: number): void {
  deadLetterQueue.set({ queue }, messages);
}

export type ConsumeOutcome = 'handled' | 'duplicate' | 'retried' | 'dead_lettered' | 'requeued';

export function countConsumed(queue: string, outcome: ConsumeOutcome): void {
  consumed.inc({ queue, outcome });
}

export function countRedelivered(queue: string): void {
  redelivered.inc({ queue });
}

/** A new consumer: its counters at 0, so `increase()` sees the first message and dashboards show the queue. */
export function registerConsumerQueue(queue: string): void {
  deadLetters.inc({ queue }, 0);
  redelivered.inc({ queue }, 0);
  consumed.inc({ queue, outcome: 'handled' }, 0);
}

/** A new cache: both results at 0, so its hit ratio is defined from the first lookup. */
export function registerCache(cache: string): void {
  cacheLookups.inc({ cache, result: 'hit' }, 0);
  cacheLookups.inc({ cache, result: 'miss' }, 0);
}

export function countCacheLookup(cache: string, hit: boolean): void {
  cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' });
}
