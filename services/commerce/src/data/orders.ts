// Paid checkouts. An order's id is its checkout id: the unique _id is what
// makes a second submit of the same checkout unable to create a second order.
import type { Model } from 'mongoose';
import type { OrderRepository } from '../domain/repositories.js';
import { isDuplicateKey } from './errors.js';
import type { OrderDoc } from './schemas.js';

export class MongoOrderRepository implements OrderRepository {
  constructor(private readonly model: Model<OrderDoc>) {}

  /** True when this call recorded the order; false when the checkout already had one. */
  async insertOnce(order: OrderDoc): Promise<boolean> {
    try {
      await this.model.create(order);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async find(checkoutId: string): Promise<OrderDoc | null> {
    return (await this.model.findOne({ _id: checkoutId }).lean<OrderDoc>().exec()) ?? null;
  }

  /** Account deletion: the order stays (bookkeeping), without the user. */
  async anonymizeUser(userId: number, now: Date): Promise<number> {
    return (await this.model.updateMany({ user_id: userId }, { $set: { user_id: null, erased_at: now } }).exec()).modifiedCount;
  }
}
