// The reader database behind one object: the domain's repository interfaces
// (domain/repositories.ts) over the document store, one module per
// aggregate, with this replica's caches. Results are plain objects.
import { ensureIndexes, type Connection } from '@folio/mongo';
import type { ReaderRepositories } from '../domain/repositories.js';
import { MongoManifestRepository, type ManifestCache } from './manifests.js';
import { MongoPositionRepository, type UserPositionsCache } from './positions.js';
import { readerModels } from './schemas.js';
import { MongoSessionRepository, type SessionCache } from './sessions.js';
import { MongoUserSettingsRepository, type UserSettingsCache } from './user-settings.js';

export type { ManifestCache, SessionCache, UserPositionsCache, UserSettingsCache };

/** The domain's repositories as this service wires them, plus what the caches need (MongoSessionRepository.forget). */
export interface MongoReaderRepositories extends ReaderRepositories {
  manifests: MongoManifestRepository;
  sessions: MongoSessionRepository;
  settings: MongoUserSettingsRepository;
  positions: MongoPositionRepository;
}

/** The service's caches (seeds and tools read the store). */
export async function openReaderRepositories(
  connection: Connection,
  caches: { positions?: UserPositionsCache; settings?: UserSettingsCache; manifests?: ManifestCache; sessions?: SessionCache } = {},
): Promise<MongoReaderRepositories> {
  const models = readerModels(connection);
  await ensureIndexes(connection);
  return {
    manifests: new MongoManifestRepository(models.manifests, models.structures, caches.manifests),
    sessions: new MongoSessionRepository(connection, models.sessions, models.snapshots, caches.sessions),
    settings: new MongoUserSettingsRepository(models.settings, caches.settings),
    positions: new MongoPositionRepository(models.positions, caches.positions),
  };
}
