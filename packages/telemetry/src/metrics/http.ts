// RED metrics per HTTP route: requests by method, route template and status,
// and a latency histogram. The label is the route template (`/api/v2/books/:id`),
// never the raw path, so the number of series stays bounded.
import { context } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import { Counter, Histogram } from 'prom-client';
import { metricsRegistry, renderMetrics } from './registry.js';

const LABELS = ['method', 'route', 'status'] as const;

const requests = new Counter({
  name: 'http_server_requests_total',
  help: 'HTTP requests served, by method, route template and status code.',
  labelNames: LABELS,
  registers: [metricsRegistry],
});

const duration = new Histogram({
  name: 'http_server_request_duration_seconds',
  help: 'Time from receiving an HTTP request to finishing its response.',
  labelNames: LABELS,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

/** The parts of an express request and response the middleware reads. */
interface RequestLike {
  method: string;
  baseUrl?: string;
  route?: { path?: unknown };
}
interface ResponseLike {
  statusCode: number;
  once(event: 'finish' | 'close', listener: () => void): unknown;
}

/** Requests no route matched share one label instead of one series per probed URL. */
export const UNMATCHED_ROUTE = 'unmatched';

export function routeTemplate(req: RequestLike): string {
  const path = req.route?.path;
  if (typeof path !== 'string') return UNMATCHED_ROUTE;
  return `${req.baseUrl ?? ''}${path}` || '/';
}

/**
 * For a router other than express's own (the gateway dispatches its route
 * table itself): records the route template a request matched where express's
 * router would, so that the metrics above label it and the HTTP server span is
 * named `POST /api/v2/reader/:issue_id/sessions` and carries `http.route`, as
 * the express instrumentation does for express routes. Without tracing the
 * span part is a no-op.
 */
export function recordMatchedRoute(req: RequestLike, template: string): void {
  req.route = { path: template };
  const rpc = getRPCMetadata(context.active());
  if (rpc?.type === RPCType.HTTP) rpc.route = template;
}

/** Express middleware; mount it first so it times the whole pipeline. */
export function httpMetricsMiddleware() {
  return (req: RequestLike, res: ResponseLike, next: () => void): void => {
    const stop = duration.startTimer();
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      const labels = { method: req.method, route: routeTemplate(req), status: String(res.statusCode) };
      requests.inc(labels);
      stop(labels);
    };
    // 'close' covers clients that hang up before the response finished.
    res.once('finish', record);
    res.once('close', record);
    next();
  };
}

/** Express handler for `GET /metrics`. */
export function metricsEndpoint() {
  return async (_req: unknown, res: { setHeader(name: string, value: string): unknown; end(body: string): unknown }) => {
    const { contentType, body } = await renderMetrics();
    res.setHeader('Content-Type', contentType);
    res.end(body);
  };
}
