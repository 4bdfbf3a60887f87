// A user's reader settings over the document store, cached at the user's
// version (user-state.ts) so that every replica sees another's write.
import type { ReferenceCache } from '@folio/messaging';
import type { Model } from 'mongoose';
import type { UserSettingsRepository } from '../domain/repositories.js';
import type { UserSettingsDoc } from './schemas.js';
import { upsertById } from './upsert-by-id.js';
import { writeUserState, type AtVersion } from './user-state.js';
import type { UserVersions } from './user-versions.js';

/**
 * A user's reader settings as the settings cache keeps them: every
 * GET /reader/settings reads them, a PUT is rare. After every write the
 * user's version changes (`versions`, shared by every replica), the entry is
 * dropped here and `changed` tells the other replicas (the same announcement
 * as positions: a user's reading state changed).
 */
export interface UserSettingsCache {
  /** null: the user has saved none (most users), cached too: the writes that change it change the version. */
  entries: ReferenceCache<number, AtVersion<UserSettingsDoc | null>>;
  versions: UserVersions;
  changed(userId: number): void;
}

export class MongoUserSettingsRepository implements UserSettingsRepository {
  constructor(
    private readonly model: Model<UserSettingsDoc>,
    private readonly cache?: UserSettingsCache,
  ) {}

  async find(userId: number): Promise<UserSettingsDoc | null> {
    const load = () => this.model.findOne({ _id: userId }).lean<UserSettingsDoc>().exec();
    if (!this.cache) return load();
    const { entries, versions } = this.cache;
    const version = await versions.get(userId);
    if (version === null) return load();
    const cached = entries.peek(userId);
    if (cached?.version === version) return cached.value;
    const generation = entries.snapshot();
    const settings = await load();
    entries.setIfCurrent(userId, { version, value: settings }, generation);
    return settings;
  }

  save(settings: UserSettingsDoc): Promise<void> {
    return writeUserState(this.cache, settings._id, () => upsertById(this.model, settings._id, settings));
  }

  delete(userId: number): Promise<number> {
    return writeUserState(this.cache, userId, async () => (await this.model.deleteOne({ _id: userId }).exec()).deletedCount);
  }
}
