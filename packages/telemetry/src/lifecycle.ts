// The end of a process: whatever tracing started (the register entry, a test)
// leaves its flush-and-stop here, so a service's shutdown can export its last
// spans without loading the SDK itself (this module imports nothing).
// A global slot, because the light entry and the SDK entry may be loaded as
// separate module instances (an ESM loader hook, a bundler).
const SLOT = Symbol.for('folio.telemetry.shutdown');
type Slot = { [SLOT]?: () => Promise<void> };

export function setTelemetryShutdown(shutdown: (() => Promise<void>) | undefined): void {
  (globalThis as Slot)[SLOT] = shutdown;
}

/**
 * Exports the spans still buffered and stops tracing; nothing when tracing is
 * off. Call it last in a graceful stop (`onShutdown` in @folio/grpc does).
 * Waits at most `timeoutMs`: an unreachable collector must not hold the exit.
 */
export async function shutdownTelemetry(timeoutMs = 5_000): Promise<void> {
  const shutdown = (globalThis as Slot)[SLOT];
  if (!shutdown) return;
  setTelemetryShutdown(undefined);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    shutdown().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}
