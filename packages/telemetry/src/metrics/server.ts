// A tiny HTTP server for `GET /metrics` beside a gRPC service, which has no
// HTTP port of its own. Loopback or pod network only; it serves nothing else.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderMetrics } from './registry.js';

export const DEFAULT_METRICS_PORT = 9464;

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** `METRICS_PORT` from the environment, 9464 (the OTel Prometheus default) when unset. */
export function metricsPortFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env.METRICS_PORT;
  if (raw === undefined || raw === '') return DEFAULT_METRICS_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`METRICS_PORT must be a port number (0-65535), got "${raw}"`);
  }
  return port;
}

export async function startMetricsServer({ port = metricsPortFromEnv(), host = '0.0.0.0' } = {}): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('only GET /metrics is served here\n');
      return;
    }
    renderMetrics().then(
      ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(body),
      (error: Error) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics failed: ${error.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
