// Entry point of the catalog service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { startCatalog } from './app.js';
import { loadCatalogConfig } from './config.js';

const logger = createLogger({ service: 'catalog', level: process.env.LOG_LEVEL ?? 'info' });

try {
  const config = loadCatalogConfig();
  const service = await startCatalog(config, logger);
  onShutdown(logger, [service.stop]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
