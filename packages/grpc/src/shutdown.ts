import type { Logger } from '@folio/logger';

/**
 * Runs the given steps in order on SIGTERM/SIGINT (stop taking work first,
 * close connections last), then exits. A second signal exits at once.
 */
export function onShutdown(logger: Logger, steps: (() => Promise<unknown>)[]): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        logger.warn({ err: error }, 'shutdown step failed');
      }
    }
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/** Logs a fatal start-up error without a stack for config problems, and exits non-zero. */
export function exitOnStartupFailure(logger: Logger, error: unknown): never {
  if (error instanceof Error && error.name === 'ConfigError') logger.fatal(error.message);
  else logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
}
