// The integrations service: translate, listen, dictionary and AI actions, each behind a provider interface.
// Its gRPC contract is drafted; the use cases arrive with the reader integrations release.
import { startGrpcServer, unimplementedHandlers } from '@folio/grpc';
import { createLogger, type Logger } from '@folio/logger';
import { connectMongo } from '@folio/mongo';
import { integrations } from '@folio/proto';
import type { IntegrationsConfig } from './config.js';

export const SERVICE_NAME = 'svc.integrations.v1.IntegrationsService';

export async function startIntegrations(config: IntegrationsConfig, logger: Logger = createLogger({ service: 'integrations', level: config.LOG_LEVEL })) {
  const mongo = await connectMongo(config.MONGO_URL);
  const grpc = await startGrpcServer({
    logger,
    port: config.GRPC_PORT,
    services: [
      {
        name: SERVICE_NAME,
        definition: integrations.IntegrationsServiceService,
        handlers: unimplementedHandlers(integrations.IntegrationsServiceService, 'the reader integrations release'),
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
