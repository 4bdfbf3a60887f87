// Entry point of the commerce service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { startCommerce } from './app.js';
import { loadCommerceConfig } from './config.js';

const logger = createLogger({ service: 'commerce', level: process.env.LOG_LEVEL ?? 'info' });

try {
  const config = loadCommerceConfig();
  const service = await startCommerce(config, logger);
  onShutdown(logger, [service.stop]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
