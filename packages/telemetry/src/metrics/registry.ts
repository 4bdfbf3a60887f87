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

/** The exposition text and its content type, for any HTTP framework. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
