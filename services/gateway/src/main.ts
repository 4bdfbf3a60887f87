// Entry point of the gateway: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startGateway } from './app.js';
import { loadGatewayConfig } from './config.js';

// Until the config is read, only LOG_LEVEL can say how loud to be.
const bootLogger = createLogger({ service: 'gateway', level: process.env.LOG_LEVEL ?? 'info' });

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
