import type { Logger } from '@folio/logger';
import { shutdownTelemetry } from '@folio/telemetry';

/**
 * Runs the given steps in order on SIGTERM/SIGINT (stop taking work first,
 * close connections last), exports the last spans (when tracing), then exits.
 * A second signal exits at once.
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
    // Last: the spans of the drain itself are exported too (at most 5 s).
    await shutdownTelemetry();
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

/**
 * What a service must undo on stop, in reverse order of acquisition (stop
 * taking calls first, close connections last), also when start-up fails half
 * way. A failing step is logged and the others still run.
 */
export class Teardown {
  private readonly steps: (() => unknown)[] = [];

  constructor(
    private readonly logger: Logger,
    private readonly service: string,
  ) {}

  add(step: () => unknown): void {
    this.steps.push(step);
  }

  /** Runs every step once, newest first; later calls do nothing. */
  readonly run = async (): Promise<void> => {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        this.logger.warn({ err: error }, `${this.service} shutdown step failed`);
      }
    }
  };
}
