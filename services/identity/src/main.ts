// Entry point of the identity service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startIdentity } from './app.js';
import { loadIdentityConfig } from './config.js';

const logger = createLogger({ service: 'identity', level: process.env.LOG_LEVEL ?? 'info' });

try {
  const config = loadIdentityConfig();
  const service = await startIdentity(config, { logger });
  enableServiceMetrics('identity');
  const metrics = await startMetricsServer(); // GET /metrics on METRICS_PORT (9464 when unset)
  onShutdown(logger, [service.stop, metrics.close]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
