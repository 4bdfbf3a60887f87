// Wires the notes service: database, broker with the account.deleted
// consumer, and the gRPC server. Tests start it in-process on port 0 with a
// fresh database and their own exchange and queue names.
import { startGrpcServer, Teardown } from '@folio/grpc';
import { createLogger, type Logger } from '@folio/logger';
import { Broker, startAccountEraser } from '@folio/messaging';
import { connectMongo } from '@folio/mongo';
import { notes } from '@folio/proto';
import type { NotesConfig } from './config.js';
import { openCachedNoteRepository } from './data/index.js';
import { AccountEraser } from './domain/account-erasure.js';
import { Notes } from './domain/notes.js';
import { announceNotesChanged, subscribeNotesInvalidation } from './events/cache-invalidation.js';
import { notesHandlers } from './grpc/handlers.js';

export const SERVICE_NAME = 'svc.notes.v1.NotesService';

export interface RunningNotes {
  grpcPort: number;
  /** Stops taking calls and messages, lets running ones finish, closes every connection. */
  stop(): Promise<void>;
}

export async function startNotes(config: NotesConfig, logger: Logger = createLogger({ service: 'notes', level: config.LOG_LEVEL })): Promise<RunningNotes> {
  // Undone in reverse order on stop, or when start-up fails half-way.
  const teardown = new Teardown(logger, 'notes');
  const stopAll = teardown.run;

  try {
    const connection = await connectMongo(config.MONGO_URL);
    teardown.add(() => connection.close());
    const repository = await openCachedNoteRepository(connection, { ttlMs: config.NOTES_CACHE_TTL_MS, maxEntries: config.NOTES_CACHE_MAX_ENTRIES });

    const broker = await Broker.connect(config.AMQP_URL, { logger, lazy: true, name: 'notes' });
    teardown.add(() => broker.close());
    const invalidation = await subscribeNotesInvalidation({ broker, logger, notes: repository, exchange: config.EVENTS_EXCHANGE });
    teardown.add(() => invalidation.stop());
    repository.announce = announceNotesChanged(broker, config.EVENTS_EXCHANGE, logger);

    // The AMQP entry point: account.deleted erases the user's notes (@folio/messaging decodes it).
    const eraser = new AccountEraser(repository, logger);
    teardown.add((await startAccountEraser({ broker, connection, logger, config, erase: ({ userId }) => eraser.erase(userId).then(() => {}) })).stop);

    const grpc = await startGrpcServer({
      logger,
      port: config.GRPC_PORT,
      unixSocket: config.GRPC_UNIX_SOCKET,
      services: [{ name: SERVICE_NAME, definition: notes.NotesServiceService, handlers: notesHandlers({ notes: new Notes(repository, logger) }) }],
    });
    teardown.add(() => grpc.shutdown(config.SHUTDOWN_TIMEOUT_MS));

    return { grpcPort: grpc.port, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
