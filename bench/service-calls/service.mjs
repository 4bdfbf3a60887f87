// One service under measurement for run.mjs (which forks it): the real built
// catalog or reader, configured from the environment, alone in its process
// so that process.cpuUsage() is its own CPU and nobody else's.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const name = process.argv[2];
const serviceDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'services', name);
const requireFromService = createRequire(join(serviceDir, 'package.json'));
const { createLogger } = await import(pathToFileURL(requireFromService.resolve('@folio/logger')).href);
const app = await import(pathToFileURL(join(serviceDir, 'dist', 'app.js')).href);
const config = await import(pathToFileURL(join(serviceDir, 'dist', 'config.js')).href);

const logger = createLogger({ service: name, level: 'silent' });
const service = name === 'catalog' ? await app.startCatalog(config.loadCatalogConfig(), logger) : await app.startReader(config.loadReaderConfig(), logger);
// Catalog empties its caches as each event subscription binds: measure only after they all have.
while (service.invalidationsLive && !service.invalidationsLive()) await new Promise((resolve) => setTimeout(resolve, 20));
process.send?.({ type: 'started', grpcPort: service.grpcPort });

process.on('message', async (message) => {
  if (message === 'cpu') {
    process.send?.({ type: 'cpu', cpu: process.cpuUsage() });
  } else if (message === 'stop') {
    await service.stop();
    process.exit(0);
  }
});
