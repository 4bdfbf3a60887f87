// Entry point of the notes service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { startNotes } from './app.js';
import { loadNotesConfig } from './config.js';

const logger = createLogger({ service: 'notes', level: process.env.LOG_LEVEL ?? 'info' });

try {
  const config = loadNotesConfig();
  const service = await startNotes(config, logger);
  onShutdown(logger, [service.stop]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
