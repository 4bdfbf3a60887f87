// Wires the commerce service: database, identity and catalog clients, the
// broker with the outbox relay (purchase.completed) and the account-deletion
// consumer, the payment provider, and the gRPC server. Tests start it
// in-process on port 0 with a fresh database.
import { createPromiseClient } from '@folio/grpc';
import { createLogger, type Logger } from '@folio/logger';
import { Outbox } from '@folio/messaging';
import { catalog, commerce, identity } from '@folio/proto';
import { startService } from '@folio/service';
import type { CommerceConfig } from './config.js';
import { openCommerceRepositories } from './data/index.js';
import { LocalTestPaymentProvider } from './data/local-test-payments.js';
import { AccessQueries } from './domain/access-queries.js';
import { AccountEraser } from './domain/account-erasure.js';
import { Checkout } from './domain/checkout.js';
import { Owners } from './domain/owners.js';
import type { PaymentProvider } from './domain/payments.js';
import { systemClock, type Clock } from './domain/ports.js';
import { Publishing } from './domain/publishing.js';
import { Purchases } from './domain/purchase.js';
import { subscribeOfferChanges, subscribeTenantUpdates } from './events/invalidations.js';
import { OutboxEventSink } from './events/publisher.js';
import { commerceHandlers } from './grpc/handlers.js';
import { CatalogIssueNames } from './peers/catalog.js';
import { IdentityTenants, IdentityUsers } from './peers/identity.js';

export const SERVICE_NAME = 'svc.commerce.v1.CommerceService';

/** Expired web sessions are deleted by the service (FerretDB has no TTL indexes). */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

export interface RunningCommerce {
  grpcPort: number;
  /** Stops taking calls, drains the consumer and the outbox, closes every connection. */
  stop(): Promise<void>;
}

export interface CommerceOptions {
  /** Replaces the provider PAYMENT_PROVIDER names (a hosted adapter, a test double of one). */
  paymentProvider?: PaymentProvider;
  clock?: Clock;
}

export async function startCommerce(
  config: CommerceConfig,
  logger: Logger = createLogger({ service: 'commerce', level: config.LOG_LEVEL }),
  options: CommerceOptions = {},
): Promise<RunningCommerce> {
  const clock = options.clock ?? systemClock;
  // Each connection closes on stop, newest first, or when start-up fails half-way.
  return startService('commerce', logger, async (kit) => {
    const connection = await kit.mongo(config.MONGO_URL);
    const store = await openCommerceRepositories(connection, { offerCacheMs: config.OFFER_CACHE_SECONDS * 1000 });

    const identityClient = createPromiseClient(identity.IdentityServiceClient, config.IDENTITY_ADDR, { defaultDeadlineMs: config.PEER_DEADLINE_MS });
    kit.onStop(() => identityClient.close());
    const catalogClient = createPromiseClient(catalog.CatalogServiceClient, config.CATALOG_ADDR, { defaultDeadlineMs: config.PEER_DEADLINE_MS });
    kit.onStop(() => catalogClient.close());
    const tenants = new IdentityTenants(identityClient, config.TENANT_CACHE_SECONDS * 1000, logger);
    const users = new IdentityUsers(identityClient);
    const names = new CatalogIssueNames(catalogClient, config.CATALOG_DEADLINE_MS, logger);

    const broker = await kit.broker(config.AMQP_URL);
    const outbox = new Outbox(connection, broker, { exchange: config.EVENTS_EXCHANGE, logger });
    await outbox.ensureIndexes();
    outbox.start();
    kit.onStop(() => outbox.stop());
    const events = new OutboxEventSink(outbox);

    const provider = options.paymentProvider ?? new LocalTestPaymentProvider(connection, clock);
    if (provider.testMode && config.NODE_ENV === 'production') {
      logger.warn({ provider: provider.name }, 'the checkout runs on a test payment provider: no money is taken');
    }

    const owners = new Owners(store, users, clock);
    const access = new AccessQueries(store, tenants, owners, clock);
    const purchases = new Purchases(
      { store, tenants, users, clock },
      { defaultAppScheme: config.DEFAULT_APP_SCHEME, sessionTtlMinutes: config.CHECKOUT_SESSION_TTL_MINUTES, checkoutPath: config.CHECKOUT_PATH },
    );
    const checkout = new Checkout({ store, tenants, names, access, provider, events, clock, logger }, { payPath: config.CHECKOUT_PAY_PATH });
    const eraser = new AccountEraser(store, clock, logger, events);
    const publishing = new Publishing({ store, tenants, events, clock });

    // account.deleted erases the user's web sessions (with their carts), plans and grants (@folio/messaging decodes it).
    // Then this replica asks identity again for the user's memberships (a re-created account has none).
    const erase = (deletion: { userId: number; email: string | null }) => eraser.erase(deletion).then(() => users.forgetUser(deletion.userId));
    await kit.eraser({ broker, connection, config, erase });
    const tenantUpdates = await subscribeTenantUpdates({ broker, identityExchange: config.IDENTITY_EVENTS_EXCHANGE, tenants, logger });
    kit.onStop(() => tenantUpdates.stop());
    const offerChanges = await subscribeOfferChanges({ broker, exchange: config.EVENTS_EXCHANGE, offers: store.offers, logger });
    kit.onStop(() => offerChanges.stop());

    const prune = setInterval(() => {
      store.webSessions
        .pruneExpired(clock.now())
        .then((deleted) => deleted && logger.info({ deleted }, 'pruned expired web sessions'))
        .catch((error: unknown) => logger.warn({ err: error }, 'pruning web sessions failed'));
    }, PRUNE_EVERY_MS);
    prune.unref();
    kit.onStop(() => clearInterval(prune));

    const grpc = await kit.grpc(config, [
      { name: SERVICE_NAME, definition: commerce.CommerceServiceService, handlers: commerceHandlers({ access, purchases, checkout, publishing }) },
    ]);

    return { grpcPort: grpc.port, stop: kit.stop };
  });
}
