// identity's `account.deleted` event, defined once for its publisher and every
// service that erases a user's data on it: the payload, the one rule that
// decodes it, and the consumer wiring (queue `<QUEUE_PREFIX>.account-eraser`
// bound to identity's exchange; idempotent, retried, dead-lettered). A service
// passes its parsed config and its erase use case:
//
//   teardown.add((await startAccountEraser({ broker, connection, logger, config, erase })).stop);
//
// The config keys come from one zod fragment, `accountEraserEnv` in @folio/config.
import type { Logger } from '@folio/logger';
import type { Connection } from 'mongoose';
import type { Broker } from './broker.js';
import { PoisonMessageError, startConsumer, type RunningConsumer } from './consumer.js';
import type { DomainEvent } from './event.js';

/** identity.events: a user's account was erased; every service erases what it holds of them. */
export const ACCOUNT_DELETED = 'account.deleted';

/** Version 1 payload. */
export interface AccountDeletedPayload {
  user_id: number;
  /** The account's e-mail, for data keyed by it (seeded grants, subscriptions). */
  email?: string;
}

/** The deletion an account.deleted event asks for. */
export interface AccountDeletion {
  userId: number;
  email: string | null;
}

/**
 * Decodes an account.deleted event. `user_id` must be a positive safe
 * integer (user ids are); anything else is a poison message: no retry can
 * make it valid, so it goes straight to the dead-letter queue for an operator.
 */
export function accountDeletionOf(event: DomainEvent): AccountDeletion {
  const payload = (event.payload ?? {}) as Record<string, unknown>;
  const userId = payload.user_id;
  if (typeof userId !== 'number' || !Number.isSafeInteger(userId) || userId <= 0) {
    throw new PoisonMessageError('account.deleted without a valid user_id (a positive integer)');
  }
  return { userId, email: typeof payload.email === 'string' && payload.email ? payload.email : null };
}

/** The parsed config keys the eraser reads (`accountEraserEnv` in @folio/config). */
export interface AccountEraserConfig {
  /** identity's topic exchange. */
  IDENTITY_EVENTS_EXCHANGE: string;
  /** The queue is `<QUEUE_PREFIX>.account-eraser`. */
  QUEUE_PREFIX: string;
  CONSUMER_MAX_RETRIES: number;
  CONSUMER_RETRY_DELAY_MS: number;
}

/** The queue a service's eraser consumes (tests look for its consumer). */
export const accountEraserQueue = (queuePrefix: string) => `${queuePrefix}.account-eraser`;

/** Consumes account.deleted for one service: decodes it by the one rule and runs `erase`. */
export function startAccountEraser(deps: {
  broker: Broker;
  /** The service's database, where processed event ids are kept. */
  connection: Connection;
  logger: Logger;
  config: AccountEraserConfig;
  erase: (deletion: AccountDeletion) => Promise<void>;
}): Promise<RunningConsumer> {
  const { config } = deps;
  return startConsumer(deps.broker, {
    exchange: config.IDENTITY_EVENTS_EXCHANGE,
    queue: accountEraserQueue(config.QUEUE_PREFIX),
    bindings: [ACCOUNT_DELETED],
    idempotency: deps.connection,
    logger: deps.logger,
    maxRetries: config.CONSUMER_MAX_RETRIES,
    retryDelayMs: config.CONSUMER_RETRY_DELAY_MS,
    handler: (event) => deps.erase(accountDeletionOf(event)),
  });
}
