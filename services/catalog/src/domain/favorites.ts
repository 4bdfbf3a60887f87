// Favorites per user, tenant and issue (GET state, POST toggle). The issue
// must exist in the tenant: another tenant's issue is as missing as an
// unknown one. A toggle is linearizable on FerretDB as on MongoDB: it is
// either the unique insert of the favorite or the delete of it, and retries
// when a concurrent toggle changed the state in between.
import { notFound } from '@folio/errors';
import type { CatalogView } from './catalog-view.js';
import type { FavoriteKey, FavoriteRepository, IssueRepository } from './repositories.js';

const TOGGLE_ATTEMPTS = 10;

export class Favorites {
  constructor(
    private readonly deps: {
      view: CatalogView;
      favorites: FavoriteRepository;
      issues: Pick<IssueRepository, 'findInTenant'>;
    },
  ) {}

  async isFavorite(key: FavoriteKey): Promise<boolean> {
    await this.ensureIssue(key);
    return this.deps.favorites.exists(key);
  }

  /** Flips the flag; returns the state after this call's flip. */
  async toggle(key: FavoriteKey): Promise<boolean> {
    await this.ensureIssue(key);
    const { favorites } = this.deps;
    for (let attempt = 0; attempt < TOGGLE_ATTEMPTS; attempt++) {
      if (await favorites.add(key)) return true;
      if (await favorites.remove(key)) return false;
      // Someone removed it between our insert and our delete: the state is "not a favorite" again, try once more.
    }
    throw new Error('favorite toggle did not settle under contention');
  }

  /** Account erasure (account.deleted): every favorite of the user in every tenant. */
  async eraseUser(userId: number): Promise<number> {
    return this.deps.favorites.deleteAllOf(userId);
  }

  private async ensureIssue(key: FavoriteKey): Promise<void> {
    // The view answers at once; an issue written by another replica moments ago is found in MongoDB.
    if (this.deps.view.issue(key.tenant_id, key.issue_id)) return;
    if (await this.deps.issues.findInTenant(key.tenant_id, key.issue_id)) return;
    throw notFound('Issue not found.');
  }
}
