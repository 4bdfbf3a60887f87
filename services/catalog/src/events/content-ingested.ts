// reader's content.ingested (reader.events) -> the issue records what its new
// file says (domain/ingested-content.ts). A work queue, `<QUEUE_PREFIX>.content-ingested`:
// one replica handles each event, at least once (the use case is idempotent by
// the file's hash), retried on failure and dead-lettered when the payload
// breaks the event's contract (contentIngestedOf throws a poison message).
import type { Logger } from '@folio/logger';
import { CONTENT_INGESTED, contentIngestedOf, startConsumer, type Broker, type RunningConsumer } from '@folio/messaging';
import type { Connection } from '@folio/mongo';
import type { IngestedContent } from '../domain/ingested-content.js';

export const contentIngestedQueue = (queuePrefix: string) => `${queuePrefix}.content-ingested`;

export function startContentIngestedConsumer(deps: {
  broker: Broker;
  connection: Connection;
  logger: Logger;
  ingested: IngestedContent;
  config: { READER_EVENTS_EXCHANGE: string; QUEUE_PREFIX: string; CONSUMER_MAX_RETRIES: number; CONSUMER_RETRY_DELAY_MS: number };
}): Promise<RunningConsumer> {
  const { config, logger } = deps;
  return startConsumer(deps.broker, {
    exchange: config.READER_EVENTS_EXCHANGE,
    queue: contentIngestedQueue(config.QUEUE_PREFIX),
    bindings: [CONTENT_INGESTED],
    idempotency: deps.connection,
    logger,
    maxRetries: config.CONSUMER_MAX_RETRIES,
    retryDelayMs: config.CONSUMER_RETRY_DELAY_MS,
    handler: async (event) => {
      const payload = contentIngestedOf(event);
      const outcome = await deps.ingested.record({
        tenantId: payload.tenant_id,
        issueId: payload.issue_id,
        contentHash: payload.content_hash,
        type: payload.type,
        numberOfPages: payload.number_of_pages,
        metadata: payload.metadata,
      });
      logger.info({ tenant_id: payload.tenant_id, issue_id: payload.issue_id, content_hash: payload.content_hash, outcome }, 'ingested content recorded');
    },
  });
}
