// Traces and metrics across every hop, with the real services in this process:
// the gateway in front of identity, catalog and commerce (catalog's component
// harness: each with a fresh database, real RabbitMQ, Redis and MailDev), one
// OpenTelemetry SDK exporting into memory, and one Prometheus registry served
// by a metrics server on port 0.
//
// The instrumentations must patch @grpc/grpc-js, mongodb and the rest before
// anything imports them, as `--import @folio/telemetry/register` does for a
// service: so this file imports the services only after installing the loader
// hook and starting the SDK (dynamic imports in beforeAll; static imports here
// are vitest and types only).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetricsServer } from '@folio/telemetry';
import type { startInMemoryTracing } from '@folio/telemetry/tracing';
import type { Gateway } from '../src/app.js';
import type { HttpClient, Tokens } from './support.js';

type ReadableSpan = Awaited<ReturnType<ReturnType<typeof startInMemoryTracing>['spans']>>[number];

/**
 * catalog's component harness (identity + commerce + catalog), by a path
 * TypeScript does not follow: it lives outside this package's sources.
 */
const CATALOG_HARNESS = fileURLToPath(new URL('../../catalog/test/support/harness.ts', import.meta.url));
interface TestCatalog {
  service: { grpcPort: number };
  commerce: { address: string };
  identity: { address: string; config: { QUEUE_PREFIX: string } };
  stop(): Promise<void>;
}
interface CatalogHarness {
  startTestCatalog(options: { env?: Record<string, string> }): Promise<TestCatalog>;
}

/** The instrumented libraries, each from a package that depends on it (mongoose brings mongodb). */
const INSTRUMENTED = [
  ['packages/grpc', '@grpc/grpc-js'],
  ['services/gateway', 'express'],
  ['services/gateway', 'ioredis'],
  ['packages/messaging', 'amqplib'],
  ['packages/mongo', 'mongoose'],
] as const;

/** Each test waits for work done after its response (the relay, the consumer, the e-mail). */
const SLOW = 45_000;

// SpanKind values of the OTel API, without importing it before the hook.
const SERVER = 1;
const CLIENT = 2;
const PRODUCER = 3;
const CONSUMER = 4;

let tracing: { spans(): Promise<ReadableSpan[]>; shutdown(): Promise<void> };
let t: TestCatalog;
let gateway: Gateway;
let http: HttpClient;
let metrics: MetricsServer;
let tokens: Tokens;
let fromIp: (n: number) => Record<string, string>;

beforeAll(async () => {
  const { registerInstrumentationHook, startInMemoryTracing } = await import('@folio/telemetry/tracing');
  registerInstrumentationHook();
  tracing = startInMemoryTracing('folio-in-process');
  // vitest imports dependencies by their resolved file path, which the loader
  // hook's list of package names does not match; so load each instrumented
  // library once with `require`, which the SDK patches, before any service
  // imports it (an ESM import of a CommonJS module then gets the patched one).
  for (const [owner, library] of INSTRUMENTED) createRequire(fileURLToPath(new URL(`../../../${owner}/package.json`, import.meta.url)))(library);
  const telemetry = await import('@folio/telemetry');
  telemetry.enableServiceMetrics('folio-in-process');
  metrics = await telemetry.startMetricsServer({ port: 0, host: '127.0.0.1' });

  const { startTestCatalog } = (await import(/* @vite-ignore */ CATALOG_HARNESS)) as CatalogHarness;
  const support = await import('./support.js');
  const { startGateway } = await import('../src/app.js');
  const { uniqueEmail } = await import('@folio/testing');
  fromIp = support.fromIp;

  // The access cache on, so its lookups are counted as a real deployment's are.
  t = await startTestCatalog({ env: { ACCESS_CACHE_TTL_MS: '60000' } });
  gateway = await startGateway(
    support.gatewayConfig(t.identity.address, {
      CATALOG_ADDR: `127.0.0.1:${t.service.grpcPort}`,
      COMMERCE_ADDR: t.commerce.address,
    }),
  );
  http = support.httpClient(gateway.url);
  tokens = await support.loginThroughGateway(http, uniqueEmail('gw_obs'), fromIp(91));
});

afterAll(async () => {
  await gateway?.stop();
  await t?.stop();
  await metrics?.close();
  await tracing?.shutdown();
});

