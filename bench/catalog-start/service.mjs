// One catalog replica for the start-up benchmark (run.mjs forks it): the real
// startCatalog from the built service, configured from the environment, with
// an IPC channel so that the parent can ask for its memory after a GC.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const catalogDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'services', 'catalog');
const requireFromCatalog = createRequire(join(catalogDir, 'package.json'));
const { createLogger } = await import(pathToFileURL(requireFromCatalog.resolve('@folio/logger')).href);
const { startCatalog } = await import(pathToFileURL(join(catalogDir, 'dist', 'app.js')).href);
const { loadCatalogConfig } = await import(pathToFileURL(join(catalogDir, 'dist', 'config.js')).href);

const logger = createLogger({ service: 'catalog', level: process.env.LOG_LEVEL ?? 'info' });
const service = await startCatalog(loadCatalogConfig(), logger);
process.send?.({ type: 'started', grpcPort: service.grpcPort, startedFrom: service.startedFrom });

process.on('message', async (message) => {
  if (message === 'memory') {
    globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.send?.({ type: 'memory', rss, heapUsed });
  } else if (message === 'stop') {
    await service.stop();
    process.exit(0);
  }
});
