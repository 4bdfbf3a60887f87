// Which users have an account in which tenants, and their publisher staff
// role there. Creating or deleting a membership also moves the tenant's
// member count (discovery's sort key). Implements the domain's
// MembershipRepository; `has` (device keys) and `countIn` (the seed) are extra.
// Roles are always read from the store: the read cache holds tenant ids only.
import type { Model } from 'mongoose';
import type { StaffRole } from '../domain/staff.js';
import type { MembershipRepository } from '../domain/repositories.js';
import { readThrough, type IdentityReadCache } from './read-cache.js';
import { isDuplicateKey, type MembershipDoc } from './schemas.js';
import type { MongoTenantRepository } from './tenants.js';
import type { UserVersions } from './user-versions.js';

export class MongoMembershipRepository implements MembershipRepository {
  constructor(
    private readonly model: Model<MembershipDoc>,
    private readonly tenants: MongoTenantRepository,
    private readonly cache?: IdentityReadCache,
    private readonly versions?: UserVersions,
  ) {}

  /**
   * Idempotent; `true` only for the call that created it. A membership the
   * user's (cached) list already has is not written again: every purchase
   * redirect ensures one, and the upsert was a store write per redirect.
   */
  async ensure(userId: number, tenantId: number): Promise<boolean> {
    if (this.cache && (await this.tenantIdsOf(userId)).includes(tenantId)) return false;
    try {
      const result = await this.model
        .updateOne({ user_id: userId, tenant_id: tenantId }, { $setOnInsert: { created_at: new Date() } }, { upsert: true })
        .exec();
      if (result.upsertedCount !== 1) return false;
      this.cache?.forgetUser(userId);
      await this.versions?.changed(userId);
    } catch (error) {
      // A concurrent upsert of the same pair won the unique index.
      if (isDuplicateKey(error)) return false;
      throw error;
    }
    await this.tenants.adjustMemberCount(tenantId, 1);
    return true;
  }

  /** Ascending; from memory when cached (every GET /user and multi-tenant listing asks). */
  async tenantIdsOf(userId: number): Promise<number[]> {
    return (await readThrough(this.cache?.memberships, userId, () => this.storedTenantIdsOf(userId)))!;
  }

  /** One lookup on the unique (user_id, tenant_id) index, unless the cached memberships already have it (a "no" is always asked). */
  async has(userId: number, tenantId: number): Promise<boolean> {
    if (this.cache?.memberships.peek(userId)?.includes(tenantId)) return true;
    return (await this.model.exists({ user_id: userId, tenant_id: tenantId }).exec()) !== null;
  }

  /** One lookup on the unique (user_id, tenant_id) index. */
  async staffRoleOf(userId: number, tenantId: number): Promise<StaffRole | null> {
    const doc = await this.model.findOne({ user_id: userId, tenant_id: tenantId }, { staff_role: 1 }).lean<Pick<MembershipDoc, 'staff_role'>>().exec();
    return doc?.staff_role ?? null;
  }

  async setStaffRole(userId: number, tenantId: number, role: StaffRole | null): Promise<void> {
    await this.model.updateOne({ user_id: userId, tenant_id: tenantId }, { $set: { staff_role: role } }).exec();
  }

  async countOwners(tenantId: number): Promise<number> {
    return this.model.countDocuments({ tenant_id: tenantId, staff_role: 'owner' }).exec();
  }

  /** One equality query per role on (tenant_id, staff_role), so the tenant's readers are never read. */
  async staffOf(tenantId: number): Promise<{ userId: number; role: StaffRole }[]> {
    const byRole = await Promise.all(
      (['owner', 'editor'] as const).map(async (role) => {
        const docs = await this.model.find({ tenant_id: tenantId, staff_role: role }, { user_id: 1 }).lean<Pick<MembershipDoc, 'user_id'>[]>().exec();
        return docs.map((doc) => ({ userId: doc.user_id, role }));
      }),
    );
    return byRole.flat();
  }

  async countIn(tenantId: number): Promise<number> {
    return this.model.countDocuments({ tenant_id: tenantId }).exec();
  }

  /** Deletes every membership of a user one by one, so each count moves once even when erasure is retried. */
  async deleteAllOf(userId: number): Promise<number> {
    let deleted = 0;
    this.cache?.forgetUser(userId);
    // From the store, not the cache: erasure must see a membership made through another replica.
    for (const tenantId of await this.storedTenantIdsOf(userId)) {
      const result = await this.model.deleteOne({ user_id: userId, tenant_id: tenantId }).exec();
      if (result.deletedCount === 1) {
        deleted += 1;
        await this.tenants.adjustMemberCount(tenantId, -1);
      }
    }
    this.cache?.forgetUser(userId);
    if (deleted > 0) await this.versions?.changed(userId);
    return deleted;
  }

  private async storedTenantIdsOf(userId: number): Promise<number[]> {
    const docs = await this.model.find({ user_id: userId }, { tenant_id: 1 }).sort({ tenant_id: 1 }).lean<MembershipDoc[]>().exec();
    return docs.map((doc) => doc.tenant_id);
  }
}
