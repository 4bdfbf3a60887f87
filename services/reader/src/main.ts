// Entry point of the reader service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startReader } from './app.js';
import { loadReaderConfig } from './config.js';

// Until the typed config is read (a bad one is reported at info), then at its LOG_LEVEL.
let logger = createLogger({ service: 'reader' });

try {
  const config = loadReaderConfig();
  logger = createLogger({ service: 'reader', level: config.LOG_LEVEL });
  const service = await startReader(config, logger);
  enableServiceMetrics('reader');
  const metrics = await startMetricsServer(); // GET /metrics on METRICS_PORT (9464 when unset)
  onShutdown(logger, [service.stop, metrics.close]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
