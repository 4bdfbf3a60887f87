// Entry point of the reader service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startReader } from './app.js';
import { loadReaderConfig } from './config.js';

const logger = createLogger({ service: 'reader', level: process.env.LOG_LEVEL ?? 'info' });

try {
  const config = loadReaderConfig();
  const service = await startReader(config, logger);
  enableServiceMetrics('reader');
  const metrics = await startMetricsServer(); // GET /metrics on METRICS_PORT (9464 when unset)
  onShutdown(logger, [service.stop, metrics.close]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
