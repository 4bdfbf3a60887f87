// Subscription plans of users: a plan covers every issue of its tenant or a list of them.
import type { Model } from 'mongoose';
import type { Owner, SubscriptionRepository } from '../domain/repositories.js';
import { mergeById, ownedBy, ownerKeys } from './owner.js';
import type { SubscriptionDoc } from './schemas.js';

export class MongoSubscriptionRepository implements SubscriptionRepository {
  constructor(private readonly model: Model<SubscriptionDoc>) {}

  async put(subscription: SubscriptionDoc): Promise<void> {
    await this.model.replaceOne({ _id: subscription._id }, subscription, { upsert: true }).exec();
  }

  /** Plans of the user in the tenants that are active at `now`. */
  async activeFor(owner: Owner, tenantIds: number[], now: Date): Promise<SubscriptionDoc[]> {
    if (!tenantIds.length) return [];
    const lists = await Promise.all(
      ownerKeys<SubscriptionDoc>(owner).map((key) =>
        this.model
          .find({ ...key, tenant_id: tenantIds.length === 1 ? tenantIds[0] : { $in: tenantIds }, active: true })
          .lean<SubscriptionDoc[]>()
          .exec(),
      ),
    );
    return mergeById(lists).filter((plan) => !plan.ends_at || plan.ends_at.getTime() > now.getTime());
  }

  async deleteOwner(owner: Owner): Promise<number> {
    return (await this.model.deleteMany(ownedBy<SubscriptionDoc>(owner)).exec()).deletedCount;
  }

  async count(): Promise<number> {
    return this.model.countDocuments({}).exec();
  }
}
