// Entry point of the catalog service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startCatalog } from './app.js';
import { loadCatalogConfig } from './config.js';

// Until the typed config is read (a bad one is reported at info), then at its LOG_LEVEL.
let logger = createLogger({ service: 'catalog' });

try {
  const config = loadCatalogConfig();
  logger = createLogger({ service: 'catalog', level: config.LOG_LEVEL });
  const service = await startCatalog(config, logger);
  enableServiceMetrics('catalog');
  const metrics = await startMetricsServer(); // GET /metrics on METRICS_PORT (9464 when unset)
  onShutdown(logger, [service.stop, metrics.close]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
