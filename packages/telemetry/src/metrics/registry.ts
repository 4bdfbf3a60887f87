// The one Prometheus registry of the process. Every series carries a `service`
// label so a dashboard or an alert can group by service without relabelling.
import { collectDefaultMetrics, Registry } from 'prom-client';

export const metricsRegistry = new Registry();

let runtimeCollected = false;

/**
 * Names the service on every series and starts the Node runtime metrics
 * (event-loop lag, heap, GC, handles). Call once from main; later calls only rename.
 */
export function enableServiceMetrics(service: string): void {
  metricsRegistry.setDefaultLabels({ service });
  if (runtimeCollected) return;
  runtimeCollected = true;
  collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 20 });
}

/** How long one scrape hook may take before the scrape goes on without it. */
const SCRAPE_HOOK_TIMEOUT_MS = 2_000;

const scrapeHooks = new Set<() => Promise<void>>();

/**
 * Runs `refresh` before every scrape, for gauges that are read from elsewhere
 * (outbox depth in the database, queue depths in the broker) only when someone
 * looks, instead of polling. A hook that fails or is slow leaves its gauges as
 * they were and never fails the scrape. Returns the unregister function.
 */
export function onScrape(refresh: () => Promise<void>): () => void {
  scrapeHooks.add(refresh);
  return () => scrapeHooks.delete(refresh);
}

async function runScrapeHooks(): Promise<void> {
  await Promise.allSettled(
    [...scrapeHooks].map((hook) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, SCRAPE_HOOK_TIMEOUT_MS);
        timer.unref();
      });
      return Promise.race([hook().catch(() => {}), timeout]).finally(() => clearTimeout(timer));
    }),
  );
}

/** The exposition text and its content type, for any HTTP framework. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  await runScrapeHooks();
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
