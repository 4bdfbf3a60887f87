// AMQP entry point of catalog: `account.deleted` (identity.events) erases the
// user's favorites in every tenant. Idempotent (deleting nothing is fine),
// deduplicated by event id, retried and dead-lettered by @folio/messaging.
import type { Logger } from '@folio/logger';
import { startConsumer, type Broker, type RunningConsumer } from '@folio/messaging';
import type { Connection } from '@folio/mongo';
import type { Favorites } from '../domain/favorites.js';

export interface ConsumerSettings {
  exchange: string;
  queuePrefix: string;
  maxRetries: number;
  retryDelayMs: number;
}

export async function startCatalogConsumers(deps: {
  broker: Broker;
  connection: Connection;
  logger: Logger;
  favorites: Favorites;
  settings: ConsumerSettings;
}): Promise<RunningConsumer[]> {
  const { broker, connection, logger, favorites, settings } = deps;
  const eraser = await startConsumer(broker, {
    exchange: settings.exchange,
    queue: `${settings.queuePrefix}.account-eraser`,
    bindings: ['account.deleted'],
    idempotency: connection,
    logger,
    maxRetries: settings.maxRetries,
    retryDelayMs: settings.retryDelayMs,
    handler: async (event) => {
      const userId = (event.payload as { user_id?: unknown } | null)?.user_id;
      // A payload without a user cannot be erased by retrying: it fails into the dead-letter queue for an operator.
      if (typeof userId !== 'number' || !Number.isInteger(userId) || userId <= 0) throw new Error('account.deleted without a valid user_id');
      const favoritesDeleted = await favorites.eraseUser(userId);
      logger.info({ user_id: userId, favorites: favoritesDeleted }, 'account data erased');
    },
  });
  return [eraser];
}
