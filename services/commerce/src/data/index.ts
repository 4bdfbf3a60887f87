// The commerce database behind one object: models registered, indexes built,
// a repository per aggregate, each implementing the interface the domain
// declares for it (domain/repositories.ts).
import { ensureIndexes, type Connection } from '@folio/mongo';
import type { CommerceRepositories } from '../domain/repositories.js';
import { MongoCheckoutLockRepository } from './checkout-locks.js';
import { MongoGrantRepository } from './grants.js';
import { MongoOfferRepository } from './offers.js';
import { MongoOrderRepository } from './orders.js';
import { commerceModels } from './schemas.js';
import { MongoSubscriptionRepository } from './subscriptions.js';
import { MongoUserEmailRepository } from './user-emails.js';
import { MongoWebSessionRepository } from './web-sessions.js';

export * from './schemas.js';
export type {
  MongoCheckoutLockRepository,
  MongoGrantRepository,
  MongoOfferRepository,
  MongoOrderRepository,
  MongoSubscriptionRepository,
  MongoUserEmailRepository,
  MongoWebSessionRepository,
};

/** The domain's repositories as this service wires them, plus what the seed and tests use (put, count). */
export interface MongoCommerceRepositories extends CommerceRepositories {
  offers: MongoOfferRepository;
  grants: MongoGrantRepository;
  subscriptions: MongoSubscriptionRepository;
  webSessions: MongoWebSessionRepository;
  orders: MongoOrderRepository;
  userEmails: MongoUserEmailRepository;
  checkoutLocks: MongoCheckoutLockRepository;
}

/**
 * Collections an earlier version kept and nothing reads any more: `carts`, the
 * per-user carts before each web session held its own. Their
 * documents are unreachable and name users, so they go at start: account
 * erasure, which deletes web sessions, then leaves nothing of a user behind.
 */
export const RETIRED_COLLECTIONS = ['carts'];

/** NamespaceNotFound: another replica starting at the same moment dropped it first. */
const NAMESPACE_NOT_FOUND = 26;

async function dropRetiredCollections(connection: Connection): Promise<void> {
  const db = connection.db;
  if (!db) throw new Error('the commerce database is not connected');
  const present = await db.listCollections({ name: { $in: RETIRED_COLLECTIONS } }, { nameOnly: true }).toArray();
  for (const { name } of present) {
    await db.dropCollection(name).catch((error: unknown) => {
      if ((error as { code?: number }).code !== NAMESPACE_NOT_FOUND) throw error;
    });
  }
}

export async function openCommerceRepositories(connection: Connection, options: { offerCacheMs?: number } = {}): Promise<MongoCommerceRepositories> {
  const models = commerceModels(connection);
  await ensureIndexes(connection);
  await dropRetiredCollections(connection);
  return {
    offers: new MongoOfferRepository(models.offers, options.offerCacheMs),
    grants: new MongoGrantRepository(models.grants),
    subscriptions: new MongoSubscriptionRepository(models.subscriptions),
    webSessions: new MongoWebSessionRepository(models.webSessions),
    orders: new MongoOrderRepository(models.orders),
    userEmails: new MongoUserEmailRepository(models.userEmails),
    checkoutLocks: new MongoCheckoutLockRepository(connection),
  };
}
