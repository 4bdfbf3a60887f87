// Domain events over RabbitMQ for every service: the event envelope, a
// confirming publisher that survives broker restarts, a transactional outbox
// and idempotent consumers with retries and a dead-letter queue.
export { createEvent, parseEvent, type DomainEvent } from './event.js';
export { Broker, BrokerUnavailableError, type BrokerOptions } from './broker.js';
export { Outbox, type OutboxOptions } from './outbox.js';
export {
  startConsumer,
  PoisonMessageError,
  ATTEMPT_HEADER,
  FAILED_ATTEMPTS_HEADER,
  LAST_ERROR_HEADER,
  type ConsumerOptions,
  type RunningConsumer,
} from './consumer.js';
export { subscribeBroadcast, type BroadcastOptions, type BroadcastSubscription } from './broadcast.js';
export { ReferenceCache, type LastKnownOptions, type ReferenceCacheOptions } from './reference-cache.js';
export { announceUserChange, changedUsersOf, subscribeUserChanges, type UserChangedPayload } from './user-changes.js';
export { ACCESS_CHANGED, TENANT_UPDATED, accessChangeOf, tenantUpdateOf, type AccessChangedPayload, type TenantUpdatedPayload } from './invalidation-events.js';
export {
  ACCOUNT_DELETED,
  accountDeletionOf,
  accountEraserQueue,
  startAccountEraser,
  type AccountDeletedPayload,
  type AccountDeletion,
  type AccountEraserConfig,
} from './account-deleted.js';
export { CONTENT_INGESTED, contentIngestedOf, type AccessibilityPayload, type ContentIngestedPayload } from './content-ingested.js';
export { ISSUES_CHANGED, issuesChangeOf, type IssuesChangedPayload } from './issues-changed.js';
