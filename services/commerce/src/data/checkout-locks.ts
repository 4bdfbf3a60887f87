// Checkout locks: one payer at a time per checkout (domain/checkout.ts). A
// lock is a `checkout_locks` row under the checkout id, claimed with
// claimOnce: a unique insert, the one decision FerretDB makes atomically
// (conditional updates it does not isolate). The lease policy (when a holder
// is presumed dead) is the checkout's.
import { claimOnce, type Connection } from '@folio/mongo';
import type { CheckoutLockRepository } from '../domain/repositories.js';

const LOCKS = 'checkout_locks';

interface CheckoutLockDoc {
  _id: string;
  claimed_at: Date;
}

export class MongoCheckoutLockRepository implements CheckoutLockRepository {
  constructor(private readonly connection: Connection) {}

  private get locks() {
    return this.connection.collection<CheckoutLockDoc>(LOCKS);
  }

  claim(checkoutId: string, userId: number): Promise<boolean> {
    return claimOnce(this.connection, LOCKS, checkoutId, { user_id: userId });
  }

  async claimedAt(checkoutId: string): Promise<Date | null> {
    const held = await this.locks.findOne({ _id: checkoutId });
    return held ? held.claimed_at : null;
  }

  async breakClaim(checkoutId: string, claimedAt: Date): Promise<void> {
    await this.locks.deleteOne({ _id: checkoutId, claimed_at: claimedAt });
  }

  async release(checkoutId: string): Promise<void> {
    await this.locks.deleteOne({ _id: checkoutId });
  }
}
