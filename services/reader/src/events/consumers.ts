// Reader's consumer of identity's events: `account.deleted` erases the user's
// reader data. An entry point like the gRPC handlers: decode, call the use case.
import { startConsumer, type Broker, type RunningConsumer } from '@folio/messaging';
import type { Logger } from '@folio/logger';
import type { Connection } from '@folio/mongo';
import type { AccountEraser } from '../domain/erasure.js';

export const ACCOUNT_DELETED = 'account.deleted';

export async function startReaderConsumers(deps: {
  broker: Broker;
  connection: Connection;
  logger: Logger;
  eraser: AccountEraser;
  settings: { exchange: string; queuePrefix: string; maxRetries: number; retryDelayMs: number };
}): Promise<RunningConsumer[]> {
  const eraser = await startConsumer(deps.broker, {
    exchange: deps.settings.exchange,
    queue: `${deps.settings.queuePrefix}.account-eraser`,
    bindings: [ACCOUNT_DELETED],
    idempotency: deps.connection,
    logger: deps.logger,
    maxRetries: deps.settings.maxRetries,
    retryDelayMs: deps.settings.retryDelayMs,
    handler: async (event) => {
      const payload = event.payload as { user_id?: unknown } | null;
      if (!payload || !Number.isInteger(payload.user_id) || (payload.user_id as number) < 1) throw new Error('account.deleted without a user_id');
      await deps.eraser.erase(payload.user_id as number);
    },
  });
  return [eraser];
}
