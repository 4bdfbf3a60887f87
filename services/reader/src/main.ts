// Entry point of the reader service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { startReader } from './app.js';
import { loadReaderConfig } from './config.js';

const logger = createLogger({ service: 'reader', level: process.env.LOG_LEVEL ?? 'info' });

try {
  const config = loadReaderConfig();
  const service = await startReader(config, logger);
  onShutdown(logger, [service.stop]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
