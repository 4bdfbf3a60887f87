// After a request, GET /metrics shows its RED series (route template, not the
// raw path), the gRPC series, the operational signals and the Node runtime.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countCacheLookup,
  countDeadLetter,
  countRateLimitRejection,
  enableServiceMetrics,
  httpMetricsMiddleware,
  metricsEndpoint,
  metricsPortFromEnv,
  observeGrpcCall,
  onScrape,
  countBreakerOpened,
  registerBreaker,
  registerCache,
  registerConsumerQueue,
  recordBreakerState,
  recordConsumerBacklog,
  recordOutbox,
  startMetricsServer,
  type MetricsServer,
} from '../src/index.js';

let appUrl: string;
let closeApp: () => Promise<void>;
let metricsServer: MetricsServer;

beforeAll(async () => {
  enableServiceMetrics('books');
  const app = express();
  app.use(httpMetricsMiddleware());
  app.get('/metrics', metricsEndpoint());
  app.get('/books/:id', (req, res) => {
    if (req.params.id === 'missing') res.status(404).json({ error: 'not found' });
    else res.json({ id: req.params.id });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeApp = () => new Promise((resolve) => server.close(() => resolve()));
  metricsServer = await startMetricsServer({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await closeApp?.();
  await metricsServer?.close();
});

/** The value of the sample named `name` whose labels include `labels`, whatever their order. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2]!.matchAll(/([a-z_]+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

async function scrape(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

describe('HTTP RED metrics', () => {
  it('when routes are requested, then /metrics counts them by route template, method and status, with latency', async () => {
    await fetch(`${appUrl}/books/1`);
    await fetch(`${appUrl}/books/2`);
    await fetch(`${appUrl}/books/missing`);
    await fetch(`${appUrl}/no/such/page`);

    const text = await scrape(`${appUrl}/metrics`);
    expect(sample(text, 'http_server_requests_total', { method: 'GET', route: '/books/:id', status: '200', service: 'books' })).toBe(2);
    expect(sample(text, 'http_server_requests_total', { method: 'GET', route: '/books/:id', status: '404', service: 'books' })).toBe(1);
    expect(sample(text, 'http_server_requests_total', { method: 'GET', route: 'unmatched', status: '404', service: 'books' })).toBe(1);
    expect(sample(text, 'http_server_request_duration_seconds_count', { method: 'GET', route: '/books/:id', status: '200', service: 'books' })).toBe(2);
    expect(text).not.toContain('route="/books/1"');
  });
});

describe('the metrics server of a gRPC service', () => {
  it('when calls and signals were recorded, then GET /metrics on its own port exposes them with the runtime metrics', async () => {
    observeGrpcCall('/svc.books.v1.BookService/GetBook')(0);
    observeGrpcCall('/svc.books.v1.BookService/GetBook')(5);
    recordBreakerState('commerce', 'open');
    countRateLimitRejection('login');
    recordOutbox({ pending: 3, oldestAgeSeconds: 42 });
    recordConsumerBacklog('notifications.help', 7);
    countDeadLetter('notifications.help');
    countCacheLookup('entitlements', true);
    countCacheLookup('entitlements', false);

    const text = await scrape(`http://127.0.0.1:${metricsServer.port}/metrics`);
    for (const series of [
      ['grpc_server_handled_total', { grpc_service: 'svc.books.v1.BookService', grpc_method: 'GetBook', grpc_code: 'OK', service: 'books' }, 1],
      ['grpc_server_handled_total', { grpc_service: 'svc.books.v1.BookService', grpc_method: 'GetBook', grpc_code: 'NOT_FOUND', service: 'books' }, 1],
      [
        'grpc_server_handling_seconds_bucket',
        { le: '+Inf', grpc_service: 'svc.books.v1.BookService', grpc_method: 'GetBook', grpc_code: 'OK', service: 'books' },
        1,
      ],
      ['folio_breaker_state', { breaker: 'commerce', service: 'books' }, 2],
      ['folio_rate_limit_rejections_total', { limiter: 'login', service: 'books' }, 1],
      ['folio_outbox_pending', { service: 'books' }, 3],
      ['folio_outbox_oldest_age_seconds', { service: 'books' }, 42],
      ['folio_consumer_backlog_messages', { queue: 'notifications.help', service: 'books' }, 7],
      ['folio_dead_letters_total', { queue: 'notifications.help', service: 'books' }, 1],
      ['folio_cache_lookups_total', { cache: 'entitlements', result: 'hit', service: 'books' }, 1],
      ['folio_cache_lookups_total', { cache: 'entitlements', result: 'miss', service: 'books' }, 1],
    ] as const) {
      expect(sample(text, series[0], series[1]), `${series[0]} ${JSON.stringify(series[1])}`).toBe(series[2]);
    }
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds\{service="books"\} /m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes\{service="books"\} /m);
  });

  it('when a breaker, a consumer queue and a cache are created, then their series exist at 0 before anything happens', async () => {
    registerBreaker('notes');
    registerConsumerQueue('notes.account-eraser');
    registerCache('offers');
    const text = await scrape(`http://127.0.0.1:${metricsServer.port}/metrics`);
    expect(sample(text, 'folio_breaker_state', { breaker: 'notes' })).toBe(0);
    expect(sample(text, 'folio_breaker_opened_total', { breaker: 'notes' })).toBe(0);
    expect(sample(text, 'folio_dead_letters_total', { queue: 'notes.account-eraser' })).toBe(0);
    expect(sample(text, 'folio_messages_redelivered_total', { queue: 'notes.account-eraser' })).toBe(0);
    expect(sample(text, 'folio_cache_lookups_total', { cache: 'offers', result: 'miss' })).toBe(0);

    countBreakerOpened('notes');
    const opened = await scrape(`http://127.0.0.1:${metricsServer.port}/metrics`);
    expect(sample(opened, 'folio_breaker_state', { breaker: 'notes' })).toBe(2);
    expect(sample(opened, 'folio_breaker_opened_total', { breaker: 'notes' })).toBe(1);
  });

  it('when a scrape hook reads a gauge, then the scrape shows the fresh value; a failing or hanging hook never fails the scrape', async () => {
    let pending = 5;
    const stop = onScrape(async () => recordOutbox({ pending, oldestAgeSeconds: 1 }));
    const failing = onScrape(async () => {
      throw new Error('database down');
    });
    expect(sample(await scrape(`http://127.0.0.1:${metricsServer.port}/metrics`), 'folio_outbox_pending', { service: 'books' })).toBe(5);
    pending = 6;
    expect(sample(await scrape(`http://127.0.0.1:${metricsServer.port}/metrics`), 'folio_outbox_pending', { service: 'books' })).toBe(6);
    stop();
    failing();
    pending = 7;
    expect(sample(await scrape(`http://127.0.0.1:${metricsServer.port}/metrics`), 'folio_outbox_pending', { service: 'books' })).toBe(6);
  });

  it('when anything but GET /metrics is asked, then it answers 404', async () => {
    expect((await fetch(`http://127.0.0.1:${metricsServer.port}/`)).status).toBe(404);
  });

  it('when METRICS_PORT is not a port, then the error names it', () => {
    expect(metricsPortFromEnv({})).toBe(9464);
    expect(metricsPortFromEnv({ METRICS_PORT: '60051' })).toBe(60051);
    expect(() => metricsPortFromEnv({ METRICS_PORT: 'eighty' })).toThrow(/METRICS_PORT/);
  });
});
