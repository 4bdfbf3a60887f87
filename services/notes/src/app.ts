// The notes service: highlights and annotations, scoped to tenant, user and issue.
// Its gRPC contract is drafted; the use cases arrive with the reader and notes release.
import { startGrpcServer, unimplementedHandlers } from '@folio/grpc';
import { createLogger, type Logger } from '@folio/logger';
import { connectMongo } from '@folio/mongo';
import { notes } from '@folio/proto';
import type { NotesConfig } from './config.js';

export const SERVICE_NAME = 'svc.notes.v1.NotesService';

export async function startNotes(config: NotesConfig, logger: Logger = createLogger({ service: 'notes', level: config.LOG_LEVEL })) {
  const mongo = await connectMongo(config.MONGO_URL);
  const grpc = await startGrpcServer({
    logger,
    port: config.GRPC_PORT,
    services: [
      {
        name: SERVICE_NAME,
        definition: notes.NotesServiceService,
        handlers: unimplementedHandlers(notes.NotesServiceService, 'the reader and notes release'),
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
