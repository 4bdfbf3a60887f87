// Entry point of the catalog service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startCatalog } from './app.js';
import { loadCatalogConfig } from './config.js';

const logger = createLogger({ service: 'catalog', level: process.env.LOG_LEVEL ?? 'info' });

try {
  const config = loadCatalogConfig();
  const service = await startCatalog(config, logger);
  enableServiceMetrics('catalog');
  const metrics = await startMetricsServer(); // GET /metrics on METRICS_PORT (9464 when unset)
  onShutdown(logger, [service.stop, metrics.close]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
