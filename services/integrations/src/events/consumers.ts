// Integrations' consumer of identity's events: account.deleted erases the
// user's AI responses and ratings (the only personal data kept here; the
// listen cache holds audio keyed by a hash of voice and text, nobody's).
import { startConsumer, type Broker, type RunningConsumer } from '@folio/messaging';
import type { Logger } from '@folio/logger';
import type { Connection } from '@folio/mongo';
import type { AiResponseRepository } from '../data/ai-responses.js';

export const ACCOUNT_DELETED = 'account.deleted';

export async function startAccountEraser(deps: {
  broker: Broker;
  connection: Connection;
  logger: Logger;
  responses: AiResponseRepository;
  settings: { exchange: string; queuePrefix: string; maxRetries: number; retryDelayMs: number };
}): Promise<RunningConsumer> {
  const { settings, logger } = deps;
  return startConsumer(deps.broker, {
    exchange: settings.exchange,
    queue: `${settings.queuePrefix}.account-eraser`,
    bindings: [ACCOUNT_DELETED],
    idempotency: deps.connection,
    logger,
    maxRetries: settings.maxRetries,
    retryDelayMs: settings.retryDelayMs,
    handler: async (event) => {
      const payload = event.payload as { user_id?: unknown } | null;
      if (!payload || !Number.isInteger(payload.user_id)) throw new Error('account.deleted without a user_id');
      const erased = await deps.responses.eraseUser(payload.user_id as number);
      logger.info({ userId: payload.user_id, erased }, 'AI responses of a deleted account erased');
    },
  });
}
