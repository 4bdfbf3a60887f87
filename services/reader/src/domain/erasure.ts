// Account deletion: everything reader keeps about a user (reader sessions, so
// their reader-tokens stop working; reader settings; reading positions).
import type { Logger } from '@folio/logger';
import type { ReaderStore } from '../data/repositories.js';

export class AccountEraser {
  constructor(
    private readonly store: ReaderStore,
    private readonly logger: Logger,
  ) {}

  /** Idempotent: erasing an unknown or already erased user does nothing. */
  async erase(userId: number): Promise<{ sessions: number; settings: number; positions: number }> {
    const sessions = await this.store.sessions.deleteAllOf(userId);
    const settings = await this.store.settings.delete(userId);
    const positions = await this.store.positions.deleteAllOf(userId);
    this.logger.info({ userId, sessions, settings, positions }, 'reader data of a deleted account erased');
    return { sessions, settings, positions };
  }
}
