// Wires the notes service: database, broker with the account.deleted
// consumer, and the gRPC server. Tests start it in-process on port 0 with a
// fresh database and their own exchange and queue names.
import { createLogger, type Logger } from '@folio/logger';
import { notes } from '@folio/proto';
import { startService } from '@folio/service';
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
  // Each connection closes on stop, newest first, or when start-up fails half-way.
  return startService('notes', logger, async (kit) => {
    const connection = await kit.mongo(config.MONGO_URL);
    const repository = await openCachedNoteRepository(connection, { ttlMs: config.NOTES_CACHE_TTL_MS, maxEntries: config.NOTES_CACHE_MAX_ENTRIES });

    const broker = await kit.broker(config.AMQP_URL);
    const invalidation = await subscribeNotesInvalidation({ broker, logger, notes: repository, exchange: config.EVENTS_EXCHANGE });
    kit.onStop(() => invalidation.stop());
    repository.announce = announceNotesChanged(broker, config.EVENTS_EXCHANGE, logger);

    // The AMQP entry point: account.deleted erases the user's notes (@folio/messaging decodes it).
    const eraser = new AccountEraser(repository, logger);
    await kit.eraser({ broker, connection, config, erase: ({ userId }) => eraser.erase(userId).then(() => {}) });

    const grpc = await kit.grpc(config, [
      { name: SERVICE_NAME, definition: notes.NotesServiceService, handlers: notesHandlers({ notes: new Notes(repository, logger) }) },
    ]);

    return { grpcPort: grpc.port, stop: kit.stop };
  });
}
