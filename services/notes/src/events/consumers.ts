// notes' consumer of identity's account.deleted: erases the user's notes.
// An entry point like the gRPC handlers: decode, call the use case.
import type { Logger } from '@folio/logger';
import { startConsumer, type Broker, type RunningConsumer } from '@folio/messaging';
import type { Connection } from '@folio/mongo';
import type { AccountEraser } from '../domain/account-erasure.js';

export const ACCOUNT_DELETED = 'account.deleted';

export interface ConsumerSettings {
  identityExchange: string;
  queuePrefix: string;
  maxRetries: number;
  retryDelayMs: number;
}

export async function startNotesConsumers(deps: {
  broker: Broker;
  connection: Connection;
  logger: Logger;
  eraser: AccountEraser;
  settings: ConsumerSettings;
}): Promise<RunningConsumer[]> {
  const { broker, connection, logger, settings } = deps;
  const eraser = await startConsumer(broker, {
    exchange: settings.identityExchange,
    queue: `${settings.queuePrefix}.account-eraser`,
    bindings: [ACCOUNT_DELETED],
    idempotency: connection,
    logger,
    maxRetries: settings.maxRetries,
    retryDelayMs: settings.retryDelayMs,
    handler: async (event) => {
      const payload = event.payload as { user_id?: unknown } | null;
      const userId = payload?.user_id;
      // Retried, then dead-lettered with this reason: an operator can see and replay it.
      if (typeof userId !== 'number' || !Number.isInteger(userId) || userId <= 0) throw new Error('account.deleted without a user_id');
      await deps.eraser.erase(userId);
    },
  });
  return [eraser];
}
