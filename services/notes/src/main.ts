// Entry point of the notes service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startNotes } from './app.js';
import { loadNotesConfig } from './config.js';

// Until the typed config is read (a bad one is reported at info), then at its LOG_LEVEL.
let logger = createLogger({ service: 'notes' });

try {
  const config = loadNotesConfig();
  logger = createLogger({ service: 'notes', level: config.LOG_LEVEL });
  const service = await startNotes(config, logger);
  enableServiceMetrics('notes');
  const metrics = await startMetricsServer(); // GET /metrics on METRICS_PORT (9464 when unset)
  onShutdown(logger, [service.stop, metrics.close]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
