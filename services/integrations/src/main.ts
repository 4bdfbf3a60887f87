// Entry point of the integrations service: config, start, graceful shutdown.
import { exitOnStartupFailure, onShutdown } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { startIntegrations } from './app.js';
import { loadIntegrationsConfig } from './config.js';

const logger = createLogger({ service: 'integrations', level: process.env.LOG_LEVEL ?? 'info' });

try {
  const config = loadIntegrationsConfig();
  const service = await startIntegrations(config, logger);
  onShutdown(logger, [service.stop]);
} catch (error) {
  exitOnStartupFailure(logger, error);
}
