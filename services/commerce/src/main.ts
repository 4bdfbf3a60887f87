// Entry point of the commerce service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startCommerce } from './app.js';
import { loadCommerceConfig } from './config.js';

// Until the typed config is read (a bad one is reported at info), then at its LOG_LEVEL.
let logger = createLogger({ service: 'commerce' });

try {
  const config = loadCommerceConfig();
  logger = createLogger({ service: 'commerce', level: config.LOG_LEVEL });
  const service = await startCommerce(config, logger);
  enableServiceMetrics('commerce');
  const metrics = await startMetricsServer(); // GET /metrics on METRICS_PORT (9464 when unset)
  onShutdown(logger, [service.stop, metrics.close]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
