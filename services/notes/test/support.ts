// Component-test harness: the real notes service on port 0 with a fresh
// database and its own exchange and queues on the shared RabbitMQ, called
// through a real gRPC client. The gateway verifies reader-tokens and encrypts
// the text; notes only sees the verified scope (the end-to-end tests cover both).
import { createPromiseClient, type PromiseClient } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { Broker, createEvent } from '@folio/messaging';
import { connectMongo, type Connection } from '@folio/mongo';
import { notes } from '@folio/proto';
import { deleteTopology, failureOf as failureOfCall, freshMongoUrl, testInfra, uniqueName, waitFor } from '@folio/testing';
import { startNotes, type RunningNotes } from '../src/app.js';
import { loadNotesConfig, type NotesConfig } from '../src/config.js';

export type NotesClient = PromiseClient<notes.NotesServiceClient>;

export interface TestNotes {
  client: NotesClient;
  service: RunningNotes;
  config: NotesConfig;
  /** The service's database, for inspecting state. */
  db: Connection;
  /** Publishes an event to the exchange the service consumes from (identity's, in production). */
  publish(type: string, payload: unknown): Promise<string>;
  /** Resolves once the account eraser consumes its queue (the service's broker connects lazily). */
  eraserReady(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestNotes(): Promise<TestNotes> {
  const infra = testInfra();
  const { url } = freshMongoUrl('notes');
  const config = loadNotesConfig({
    MONGO_URL: url,
    AMQP_URL: infra.amqpUrl,
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    IDENTITY_EVENTS_EXCHANGE: uniqueName('identity.events'),
    EVENTS_EXCHANGE: uniqueName('notes.events'),
    QUEUE_PREFIX: uniqueName('notes'),
    CONSUMER_RETRY_DELAY_MS: '200',
    SHUTDOWN_TIMEOUT_MS: '2000',
  });
  const logger = createLogger({ service: 'notes-test', level: 'silent' });
  const service = await startNotes(config, logger);
  const client = createPromiseClient(notes.NotesServiceClient, `127.0.0.1:${service.grpcPort}`, { defaultDeadlineMs: 10_000 });
  const db = await connectMongo(url);
  let broker: Broker | undefined;
  const testBroker = async () => (broker ??= await Broker.connect(infra.amqpUrl, { logger, name: 'notes-test' }));
  return {
    client,
    service,
    config,
    db,
    async publish(type, payload) {
      const event = createEvent(type, payload);
      await (await testBroker()).publish(config.IDENTITY_EVENTS_EXCHANGE, event);
      return event.id;
    },
    async eraserReady() {
      const queue = `${config.QUEUE_PREFIX}.account-eraser`;
      await waitFor(
        async () => {
          // checkQueue closes the channel when the queue does not exist yet: one channel per probe.
          const channel = await (await testBroker()).createChannel();
          try {
            return (await channel.checkQueue(queue)).consumerCount > 0 ? true : undefined;
          } finally {
            await channel.close().catch(() => {});
          }
        },
        { what: `a consumer on ${queue}` },
      );
    },
    async stop() {
      client.close();
      await service.stop();
      // The file's exchange and queues leave the shared broker with it.
      await deleteTopology({ exchanges: [config.IDENTITY_EVENTS_EXCHANGE, config.EVENTS_EXCHANGE], consumers: [`${config.QUEUE_PREFIX}.account-eraser`] });
      await broker?.close();
      await db.dropDatabase().catch(() => {});
      await db.close();
    },
  };
}

let nextUserId = 1000;

/** A reader session of a user on an issue: the scope the gateway sends after verifying the reader-token. */
export function readerSession(overrides: Partial<notes.ReaderScope> = {}): notes.ReaderScope {
  return { tenantId: 1, userId: nextUserId++, issueId: 10, ...overrides };
}

export const pdfDraft = (overrides: Partial<notes.NoteDraft> = {}): notes.NoteDraft => ({
  uuid: uniqueName('uuid'),
  color: 'yellow',
  totalLength: 24,
  totalText: 'the highlighted sentence',
  startPage: 3,
  startPageStartOffset: 120,
  startPageLength: 24,
  endPage: 3,
  endPageLength: 24,
  ...overrides,
});

export const epubDraft = (overrides: Partial<notes.NoteDraft> = {}): notes.NoteDraft => ({
  uuid: uniqueName('uuid'),
  color: 'green',
  totalLength: 11,
  totalText: 'Call me Ish',
  annotationText: 'opening line',
  epubLocationStartCfi: 'epubcfi(/6/4!/4/2/1:0)',
  epubLocationEndCfi: 'epubcfi(/6/4!/4/2/1:11)',
  epubChapter: 'chapter-1.xhtml',
  epubLocationStartChar: '0',
  ...overrides,
});

/** The rejection of a call, for asserting on its code, message and field errors (the only details notes' refusals carry). */
export const failureOf = (call: Promise<unknown>) => failureOfCall<{ fieldErrors?: Record<string, string[]> }>(call);
