// Erasure of an account on request (help subject `delete-account-and-data`):
// everything identity holds about the user goes, then `account.deleted`
// tells the other services to erase theirs. Every step is idempotent, and the
// confirmation's event id is derived from the request's, so a redelivered
// request neither fails nor announces a second, different deletion.
import { createHash } from 'node:crypto';
import type { Logger } from '@folio/logger';
import { EVENT, type AccountDeletedPayload } from './events.js';
import type { EventSink } from './ports.js';
import type { Sessions } from './sessions.js';
import type { IdentityRepositories } from './repositories.js';

export class AccountEraser {
  constructor(
    private readonly store: Pick<
      IdentityRepositories,
      'users' | 'sessions' | 'refreshTokens' | 'deviceKeys' | 'memberships' | 'pushRegistrations' | 'loginCodes'
    >,
    private readonly events: EventSink,
    private readonly logger: Logger,
    private readonly sessionsOf: Pick<Sessions, 'endAllOf'>,
  ) {}

  async erase(request: { userId: number; email: string; requestId: string }): Promise<void> {
    const { store } = this;
    const user = await store.users.findById(request.userId);
    const email = user?.email ?? request.email;
    // Sessions, refresh tokens and device keys first: the user is logged out everywhere before anything else goes.
    // The gateway's liveness keys go before the store rows that name them
    // (throws when Redis refuses: the event is retried, every step is idempotent).
    await this.sessionsOf.endAllOf(request.userId);
    const sessions = await store.sessions.deleteAllOf(request.userId);
    const refreshTokens = await store.refreshTokens.deleteAllOf(request.userId);
    const deviceKeys = await store.deviceKeys.deleteAllOf(request.userId);
    const memberships = await store.memberships.deleteAllOf(request.userId);
    const pushRegistrations = await store.pushRegistrations.deleteAllOf(request.userId);
    if (email) await store.loginCodes.deleteFor(email);
    const userDeleted = await store.users.delete(request.userId);
    this.logger.info(
      {
        user_id: request.userId,
        sessions,
        refresh_tokens: refreshTokens,
        device_keys: deviceKeys,
        memberships,
        push_registrations: pushRegistrations,
        user_deleted: userDeleted,
      },
      'account erased',
    );
    await this.events.publish<AccountDeletedPayload>(
      EVENT.accountDeleted,
      { user_id: request.userId, email },
      { id: derivedEventId(request.requestId, EVENT.accountDeleted) },
    );
  }
}

/** A UUID-shaped id determined by another event's id: the same request always yields the same event. */
export function derivedEventId(sourceId: string, type: string): string {
  const hex = createHash('sha256').update(`${sourceId}\n${type}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}
