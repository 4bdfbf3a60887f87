// Account deletion: everything reader keeps about a user (reader sessions, so
// their reader-tokens stop working; reader settings; reading positions;
// KOReader progress records; OPDS progression documents).
import type { Logger } from '@folio/logger';
import type { KosyncProgress } from './kosync.js';
import type { OpdsProgressions } from './progression.js';
import type { ReaderSessions } from './sessions.js';
import type { ReaderRepositories } from './repositories.js';

export class AccountEraser {
  constructor(
    private readonly store: ReaderRepositories,
    private readonly sessions: Pick<ReaderSessions, 'deleteAllOf'>,
    private readonly logger: Logger,
    private readonly kosync?: Pick<KosyncProgress, 'eraseUser'>,
    private readonly progressions?: Pick<OpdsProgressions, 'eraseUser'>,
  ) {}

  /** Idempotent: erasing an unknown or already erased user does nothing. Throws (the consumer retries) when the sessions' end cannot be announced. */
  async erase(userId: number): Promise<{ sessions: number; settings: number; positions: number }> {
    const sessions = await this.sessions.deleteAllOf(userId);
    const settings = await this.store.settings.delete(userId);
    const positions = await this.store.positions.deleteAllOf(userId);
    const koreader = (await this.kosync?.eraseUser(userId)) ?? 0;
    const opds = (await this.progressions?.eraseUser(userId)) ?? 0;
    this.logger.info({ userId, sessions, settings, positions, koreader, opds }, 'reader data of a deleted account erased');
    return { sessions, settings, positions };
  }
}
