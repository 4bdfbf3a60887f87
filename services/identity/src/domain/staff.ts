// Publisher staff: a role (editor or owner) on a user's membership of a
// tenant, and who may use a tenant's publisher API. A role lives on the
// membership so that it goes with it when the account is erased. A tenant
// always keeps an owner: no change may remove its last one.
//
// The role is read on every publisher request (AuthorizeStaff) straight from
// the store, one lookup on the membership's unique (user, tenant) index, and
// never cached: taking a role away takes effect on the next request.
import { DomainError, invalidArgument, notFound, permissionDenied } from '@folio/errors';
import type { PublisherApiKeys } from './publisher-api-keys.js';
import type { IdentityRepositories } from './repositories.js';
import { requireEmail } from './users.js';

export type StaffRole = 'editor' | 'owner';

export const STAFF_ROLES: readonly StaffRole[] = ['editor', 'owner'];

/** Who may act on a tenant's publisher API, as the gateway and the audit log name them. */
export interface StaffGrant {
  role: StaffRole;
  /** `user:<id>` or `api-key:<id>`. */
  actor: string;
  userId?: number;
  apiKeyId?: string;
}

export interface StaffMember {
  userId: number;
  email: string;
  /** Null when the role was just taken away. */
  role: StaffRole | null;
}

export const NOT_STAFF = 'You are not staff of this store.';
const LAST_OWNER = 'The store must keep an owner: make someone else owner first.';

const lastOwner = () => new DomainError('FAILED_PRECONDITION', LAST_OWNER, { reason: 'LAST_OWNER' });

export class StaffDirectory {
  constructor(
    private readonly store: Pick<IdentityRepositories, 'users' | 'tenants' | 'memberships'>,
    private readonly apiKeys: PublisherApiKeys,
  ) {}

  /** A user (by a verified access token) or an API key, for one tenant. */
  async authorize(request: { tenantId: number; userId?: number | undefined; apiKey?: string | undefined; clientIp: string }): Promise<StaffGrant> {
    if (request.apiKey !== undefined) return this.apiKeys.authorize({ tenantId: request.tenantId, key: request.apiKey, clientIp: request.clientIp });
    if (request.userId === undefined) throw invalidArgument('A user id or an API key is required.');
    // An erased account's memberships are gone, so it has no role either.
    const role = request.userId > 0 ? await this.store.memberships.staffRoleOf(request.userId, request.tenantId) : null;
    if (!role) throw permissionDenied(NOT_STAFF);
    return { role, actor: `user:${request.userId}`, userId: request.userId };
  }

  /**
   * Gives the user with this e-mail a role in the tenant (making him an
   * account there if he has none), or takes it away (`null`).
   */
  async setRole(request: { tenantId: number; email: string; role: StaffRole | null }): Promise<StaffMember> {
    const email = requireEmail(request.email);
    if (!(await this.store.tenants.findById(request.tenantId))) throw notFound('Tenant not found.');
    const user = await this.store.users.findByEmail(email);
    if (!user) throw notFound('No user has this e-mail: they must sign in once before they can be given a role.');
    const { memberships } = this.store;
    const current = await memberships.staffRoleOf(user._id, request.tenantId);
    if (current === request.role) return { userId: user._id, email: user.email, role: request.role };
    if (current === 'owner' && (await memberships.countOwners(request.tenantId)) <= 1) throw lastOwner();

    if (request.role) await memberships.ensure(user._id, request.tenantId);
    await memberships.setStaffRole(user._id, request.tenantId, request.role);
    // Two owners demoting each other at once both passed the check above (the
    // store has no transactions): counting again after the write sees it, and
    // giving the role back leaves the tenant as it was, never without an owner.
    if (current === 'owner' && (await memberships.countOwners(request.tenantId)) === 0) {
      await memberships.setStaffRole(user._id, request.tenantId, 'owner');
      throw lastOwner();
    }
    return { userId: user._id, email: user.email, role: request.role };
  }

  /** The tenant's staff: owners first, then by e-mail. */
  async list(tenantId: number): Promise<StaffMember[]> {
    const staff = await this.store.memberships.staffOf(tenantId);
    const users = await Promise.all(staff.map(({ userId }) => this.store.users.findById(userId)));
    const members = staff.flatMap(({ userId, role }, index) => {
      const user = users[index];
      // A user erased between the two reads has no account left to list.
      return user ? [{ userId, email: user.email, role }] : [];
    });
    return members.sort((a, b) => STAFF_ROLES.indexOf(b.role) - STAFF_ROLES.indexOf(a.role) || a.email.localeCompare(b.email));
  }
}
