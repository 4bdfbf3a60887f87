// The catalog service: issues and their metadata, collections, favorites and the store and global search index.
// Its gRPC contract is drafted; the use cases arrive with the catalog and storefront release.
import { startGrpcServer, unimplementedHandlers } from '@folio/grpc';
import { createLogger, type Logger } from '@folio/logger';
import { connectMongo } from '@folio/mongo';
import { catalog } from '@folio/proto';
import type { CatalogConfig } from './config.js';

export const SERVICE_NAME = 'svc.catalog.v1.CatalogService';

export async function startCatalog(config: CatalogConfig, logger: Logger = createLogger({ service: 'catalog', level: config.LOG_LEVEL })) {
  const mongo = await connectMongo(config.MONGO_URL);
  const grpc = await startGrpcServer({
    logger,
    port: config.GRPC_PORT,
    services: [
      {
        name: SERVICE_NAME,
        definition: catalog.CatalogServiceService,
        handlers: unimplementedHandlers(catalog.CatalogServiceService, 'the catalog and storefront release'),
      },
    ],
  });
  return {
    grpcPort: grpc.port,
    async stop() {
      await grpc.shutdown(config.SHUTDOWN_TIMEOUT_MS);
      await mongo.close();
    },
  };
}
