// The catalog database behind one object: models registered, indexes built,
// a repository per aggregate, each implementing the interface the domain
// declares for it (domain/repositories.ts).
import { ensureIndexes, type Connection } from '@folio/mongo';
import { MongoCollectionRepository } from './collections.js';
import { MongoFavoriteRepository, type FavoriteCache } from './favorites.js';
import { MongoIssueRepository } from './issues.js';
import { catalogModels } from './schemas.js';

export * from './schemas.js';
export { collectionId } from './collections.js';
export { forgetFavoritesOf, type FavoriteCache } from './favorites.js';
export type { MongoCollectionRepository, MongoFavoriteRepository, MongoIssueRepository };

export interface MongoCatalogRepositories {
  issues: MongoIssueRepository;
  collections: MongoCollectionRepository;
  favorites: MongoFavoriteRepository;
}

export async function openCatalogRepositories(connection: Connection, caches: { favorites?: FavoriteCache } = {}): Promise<MongoCatalogRepositories> {
  const models = catalogModels(connection);
  await ensureIndexes(connection);
  return {
    issues: new MongoIssueRepository(models.issues, models.counters),
    collections: new MongoCollectionRepository(models.collections),
    favorites: new MongoFavoriteRepository(models.favorites, caches.favorites),
  };
}
