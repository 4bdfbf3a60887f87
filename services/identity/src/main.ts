// Entry point of the identity service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { startIdentity } from './app.js';
import { loadIdentityConfig } from './config.js';

const logger = createLogger({ service: 'identity', level: process.env.LOG_LEVEL ?? 'info' });

try {
  const config = loadIdentityConfig();
  const service = await startIdentity(config, { logger });
  onShutdown(logger, [service.stop]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
