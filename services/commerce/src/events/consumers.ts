// commerce's consumers: account.deleted from identity erases the user's
// commerce data. An entry point like the gRPC handlers: decode, call the use case.
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

export async function startCommerceConsumers(deps: {
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
      const payload = event.payload as { user_id?: unknown; email?: unknown } | null;
      if (!payload || !Number.isInteger(payload.user_id) || (payload.user_id as number) <= 0) throw new Error('account.deleted without a user_id');
      await deps.eraser.erase({ userId: payload.user_id as number, email: typeof payload.email === 'string' ? payload.email : null });
    },
  });
  return [eraser];
}
