// Entry point of the identity service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startIdentity } from './app.js';
import { loadIdentityConfig } from './config.js';

// Until the typed config is read (a bad one is reported at info), then at its LOG_LEVEL.
let logger = createLogger({ service: 'identity' });

try {
  const config = loadIdentityConfig();
  logger = createLogger({ service: 'identity', level: config.LOG_LEVEL });
  const service = await startIdentity(config, { logger });
  enableServiceMetrics('identity');
  const metrics = await startMetricsServer(); // GET /metrics on METRICS_PORT (9464 when unset)
  onShutdown(logger, [service.stop, metrics.close]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
