// account.deleted: commerce erases what it holds about the user. Web sessions
// (with their carts), subscriptions, non-purchase grants and the cached e-mail go.
// Orders are financial records (bookkeeping law outlives the account): they
// stay, anonymized (no user id), and so do their purchase grants, revoked and
// without user or e-mail. Every step is idempotent, so a redelivery is harmless.
// Then access.changed tells every reader to drop the user's cached access.
import type { Logger } from '@folio/logger';
import { ACCESS_CHANGED, type AccessChangedPayload } from '@folio/messaging';
import { derivedEventId } from './event-ids.js';
import type { Clock, EventSink } from './ports.js';
import type { CommerceRepositories } from './repositories.js';

export class AccountEraser {
  constructor(
    private readonly store: CommerceRepositories,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly events: EventSink,
  ) {}

  async erase(request: { userId: number; email: string | null }): Promise<void> {
    const { store } = this;
    const now = this.clock.now();
    const email = request.email?.trim().toLowerCase() || (await store.userEmails.find(request.userId));
    const owner = { userId: request.userId, email };
    const sessions = await store.webSessions.deleteAllOf(request.userId);
    const subscriptions = await store.subscriptions.deleteOwner(owner);
    const grants = await store.grants.eraseOwner(owner, now);
    const orders = await store.orders.anonymizeUser(request.userId, now);
    await store.userEmails.forget(request.userId);
    // Grants were revoked and plans deleted in every tenant: readers drop whatever they cached for the user.
    await this.events.publish<AccessChangedPayload>(
      ACCESS_CHANGED,
      { user_id: request.userId },
      { id: derivedEventId(`account-erasure:${request.userId}`, ACCESS_CHANGED) },
    );
    this.logger.info(
      {
        user_id: request.userId,
        web_sessions: sessions,
        subscriptions,
        grants_deleted: grants.deleted,
        grants_anonymized: grants.anonymized,
        orders_anonymized: orders,
      },
      'account erased from commerce',
    );
  }
}
