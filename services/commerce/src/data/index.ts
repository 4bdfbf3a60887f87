// The commerce database behind one object: models registered, indexes built,
// a repository per aggregate, each implementing the interface the domain
// declares for it (domain/store.ts).
import { ensureIndexes, type Connection } from '@folio/mongo';
import type { CommerceStore } from '../domain/store.js';
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

/** The store as this service wires it: the domain's repositories, plus what the seed and tests use (put, count). */
export interface MongoCommerceStore extends CommerceStore {
  offers: MongoOfferRepository;
  grants: MongoGrantRepository;
  subscriptions: MongoSubscriptionRepository;
  webSessions: MongoWebSessionRepository;
  orders: MongoOrderRepository;
  userEmails: MongoUserEmailRepository;
  checkoutLocks: MongoCheckoutLockRepository;
}

export async function openCommerceStore(connection: Connection, options: { offerCacheMs?: number } = {}): Promise<MongoCommerceStore> {
  const models = commerceModels(connection);
  await ensureIndexes(connection);
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
