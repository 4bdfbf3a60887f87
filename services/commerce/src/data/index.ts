// The commerce database behind one object: models registered, indexes built,
// a repository per aggregate.
import { ensureIndexes, type Connection } from '@folio/mongo';
import { CartRepository } from './carts.js';
import { GrantRepository } from './grants.js';
import { OfferRepository } from './offers.js';
import { OrderRepository } from './orders.js';
import { commerceModels } from './schemas.js';
import { SubscriptionRepository } from './subscriptions.js';
import { UserEmailRepository } from './user-emails.js';
import { WebSessionRepository } from './web-sessions.js';

export * from './schemas.js';
export type { Owner } from './owner.js';
export { hashSessionId } from './web-sessions.js';
export type {
  CartRepository,
  GrantRepository,
  OfferRepository,
  OrderRepository,
  SubscriptionRepository,
  UserEmailRepository,
  WebSessionRepository,
};

export interface CommerceStore {
  connection: Connection;
  offers: OfferRepository;
  grants: GrantRepository;
  subscriptions: SubscriptionRepository;
  carts: CartRepository;
  webSessions: WebSessionRepository;
  orders: OrderRepository;
  userEmails: UserEmailRepository;
}

export async function openCommerceStore(connection: Connection, options: { offerCacheMs?: number } = {}): Promise<CommerceStore> {
  const models = commerceModels(connection);
  await ensureIndexes(connection);
  return {
    connection,
    offers: new OfferRepository(models.offers, options.offerCacheMs),
    grants: new GrantRepository(models.grants),
    subscriptions: new SubscriptionRepository(models.subscriptions),
    carts: new CartRepository(models.carts),
    webSessions: new WebSessionRepository(models.webSessions),
    orders: new OrderRepository(models.orders),
    userEmails: new UserEmailRepository(models.userEmails),
  };
}
