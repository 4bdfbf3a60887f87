// Reading positions over the document store, one per user and issue, a
// user's whole list cached at the user's version (user-state.ts) so that
// every replica sees another's write.
import { isDuplicateKeyError, replaceBatcherOf, type ReplaceBatcher } from '@folio/mongo';
import type { ReferenceCache } from '@folio/messaging';
import type { Model } from 'mongoose';
import { positionIdOf, type PositionKey, type PositionRepository, type UserInTenants } from '../domain/repositories.js';
import type { PositionDoc } from './schemas.js';
import { upsertById } from './upsert-by-id.js';
import { writeUserState, type AtVersion } from './user-state.js';
import type { UserVersions } from './user-versions.js';

/**
 * A user's positions, most recently read first, as the position cache keeps
 * them (see MongoPositionRepository), with the user's version they were
 * loaded at. After every write of a user's positions the version changes,
 * the entry is dropped here and `changed` tells the other replicas.
 */
export interface UserPositionsCache {
  entries: ReferenceCache<number, AtVersion<PositionDoc[]>>;
  versions: UserVersions;
  changed(userId: number): void;
}

/** Users with more positions than this are read from the store each time (their list would crowd the cache). */
const CACHED_POSITIONS_PER_USER = 500;

/**
 * With a cache, the continue-reading shelf, the settings and every position
 * check read a user's positions from memory: the first read loads all of
 * them (one query on `user_id`), and each read after asks the user's version
 * (one Redis GET, pipelined with the others of the moment), so a write
 * through any replica is seen by the next read on every one. Without the
 * version (Redis unreachable) every read goes to the store.
 */
export class MongoPositionRepository implements PositionRepository {
  /** The saves of the same moment as one command: their filters hold for the position they write, as the batcher needs. */
  private readonly upserts: ReplaceBatcher<PositionDoc>;

  constructor(
    private readonly model: Model<PositionDoc>,
    private readonly cache?: UserPositionsCache,
  ) {
    this.upserts = replaceBatcherOf(model);
  }

  async find(key: PositionKey): Promise<PositionDoc | null> {
    const id = positionIdOf(key);
    const all = await this.cachedAllOf(key.userId);
    if (all) return all.find((position) => position._id === id) ?? null;
    return this.model.findOne({ _id: id, tenant_id: key.tenantId }).lean<PositionDoc>().exec();
  }

  /** Last write wins: one document per (user, tenant, issue). */
  save(position: PositionDoc): Promise<void> {
    return writeUserState(this.cache, position.user_id, () => upsertById(this.model, position._id, position));
  }

  /**
   * Writes the position unless one with a later `read_at` is stored (the
   * domain's isNewerPosition, applied atomically by the filter), and with
   * `onlyOver` only while the stored one still has that `read_at`. False
   * when the write was refused.
   */
  async saveIfNewer(position: PositionDoc, onlyOver?: Date): Promise<boolean> {
    const filter = { _id: position._id, tenant_id: position.tenant_id, read_at: onlyOver ?? { $lte: position.read_at } };
    return writeUserState(this.cache, position.user_id, () => this.writeIfNewer(filter, position, onlyOver));
  }

  // On the driver's collection: the domain built the position, and mongoose's
  // casting of the replacement (a hydrated document per write) was a fifth of
  // reader's CPU on PUT last-location.
  private async writeIfNewer(filter: object, position: PositionDoc, onlyOver?: Date): Promise<boolean> {
    const positions = this.model.collection;
    try {
      if (onlyOver === undefined) return await this.upserts.upsert(filter, position);
      return (await positions.replaceOne(filter, position)).matchedCount > 0;
    } catch (error) {
      // The insert of the upsert collided: a position exists (stored later, or by a racing first write).
      if (!isDuplicateKeyError(error)) throw error;
      return (await positions.replaceOne(filter, position)).matchedCount > 0;
    }
  }

  /** Positions in the tenants, most recently read first. */
  async recent({ userId, tenantIds }: UserInTenants, skip: number, limit: number): Promise<{ positions: PositionDoc[]; total: number }> {
    const all = await this.cachedAllOf(userId);
    if (all) {
      const tenants = new Set(tenantIds);
      const inTenants = all.filter((position) => tenants.has(position.tenant_id));
      return { positions: inTenants.slice(skip, skip + limit), total: inTenants.length };
    }
    const filter = { user_id: userId, tenant_id: { $in: tenantIds } };
    const [positions, total] = await Promise.all([
      this.model.find(filter).sort({ read_at: -1, _id: 1 }).skip(skip).limit(limit).lean<PositionDoc[]>().exec(),
      this.model.countDocuments(filter).exec(),
    ]);
    return { positions, total };
  }

  deleteAllOf(userId: number): Promise<number> {
    return writeUserState(this.cache, userId, async () => (await this.model.deleteMany({ user_id: userId }).exec()).deletedCount);
  }

  /**
   * Every position of the user, most recently read first (as `recent` sorts),
   * or null without a cache, without the user's version or past the per-user bound.
   */
  private async cachedAllOf(userId: number): Promise<PositionDoc[] | null> {
    if (!this.cache) return null;
    const { entries, versions } = this.cache;
    const version = await versions.get(userId);
    if (version === null) return null;
    const cached = entries.peek(userId);
    if (cached?.version === version) return cached.value;
    const generation = entries.snapshot();
    const all = await this.model
      .find({ user_id: userId })
      .sort({ read_at: -1, _id: 1 })
      .limit(CACHED_POSITIONS_PER_USER + 1)
      .lean<PositionDoc[]>()
      .exec();
    if (all.length > CACHED_POSITIONS_PER_USER) return null;
    entries.setIfCurrent(userId, { version, value: all }, generation);
    return all;
  }
}
