// Entry point of the integrations service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startIntegrations } from './app.js';
import { loadIntegrationsConfig } from './config.js';

// Until the typed config is read (a bad one is reported at info), then at its LOG_LEVEL.
let logger = createLogger({ service: 'integrations' });

try {
  const config = loadIntegrationsConfig();
  logger = createLogger({ service: 'integrations', level: config.LOG_LEVEL });
  const service = await startIntegrations(config, logger);
  enableServiceMetrics('integrations');
  const metrics = await startMetricsServer(); // GET /metrics on METRICS_PORT (9464 when unset)
  onShutdown(logger, [service.stop, metrics.close]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
