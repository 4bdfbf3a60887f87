// Entry point of the notes service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { enableServiceMetrics, startMetricsServer } from '@folio/telemetry';
import { startNotes } from './app.js';
import { loadNotesConfig } from './config.js';

const logger = createLogger({ service: 'notes', level: process.env.LOG_LEVEL ?? 'info' });

try {
  const config = loadNotesConfig();
  const service = await startNotes(config, logger);
  enableServiceMetrics('notes');
  const metrics = await startMetricsServer(); // GET /metrics on METRICS_PORT (9464 when unset)
  onShutdown(logger, [service.stop, metrics.close]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
