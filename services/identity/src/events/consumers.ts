// identity's own consumers of its events: the help router (help.requested ->
// support inbox, engineering, messaging channel) and the account eraser
// (account.deletion_requested -> erase, then account.deleted). Both are
// entry points like the gRPC handlers: they decode and call a use case.
import { startConsumer, type Broker, type DomainEvent, type RunningConsumer } from '@folio/messaging';
import type { Connection } from '@folio/mongo';
import type { Logger } from '@folio/logger';
import type { AccountEraser } from '../domain/account-erasure.js';
import { EVENT, type AccountDeletionRequestedPayload, type HelpRequestedPayload } from '../domain/events.js';
import type { HelpRouter } from '../domain/help-routing.js';

export interface ConsumerSettings {
  exchange: string;
  queuePrefix: string;
  maxRetries: number;
  retryDelayMs: number;
}

export async function startIdentityConsumers(deps: {
  broker: Broker;
  connection: Connection;
  logger: Logger;
  settings: ConsumerSettings;
  helpRouter: HelpRouter;
  eraser: AccountEraser;
}): Promise<RunningConsumer[]> {
  const { broker, connection, logger, settings } = deps;
  const common = {
    exchange: settings.exchange,
    idempotency: connection,
    logger,
    maxRetries: settings.maxRetries,
    retryDelayMs: settings.retryDelayMs,
  };
  const helpRouter = await startConsumer(broker, {
    ...common,
    queue: `${settings.queuePrefix}.help-router`,
    bindings: [EVENT.helpRequested],
    handler: async (event) => {
      const request = helpRequestOf(event);
      const channel = await deps.helpRouter.route(request);
      logger.info({ subject: request.subject, route: request.route, channel: channel.description }, 'help request routed');
    },
  });
  try {
    const eraser = await startConsumer(broker, {
      ...common,
      queue: `${settings.queuePrefix}.account-eraser`,
      bindings: [EVENT.accountDeletionRequested],
      handler: async (event) => {
        const payload = event.payload as Partial<AccountDeletionRequestedPayload> | null;
        if (!payload || !Number.isInteger(payload.user_id)) throw new Error('account.deletion_requested without a user_id');
        await deps.eraser.erase({ userId: payload.user_id!, email: typeof payload.email === 'string' ? payload.email : '', requestId: event.id });
      },
    });
    return [helpRouter, eraser];
  } catch (error) {
    await helpRouter.stop();
    throw error;
  }
}

function helpRequestOf(event: DomainEvent): HelpRequestedPayload {
  const payload = event.payload as Partial<HelpRequestedPayload> | null;
  if (!payload || typeof payload.subject !== 'string' || typeof payload.email !== 'string' || typeof payload.message !== 'string') {
    throw new Error('help.requested without subject, email or message');
  }
  return payload as HelpRequestedPayload;
}
