// Entry point of the integrations service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startIntegrations } from './app.js';
import { loadIntegrationsConfig } from './config.js';

const logger = createLogger({ service: 'integrations', level: process.env.LOG_LEVEL ?? 'info' });

try {
  const config = loadIntegrationsConfig();
  const service = await startIntegrations(config, logger);
  enableServiceMetrics('integrations');
  const metrics = await startMetricsServer(); // GET /metrics on METRICS_PORT (9464 when unset)
  onShutdown(logger, [service.stop, metrics.close]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
