// Entry point of the commerce service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startCommerce } from './app.js';
import { loadCommerceConfig } from './config.js';

const logger = createLogger({ service: 'commerce', level: process.env.LOG_LEVEL ?? 'info' });

try {
  const config = loadCommerceConfig();
  const service = await startCommerce(config, logger);
  enableServiceMetrics('commerce');
  const metrics = await startMetricsServer(); // GET /metrics on METRICS_PORT (9464 when unset)
  onShutdown(logger, [service.stop, metrics.close]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
