// Publishes reader's content.ingested (@folio/messaging CONTENT_INGESTED on
// reader.events) when an upload became an issue's content: catalog records
// what the file says, and every reader replica drops the issue's cached
// manifest (events/cache-invalidation.ts), this one at once.
import type { Logger } from '@folio/logger';
import { CONTENT_INGESTED, createEvent, type Broker, type ContentIngestedPayload } from '@folio/messaging';
import type { ContentAnnouncer, ContentIngestedNotice } from '../domain/uploads.js';
import type { ManifestForgetter } from './cache-invalidation.js';

export class ContentIngestedPublisher implements ContentAnnouncer {
  constructor(private readonly deps: { broker: Broker; exchange: string; manifests: ManifestForgetter; logger: Logger }) {}

  /** Rejects when the broker did not confirm the event (the job's message is then handled again, and the event sent then). */
  async ingested(notice: ContentIngestedNotice): Promise<void> {
    this.deps.manifests.forget(notice.tenantId, notice.issueId);
    const metadata = notice.metadata;
    const payload: ContentIngestedPayload = {
      tenant_id: notice.tenantId,
      issue_id: notice.issueId,
      content_hash: notice.contentHash,
      type: notice.type,
      number_of_pages: notice.numberOfPages,
      metadata: {
        title: metadata?.title ?? '',
        authors: metadata?.authors ?? [],
        publisher: metadata?.publisher ?? '',
        lang: metadata?.lang ?? '',
        description: metadata?.description ?? '',
        identifiers: metadata?.identifiers ?? [],
        accessibility: metadata?.accessibility ?? null,
      },
    };
    // One event id per job: announcing a job again (a redelivery) is a duplicate consumers skip.
    const id = `content.ingested:${notice.jobId}`;
    await this.deps.broker.publish(this.deps.exchange, createEvent(CONTENT_INGESTED, payload, { tenantId: notice.tenantId, id }));
    this.deps.logger.info({ issue_id: notice.issueId, content_hash: notice.contentHash }, 'content.ingested published');
  }
}
