// The reader service: content manifests and files, reader sessions and reader-tokens, settings, positions, downloads and in-issue search.
// Its gRPC contract is drafted; the use cases arrive with the reader and notes release.
import { startGrpcServer, unimplementedHandlers } from '@folio/grpc';
import { createLogger, type Logger } from '@folio/logger';
import { connectMongo } from '@folio/mongo';
import { reader } from '@folio/proto';
import type { ReaderConfig } from './config.js';

export const SERVICE_NAME = 'svc.reader.v1.ReaderService';

export async function startReader(config: ReaderConfig, logger: Logger = createLogger({ service: 'reader', level: config.LOG_LEVEL })) {
  const mongo = await connectMongo(config.MONGO_URL);
  const grpc = await startGrpcServer({
    logger,
    port: config.GRPC_PORT,
    services: [
      {
        name: SERVICE_NAME,
        definition: reader.ReaderServiceService,
        handlers: unimplementedHandlers(reader.ReaderServiceService, 'the reader and notes release'),
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
