// The gateway's response-cache hit rate per endpoint, from outside: a cached
// answer makes no upstream call, so for each cacheable read the services'
// own count of the one RPC its handler makes (grpc_server_handled_total on
// each service's /metrics, ports of ./dev) over the window, against the
// answers the load got, gives the share answered from the cache. The gateway
// itself exports no hit counter for this cache.

/** ./dev's metrics ports (dev, METRICS_PORTS). */
const METRICS_PORTS = { identity: 9465, catalog: 9466, commerce: 9467, reader: 9468, notes: 9469 };

/**
 * The RPC behind each cacheable read of the session load. Other callers of
 * the same RPC in this load: commerce asks identity's GetUser for a purchase
 * redirect's user (at most one call per redirect), which can only lower the
 * /user figure.
 */
export const CACHED_READS = {
  'GET /api/v2/user': ['identity', 'GetUser'],
  'GET /api/v2/library': ['catalog', 'ListLibrarySections'],
  'GET /api/v2/user/continue-reading': ['catalog', 'ListContinueReading'],
  'GET /api/v2/search/store?query={word}': ['catalog', 'SearchStore'],
  'GET /api/v2/reader/settings/1003': ['reader', 'GetReaderSettings'],
  'GET /api/v2/reader/notes': ['notes', 'ListNotes'],
};

/** { 'service/Method': calls } for every service that answers its metrics port. */
export async function rpcCounts() {
  const counts = {};
  await Promise.all(
    Object.entries(METRICS_PORTS).map(async ([service, port]) => {
      let text;
      try {
        const response = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5_000) });
        if (!response.ok) return;
        text = await response.text();
      } catch {
        return;
      }
      for (const line of text.split('\n')) {
        if (!line.startsWith('grpc_server_handled_total{')) continue;
        const method = line.match(/grpc_method="([^"]+)"/)?.[1];
        const value = Number(line.slice(line.lastIndexOf(' ') + 1));
        if (!method || !Number.isFinite(value)) continue;
        const key = `${service}/${method}`;
        counts[key] = (counts[key] ?? 0) + value;
      }
    }),
  );
  return counts;
}

/** Share of `answers` of `endpoint` that made no upstream call; undefined for a read the gateway does not cache. */
export function hitRate(endpoint, answers, before, after) {
  const rpc = CACHED_READS[endpoint];
  if (!rpc || answers === 0) return undefined;
  const key = rpc.join('/');
  if (after[key] === undefined) return undefined;
  const calls = after[key] - (before[key] ?? 0);
  return Math.min(1, Math.max(0, 1 - calls / answers));
}
