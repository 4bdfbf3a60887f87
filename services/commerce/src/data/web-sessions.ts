// Web sessions on the store, opened by the purchase redirect, each with its
// cart. Stored under the SHA-256 of the cookie value (the domain's
// hashSessionId). FerretDB has no TTL indexes: expired sessions are refused on
// read and pruned by the service.
import { randomUUID } from 'node:crypto';
import { deleteExpired, insertBatcherOf, type InsertBatcher } from '@folio/mongo';
import type { Model } from 'mongoose';
import { hashSessionId, type WebSessionRecord, type WebSessionRepository } from '../domain/repositories.js';
import type { WebSessionDoc } from './schemas.js';

export class MongoWebSessionRepository implements WebSessionRepository {
  // Written as built by the domain (a hydrated document's save cost ~4 % of
  // commerce's CPU per purchase redirect), and redirects of the same moment
  // together (group commit, @folio/mongo).
  private readonly inserts: InsertBatcher<WebSessionDoc>;

  constructor(private readonly model: Model<WebSessionDoc>) {
    this.inserts = insertBatcherOf(model);
  }

  async create(session: WebSessionDoc): Promise<void> {
    await this.inserts.insert(session);
  }

  /** The live session of a cookie value in this tenant's store, or null. */
  async findLive(sessionId: string, tenantId: number, now: Date): Promise<WebSessionDoc | null> {
    if (!sessionId) return null;
    const session = await this.model
      .findOne({ _id: hashSessionId(sessionId), tenant_id: tenantId })
      .lean<WebSessionDoc>()
      .exec();
    if (!session || session.expires_at.getTime() <= now.getTime()) return null;
    // A session opened before carts moved into sessions has none: its cart reads as empty.
    return session.cart ? session : { ...session, cart: { items: [], checkout_id: '' } };
  }

  async emptyCartIfCheckout(session: WebSessionRecord, checkoutId: string): Promise<void> {
    await this.model.updateOne({ _id: session._id, 'cart.checkout_id': checkoutId }, { $set: { cart: { items: [], checkout_id: randomUUID() } } }).exec();
  }

  async deleteAllOf(userId: number): Promise<number> {
    return (await this.model.deleteMany({ user_id: userId }).exec()).deletedCount;
  }

  /** In windows when the backlog is larger than the store deletes at once (@folio/mongo deleteExpired). */
  async pruneExpired(now: Date): Promise<number> {
    return deleteExpired(this.model, 'expires_at', now);
  }
}
