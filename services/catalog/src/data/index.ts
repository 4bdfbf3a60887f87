// The catalog database behind one object: models registered, indexes built,
// a repository per aggregate, each implementing the interface the domain
// declares for it (domain/repositories.ts).
import { ensureIndexes, type Connection } from '@folio/mongo';
import { CollectionRepository } from './collections.js';
import { FavoriteRepository, type FavoriteCache } from './favorites.js';
import { IssueRepository } from './issues.js';
import { catalogModels } from './schemas.js';

export * from './schemas.js';
export { collectionId } from './collections.js';
export { forgetFavoritesOf, type FavoriteCache } from './favorites.js';
export type { CollectionRepository, FavoriteRepository, IssueRepository };

export interface CatalogStore {
  issues: IssueRepository;
  collections: CollectionRepository;
  favorites: FavoriteRepository;
}

export async function openCatalogStore(connection: Connection, caches: { favorites?: FavoriteCache } = {}): Promise<CatalogStore> {
  const models = catalogModels(connection);
  await ensureIndexes(connection);
  return {
    issues: new IssueRepository(models.issues, models.counters),
    collections: new CollectionRepository(models.collections),
    favorites: new FavoriteRepository(models.favorites, caches.favorites),
  };
}
