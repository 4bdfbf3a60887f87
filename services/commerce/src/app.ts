// The commerce service: prices and discounts, access grants, subscriptions, carts, checkout and the purchase redirect.
// Its gRPC contract is drafted; the use cases arrive with the catalog and storefront release.
import { startGrpcServer, unimplementedHandlers } from '@folio/grpc';
import { createLogger, type Logger } from '@folio/logger';
import { connectMongo } from '@folio/mongo';
import { commerce } from '@folio/proto';
import type { CommerceConfig } from './config.js';

export const SERVICE_NAME = 'svc.commerce.v1.CommerceService';

export async function startCommerce(config: CommerceConfig, logger: Logger = createLogger({ service: 'commerce', level: config.LOG_LEVEL })) {
  const mongo = await connectMongo(config.MONGO_URL);
  const grpc = await startGrpcServer({
    logger,
    port: config.GRPC_PORT,
    services: [
      {
        name: SERVICE_NAME,
        definition: commerce.CommerceServiceService,
        handlers: unimplementedHandlers(commerce.CommerceServiceService, 'the catalog and storefront release'),
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
