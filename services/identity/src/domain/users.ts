// Users and their accounts in tenants: found or created by e-mail at login,
// read back as the profile of GET /api/v2/user.
import { invalidCredentials, invalidFields } from './errors.js';
import type { IdentityRepositories, TenantRecord, UserRecord } from './repositories.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The one spelling of an e-mail address identity stores and compares. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A normalized, plausible e-mail address, or 422 on `email`. */
export function requireEmail(raw: string): string {
  const email = normalizeEmail(raw ?? '');
  if (!email) throw invalidFields({ email: ['The email field is required.'] });
  if (email.length > 254 || !EMAIL.test(email)) throw invalidFields({ email: ['The email must be a valid email address.'] });
  return email;
}

export class UserAccounts {
  constructor(private readonly store: Pick<IdentityRepositories, 'users' | 'memberships' | 'tenants'>) {}

  /** The user with this e-mail, created if absent, with an account in the tenant. */
  async findOrCreateIn(email: string, tenantId: number): Promise<UserRecord> {
    const { user } = await this.store.users.findOrCreate(email);
    await this.store.memberships.ensure(user._id, tenantId);
    return user;
  }

  /** The profile with the tenants of the user's memberships, by tenant id; a missing user is 401. */
  async profile(userId: number): Promise<{ user: UserRecord; tenants: TenantRecord[] }> {
    const user = userId > 0 ? await this.store.users.findById(userId) : null;
    if (!user) throw invalidCredentials();
    const tenants = await this.store.tenants.findByIds(await this.store.memberships.tenantIdsOf(user._id));
    return { user, tenants };
  }
}
