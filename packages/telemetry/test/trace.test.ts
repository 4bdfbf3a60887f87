// Tracing as the services run it: a miniature service (fixtures/book-chain.mjs,
// http -> express -> gRPC client -> gRPC server -> MongoDB) started with
// `node --import @folio/telemetry/register`, exporting OTLP/JSON to a receiver
// in this test, must make ONE connected trace rooted at the caller's W3C
// traceparent. A child process because the loader hook must be in place before
// the libraries load, which vitest's own module loading does not allow. The
// carrier helpers are checked in this process with an in-memory exporter.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freshMongoUrl } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@folio/logger';
import { currentTraceCarrier, inSpan, inTraceOf, SpanKind, traceLogFields } from '../src/index.js';
import { startInMemoryTracing } from '../src/tracing-entry.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/book-chain.mjs', import.meta.url));

/** The fields of an OTLP/JSON span this test reads (ids are hex in OTLP/JSON). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}
const SERVER = 2;
const CLIENT = 3;

const received: OtlpSpan[] = [];
let receiver: Server;
let receiverUrl: string;
let chain: ChildProcess | undefined;
let chainUrl: string;

/** Our environment without any OTEL_* a developer's shell or `./dev obs` set. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('OTEL_')));
  return { ...env, ...extra };
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as {
        resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
      };
      for (const resource of body.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) received.push(...(scope.spans ?? []));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  chain = spawn(process.execPath, ['--import', '@folio/telemetry/register', FIXTURE], {
    cwd: PACKAGE_DIR,
    env: cleanEnv({
      MONGO_URL: freshMongoUrl('telemetry').url,
      OTEL_SERVICE_NAME: 'book-chain',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    chain!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    chain!.once('exit', (code) => reject(new Error(`book-chain exited (${code}) before listening: ${out}`)));
  });
  chainUrl = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  if (chain && chain.exitCode === null) {
    const exited = new Promise((resolve) => chain!.once('exit', resolve));
    chain.kill('SIGTERM');
    await exited;
  }
  await new Promise((resolve) => receiver?.close(resolve));
});

function hex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

describe('one request across every hop, started with --import @folio/telemetry/register', () => {
  it('when a caller sends a traceparent, then every span of the request is in its trace and linked to a parent', async () => {
    const traceId = hex(16);
    const callerSpanId = hex(8);

    const response = await fetch(`${chainUrl}/books/b1`, { headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } });
    expect(await response.json()).toEqual({ title: 'Middlemarch' });

    const spans = await spansOf(traceId, (all) => all.some((span) => span.kind === CLIENT && span.name.startsWith('find')));
    const ids = new Set(spans.map((span) => span.spanId));
    for (const span of spans) {
      const parent = span.parentSpanId;
      expect(parent === callerSpanId || (parent !== undefined && ids.has(parent)), `${span.name} has a parent in the trace`).toBe(true);
    }
    const httpServer = only(spans, (span) => span.kind === SERVER && span.name.startsWith('GET'));
    const grpcClient = only(spans, (span) => span.kind === CLIENT && span.name.includes('GetBook'));
    const grpcServer = only(spans, (span) => span.kind === SERVER && span.name.includes('GetBook'));
    const query = only(spans, (span) => span.kind === CLIENT && span.name.startsWith('find'));
    expect(httpServer.name).toBe('GET /books/:id');
    expect(httpServer.parentSpanId).toBe(callerSpanId);
    expect(isDescendant(grpcClient, httpServer, spans)).toBe(true);
    expect(grpcServer.parentSpanId).toBe(grpcClient.spanId);
    expect(isDescendant(query, grpcServer, spans)).toBe(true);
  });

  it('when no OTLP endpoint is configured, then the register entry starts nothing', async () => {
    const probe = "import('@opentelemetry/api').then((api) => console.log(api.trace.getTracerProvider().getDelegate().constructor.name))";
    const run = (env: Record<string, string>) =>
      promisify(execFile)(process.execPath, ['--import', '@folio/telemetry/register', '--input-type=module', '-e', probe], {
        cwd: PACKAGE_DIR,
        env: cleanEnv(env),
      });
    expect((await run({})).stdout.trim()).toBe('NoopTracerProvider');
    expect((await run({ OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, OTEL_SDK_DISABLED: 'true' })).stdout.trim()).toBe('NoopTracerProvider');
  });
});

describe('trace context in a plain object', () => {
  let tracing: ReturnType<typeof startInMemoryTracing>;
  beforeAll(() => {
    tracing = startInMemoryTracing('telemetry-test');
  });
  afterAll(() => tracing.shutdown());

  it('when a carrier is taken inside a span, then work started from it later continues that trace under that span', async () => {
    const { carrier, origin } = await inTraceOf(undefined, 'write outbox row', async (span) => ({
      carrier: currentTraceCarrier(),
      origin: span.spanContext(),
    }));
    expect(carrier.traceparent).toBe(`00-${origin.traceId}-${origin.spanId}-01`);

    // As the outbox relay would: a stored row, read back after the request ended.
    const stored = JSON.parse(JSON.stringify({ trace: carrier })) as { trace: Record<string, unknown> };
    const fields = await inTraceOf(stored.trace, 'publish help.requested', async () => traceLogFields());

    const publish = only(await tracing.spans(), (span) => span.name === 'publish help.requested');
    expect(publish.spanContext().traceId).toBe(origin.traceId);
    expect(publish.parentSpanContext?.spanId).toBe(origin.spanId);
    expect(fields).toEqual({ trace_id: origin.traceId, span_id: publish.spanContext().spanId });
  });

  it('when a log line is written inside a span, then it carries the trace_id and span_id (and none outside)', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogger({ service: 'test', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
    const ids = await inTraceOf(undefined, 'handle request', async (span) => {
      log.info('inside');
      return span.spanContext();
    });
    log.info('outside');
    expect(lines[0]).toMatchObject({ msg: 'inside', trace_id: ids.traceId, span_id: ids.spanId });
    expect(lines[1]).not.toHaveProperty('trace_id');
  });

  it('when work runs in inSpan inside a trace, then it is a child span with its kind and attributes; outside a trace, no span', async () => {
    const parent = await inTraceOf(undefined, 'consume help.requested', async (span) => {
      await inSpan('smtp send', async () => {}, { kind: SpanKind.CLIENT, attributes: { 'server.port': 1025 } });
      return span.spanContext();
    });
    await inSpan('untraced send', async () => {});
    const spans = await tracing.spans();
    const send = only(spans, (span) => span.name === 'smtp send');
    expect(send.parentSpanContext?.spanId).toBe(parent.spanId);
    expect(send.kind).toBe(SpanKind.CLIENT);
    expect(send.attributes['server.port']).toBe(1025);
    expect(spans.some((span) => span.name === 'untraced send')).toBe(false);
  });

  it('when nothing is traced, then the carrier is empty and log fields are none', () => {
    expect(currentTraceCarrier()).toEqual({});
    expect(traceLogFields()).toEqual({});
  });
});

/** Spans are exported in batches after the response; wait until the trace holds what the test needs. */
async function spansOf(traceId: string, complete: (spans: OtlpSpan[]) => boolean): Promise<OtlpSpan[]> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const spans = received.filter((span) => span.traceId === traceId);
    if (complete(spans)) return spans;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`trace ${traceId} incomplete: ${received.map((span) => span.name).join(', ')}`);
}

function only<T extends { name: string }>(spans: T[], match: (span: T) => boolean): T {
  const found = spans.filter(match);
  expect(
    found.map((span) => span.name),
    'exactly one matching span',
  ).toHaveLength(1);
  return found[0]!;
}

function isDescendant(span: OtlpSpan, ancestor: OtlpSpan, spans: OtlpSpan[]): boolean {
  const byId = new Map(spans.map((candidate) => [candidate.spanId, candidate]));
  let current: OtlpSpan | undefined = span;
  while (current) {
    if (current.parentSpanId === ancestor.spanId) return true;
    current = current.parentSpanId ? byId.get(current.parentSpanId) : undefined;
  }
  return false;
}
