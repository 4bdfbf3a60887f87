// One cart per user and tenant. The purchase redirect empties it and puts
// the issue in; a paid checkout empties it.
import { randomUUID } from 'node:crypto';
import { isDuplicateKeyError } from '@folio/mongo';
import type { Model, mongo } from 'mongoose';
import type { CartRepository } from '../domain/store.js';
import type { CartDoc } from './schemas.js';

const cartId = (tenantId: number, userId: number) => `${tenantId}:${userId}`;

export class MongoCartRepository implements CartRepository {
  constructor(private readonly model: Model<CartDoc>) {}

  /** Empties the cart and adds the issues, under a new checkout id. */
  async replaceItems(tenantId: number, userId: number, issueIds: number[], now: Date): Promise<CartDoc> {
    const cart: CartDoc = {
      _id: cartId(tenantId, userId),
      tenant_id: tenantId,
      user_id: userId,
      items: issueIds.map((issueId) => ({ issue_id: issueId, added_at: now })),
      checkout_id: randomUUID(),
      updated_at: now,
    };
    // On the driver's collection: the cart is built here, and mongoose's casting
    // of the replacement (a hydrated document per write) was a tenth of
    // commerce's CPU per purchase redirect.
    const carts = this.model.collection as unknown as mongo.Collection<CartDoc>;
    try {
      await carts.replaceOne({ _id: cart._id }, cart, { upsert: true });
    } catch (error) {
      // Two first purchase redirects of one user at once race on the insert of
      // the upsert; the loser replaces the winner's cart (the last one wins, as
      // for any later redirect). Seen as a 500 under the scale benchmark.
      if (!isDuplicateKeyError(error)) throw error;
      await carts.replaceOne({ _id: cart._id }, cart);
    }
    return cart;
  }

  async find(tenantId: number, userId: number): Promise<CartDoc | null> {
    return (
      (await this.model
        .findOne({ _id: cartId(tenantId, userId), tenant_id: tenantId })
        .lean<CartDoc>()
        .exec()) ?? null
    );
  }

  /** Empties the cart if it still holds the paid checkout (a newer purchase redirect may have refilled it). */
  async emptyIfCheckout(tenantId: number, userId: number, checkoutId: string, now: Date): Promise<void> {
    await this.model
      .updateOne(
        { _id: cartId(tenantId, userId), tenant_id: tenantId, checkout_id: checkoutId },
        { $set: { items: [], checkout_id: randomUUID(), updated_at: now } },
      )
      .exec();
  }

  async deleteAllOf(userId: number): Promise<number> {
    return (await this.model.deleteMany({ user_id: userId }).exec()).deletedCount;
  }
}
