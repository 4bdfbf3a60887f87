// Access grants: purchases, gifts, admin assignments, retail licenses and
// external permissions, each for one user and one issue.
import type { Model } from 'mongoose';
import type { GrantRepository, Owner } from '../domain/repositories.js';
import { mergeById, ownedBy, ownerKeys } from './owner.js';
import { isDuplicateKey } from './errors.js';
import type { GrantDoc } from './schemas.js';

export class MongoGrantRepository implements GrantRepository {
  constructor(private readonly model: Model<GrantDoc>) {}

  /** Seed: creates or replaces a grant under its stable id. */
  async put(grant: GrantDoc): Promise<void> {
    await this.model.replaceOne({ _id: grant._id }, grant, { upsert: true }).exec();
  }

  /** Records a grant once: true for the call that created it, false when its id already existed. */
  async insertOnce(grant: GrantDoc): Promise<boolean> {
    try {
      await this.model.create(grant);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async assign(grant: GrantDoc): Promise<GrantDoc> {
    const { _id, expires_at, created_at, revoked: _revoked, ...fixed } = grant;
    const write = () =>
      this.model.updateOne({ _id }, { $set: { expires_at, revoked: false }, $setOnInsert: { ...fixed, created_at } }, { upsert: true }).exec();
    try {
      await write();
    } catch (error) {
      // Two assignments of the same grant at once: the loser's upsert hit the winner's insert; it is an update now.
      if (!isDuplicateKey(error)) throw error;
      await write();
    }
    const stored = await this.model.findById(_id).lean<GrantDoc>().exec();
    if (!stored) throw new Error(`grant ${_id} vanished after it was written`);
    return stored;
  }

  /**
   * Grants of the user in the tenants that give access at `now`: not revoked,
   * not erased, not expired. Optionally only for some issues.
   */
  async liveFor(owner: Owner, tenantIds: number[], now: Date, issueIds?: number[]): Promise<GrantDoc[]> {
    if (!tenantIds.length || (issueIds && !issueIds.length)) return [];
    const lists = await Promise.all(
      ownerKeys<GrantDoc>(owner).map((key) =>
        this.model
          .find({
            ...key,
            tenant_id: tenantIds.length === 1 ? tenantIds[0] : { $in: tenantIds },
            ...(issueIds && { issue_id: { $in: issueIds } }),
            revoked: false,
          })
          .lean<GrantDoc[]>()
          .exec(),
      ),
    );
    return mergeById(lists).filter((grant) => !grant.erased_at && (!grant.expires_at || grant.expires_at.getTime() > now.getTime()));
  }

  async findByOrder(orderId: string): Promise<GrantDoc[]> {
    return this.model.find({ order_id: orderId }).lean<GrantDoc[]>().exec();
  }

  /**
   * Account deletion. Purchase grants belong to an order (a financial
   * record): they are anonymized and revoked. Every other grant is deleted.
   */
  async eraseOwner(owner: Owner, now: Date): Promise<{ deleted: number; anonymized: number }> {
    const filter = ownedBy<GrantDoc>(owner);
    const anonymized = await this.model
      .updateMany({ ...filter, source: 'purchase' }, { $set: { user_id: null, email: null, revoked: true, erased_at: now } })
      .exec();
    const deleted = await this.model.deleteMany({ ...filter, source: { $ne: 'purchase' } }).exec();
    return { deleted: deleted.deletedCount, anonymized: anonymized.modifiedCount };
  }

  async count(): Promise<number> {
    return this.model.countDocuments({}).exec();
  }
}