const traceIdOf = (span: ReadableSpan) => span.spanContext().traceId;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** The spans of the trace whose gateway server span matches, once `complete` says all have ended. */
async function traceOf(serverSpan: (span: ReadableSpan) => boolean, complete: (spans: ReadableSpan[]) => boolean): Promise<ReadableSpan[]> {
  let last: ReadableSpan[] = [];
  let all: ReadableSpan[] = [];
  for (let attempt = 0; attempt < 400; attempt += 1) {
    all = await tracing.spans();
    const root = all.find((span) => span.kind === SERVER && serverSpan(span));
    if (root) {
      last = all.filter((span) => traceIdOf(span) === traceIdOf(root));
      // Parents end after their children (a consumer's span at the ack): wait until the tree is whole.
      if (complete(last) && rootsOf(last).length === 1) return last;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const names = (spans: ReadableSpan[]) => spans.map((span) => `${span.name} (${span.kind})`).join(', ');
  throw new Error(last.length ? `trace incomplete: ${names(last)}` : `no such server span among ${all.length}: ${names(all.slice(-60))}`);
}

/** The spans whose parent is not in the trace. */
function rootsOf(spans: ReadableSpan[]): ReadableSpan[] {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  return spans.filter((span) => !parentOf(span) || !ids.has(parentOf(span)!));
}

/** Every span but one (the caller's) has its parent in the trace: one tree, not fragments. */
function expectOneTree(spans: ReadableSpan[]): void {
  expect(
    rootsOf(spans).map((span) => `${span.name} (${span.kind})`),
    `one root among ${spans.map((span) => span.name).join(', ')}`,
  ).toHaveLength(1);
}

function isDescendant(span: ReadableSpan, ancestor: ReadableSpan, spans: ReadableSpan[]): boolean {
  const byId = new Map(spans.map((candidate) => [candidate.spanContext().spanId, candidate]));
  let current: ReadableSpan | undefined = span;
  while (current) {
    if (parentOf(current) === ancestor.spanContext().spanId) return true;
    current = parentOf(current) ? byId.get(parentOf(current)!) : undefined;
  }
  return false;
}

const grpcServer = (method: string) => (span: ReadableSpan) => span.kind === SERVER && span.name.endsWith(`/${method}`);
// The older and the current semantic conventions name the database system differently.
const isMongo = (span: ReadableSpan) => span.kind === CLIENT && (span.attributes['db.system'] ?? span.attributes['db.system.name']) === 'mongodb';

describe('one trace per request, across every hop', () => {
  it(
    'when a user opens GET /api/v2/library, then gateway, catalog, commerce and their stores are one connected trace',
    async () => {
      const response = await http.get('/api/v2/library', { token: tokens.access_token, headers: { ...fromIp(92), 'x-svc-tenant-id': '1' } });
      expect(response.status).toBe(200);

      const spans = await traceOf(
        (span) => span.name === 'GET /api/v2/library',
        (all) => all.some(grpcServer('ListAccessibleIssues')) && all.some(isMongo),
      );
      expectOneTree(spans);
      const gatewaySpan = spans.find((span) => span.kind === SERVER && span.name === 'GET /api/v2/library')!;
      const catalogSpan = spans.find(grpcServer('ListLibrarySections'));
      const commerceSpans = spans.filter(grpcServer('ListAccessibleIssues'));
      expect(catalogSpan, `catalog's ListLibrarySections in ${spans.map((s) => s.name).join(', ')}`).toBeDefined();
      expect(isDescendant(catalogSpan!, gatewaySpan, spans)).toBe(true);
      // Through the test's counting pass-through to the real commerce: both are in the trace, under catalog.
      expect(commerceSpans.length).toBeGreaterThanOrEqual(1);
      for (const span of commerceSpans) expect(isDescendant(span, catalogSpan!, spans)).toBe(true);
      // commerce reads its store inside the call.
      const realCommerce = commerceSpans.find((server) => spans.some((span) => isMongo(span) && isDescendant(span, server, spans)));
      expect(realCommerce, 'a MongoDB query under commerce').toBeDefined();
    },
    SLOW,
  );

  it(
    'when a user sends a help request, then one trace goes from the HTTP request through the outbox and RabbitMQ to the e-mail',
    async () => {
      const response = await http.post('/api/v2/help', {
        token: tokens.access_token,
        headers: fromIp(93),
        body: { subject: 'missing-issues', message: 'My March issue is missing from the shelf.' },
      });
      expect(response.status).toBe(201);

      const spans = await traceOf(
        (span) => span.name === 'POST /api/v2/help',
        (all) => all.some((span) => span.name === 'smtp send'),
      );
      expectOneTree(spans);
      const request = spans.find((span) => span.kind === SERVER && span.name === 'POST /api/v2/help')!;
      const submit = spans.find(grpcServer('SubmitHelpRequest'));
      const publish = spans.find((span) => span.name === 'outbox publish help.requested');
      const produce = spans.find((span) => span.kind === PRODUCER);
      const consume = spans.find((span) => span.kind === CONSUMER);
      const smtp = spans.find((span) => span.name === 'smtp send')!;
      expect(submit && isDescendant(submit, request, spans), 'identity SubmitHelpRequest under the request').toBe(true);
      expect(publish && isDescendant(publish, submit!, spans), 'the relay publishes under SubmitHelpRequest').toBe(true);
      expect(produce && isDescendant(produce, publish!, spans), 'the AMQP publish under the relay').toBe(true);
      expect(consume && isDescendant(consume, produce!, spans), 'the consumer under the publish').toBe(true);
      expect(isDescendant(smtp, consume!, spans), 'the e-mail sent inside the consumer').toBe(true);
      expect(smtp.kind).toBe(CLIENT);
      expect(smtp.attributes['server.port']).toBeTypeOf('number');
    },
    SLOW,
  );
});

/** The value of the sample named `name` whose labels include `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('/metrics after requests', () => {
  it(
    'when requests went through, then /metrics exposes RED, breaker, rate-limit, outbox, consumer, dead-letter, cache and runtime series',
    async () => {
      const helpQueue = `${t.identity.config.QUEUE_PREFIX}.help-router`;
      expect((await http.get('/api/v2/library', { token: tokens.access_token, headers: { ...fromIp(95), 'x-svc-tenant-id': '1' } })).status).toBe(200);
      const help = await http.post('/api/v2/help', {
        token: tokens.access_token,
        headers: fromIp(95),
        body: { subject: 'other', message: 'Counting what the consumers did.' },
      });
      expect(help.status).toBe(201);
      // Over the refresh limit (10 a minute per IP): the 11th is refused.
      const refreshes = [];
      for (let i = 0; i < 11; i += 1) refreshes.push(await http.post('/api/v2/auth/refresh', { headers: fromIp(94), body: { refresh_token: 'not-a-token' } }));
      expect(refreshes.at(-1)!.status).toBe(429);

      const scrape = async () => {
        const response = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
        expect(response.status).toBe(200);
        return response.text();
      };
      // The help request is consumed after its answer: wait until the consumer has counted it.
      let text = await scrape();
      for (let attempt = 0; attempt < 400 && !(sample(text, 'folio_messages_consumed_total', { queue: helpQueue, outcome: 'handled' })! >= 1); attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        text = await scrape();
      }
      const expectations: [string, Record<string, string>, (value: number) => boolean][] = [
        ['http_server_requests_total', { method: 'GET', route: '/api/v2/library', status: '200' }, (v) => v >= 1],
        ['http_server_request_duration_seconds_count', { method: 'GET', route: '/api/v2/library', status: '200' }, (v) => v >= 1],
        ['grpc_server_handled_total', { grpc_method: 'ListLibrarySections', grpc_code: 'OK' }, (v) => v >= 1],
        ['folio_breaker_state', { breaker: 'catalog' }, (v) => v === 0],
        ['folio_breaker_opened_total', { breaker: 'catalog' }, (v) => v === 0],
        ['folio_rate_limit_rejections_total', { limiter: 'refresh-ip' }, (v) => v >= 1],
        ['folio_outbox_pending', {}, (v) => v >= 0],
        ['folio_outbox_oldest_age_seconds', {}, (v) => v >= 0],
        ['folio_consumer_backlog_messages', { queue: helpQueue }, (v) => v >= 0],
        ['folio_dead_letter_queue_messages', { queue: helpQueue }, (v) => v === 0],
        ['folio_dead_letters_total', { queue: helpQueue }, (v) => v === 0],
        ['folio_messages_consumed_total', { queue: helpQueue, outcome: 'handled' }, (v) => v >= 1],
        ['folio_messages_redelivered_total', { queue: helpQueue }, (v) => v >= 0],
        ['folio_cache_lookups_total', { cache: 'catalog-accessible', result: 'miss' }, (v) => v >= 1],
        ['folio_cache_lookups_total', { cache: 'catalog-accessible', result: 'hit' }, (v) => v >= 0],
        ['nodejs_eventloop_lag_seconds', {}, (v) => v >= 0],
        ['nodejs_heap_size_used_bytes', {}, (v) => v > 0],
      ];
      for (const [name, labels, ok] of expectations) {
        const value = sample(text, name, { service: 'folio-in-process', ...labels });
        expect(value !== undefined && ok(value), `${name} ${JSON.stringify(labels)} = ${value}`).toBe(true);
      }
    },
    SLOW,
  );
});
