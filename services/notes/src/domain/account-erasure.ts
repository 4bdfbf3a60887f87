// account.deleted: the user's notes go, in every tenant and issue. Deleting
// is idempotent, so a redelivered event is harmless.
import type { Logger } from '@folio/logger';
import type { NoteRepository } from './repositories.js';

export class AccountEraser {
  constructor(
    private readonly repository: NoteRepository,
    private readonly logger: Logger,
  ) {}

  async erase(userId: number): Promise<number> {
    const notes = await this.repository.deleteAllOf(userId);
    this.logger.info({ user_id: userId, notes }, 'account erased from notes');
    return notes;
  }
}
