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

export function countCacheLookup(cache: string, hit: boolean): void {
  cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' });
}
