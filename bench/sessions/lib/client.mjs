// The load's HTTP client and what it records. One keep-alive pool for every
// user, as an ingress keeps its connections to the gateway; each user sends
// from its own client address (X-Forwarded-For), as a phone would, so the
// per-IP limits apply per user as they do in production.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export function createClient(gateway, { maxSockets }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const base = new URL(gateway);
  const recorder = createRecorder();

  /**
   * One request of a user, recorded under `name` (an endpoint template) when
   * it starts and ends inside the measured window. Resolves to
   * { status, body } and never rejects: a failure is recorded and answered
   * as status 0, so one user's error does not stop its session.
   */
  function send(name, expected, { method = 'GET', path, headers = {}, body }) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = performance.now();
    return new Promise((resolve) => {
      const finish = (status, text) => {
        recorder.record(name, expected, status, started, performance.now());
        let json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status, body: json });
      };
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          method,
          path,
          agent,
          headers: {
            accept: 'application/json',
            ...(payload !== undefined && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
            ...headers,
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('end', () => finish(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
          res.on('error', () => finish(0, ''));
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => finish(0, ''));
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  return { send, recorder, close: () => agent.destroy() };
}

/** Per endpoint: latencies, statuses and failures of the requests inside the window. */
function createRecorder() {
  const endpoints = new Map();
  let window = { from: Infinity, to: Infinity };
  return {
    /** Times in performance.now() milliseconds. */
    setWindow(from, to) {
      window = { from, to };
    },
    record(name, expected, status, started, ended) {
      if (started < window.from || ended > window.to) return;
      let entry = endpoints.get(name);
      if (!entry) endpoints.set(name, (entry = { name, expected, latencies: [], statuses: {}, failed: 0 }));
      entry.latencies.push(ended - started);
      entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
      if (status !== expected) entry.failed += 1;
    },
    endpoints: () => [...endpoints.values()],
  };
}

export function percentile(sorted, p) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
