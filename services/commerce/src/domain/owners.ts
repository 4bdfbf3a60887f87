// Who a user id is for commerce's records: the id, plus the e-mail that
// seeded (dataset) records are keyed by. identity is asked once per user;
// the answer is kept in commerce's database (e-mails never change there).
import type { Clock, Users } from './ports.js';
import type { CommerceRepositories, Owner } from './repositories.js';

export class Owners {
  constructor(
    private readonly store: CommerceRepositories,
    private readonly users: Users,
    private readonly clock: Clock,
  ) {}

  /** null for anonymous callers (user id 0): they own nothing. */
  async of(userId: number): Promise<Owner | null> {
    if (!Number.isInteger(userId) || userId <= 0) return null;
    let email = await this.store.userEmails.find(userId);
    if (!email) {
      email = await this.users.emailOf(userId);
      if (email) await this.store.userEmails.remember(userId, email, this.clock.now());
    }
    return { userId, email };
  }
}
