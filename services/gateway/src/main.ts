// Entry point of the gateway: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startGateway } from './app.js';
import { loadGatewayConfig } from './config.js';

// Until the typed config is read (a bad one is reported at info); then at its LOG_LEVEL.
const bootLogger = createLogger({ service: 'gateway' });

try {
  const config = loadGatewayConfig();
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  const gateway = await startGateway(config, { logger });
  enableServiceMetrics('gateway');
  const metrics = await startMetricsServer(); // GET /metrics on METRICS_PORT (9464 when unset)
  onShutdown(logger, [gateway.stop, metrics.close]);
} catch (error) {
  exitOnStartupFailure(bootLogger, error);
}
