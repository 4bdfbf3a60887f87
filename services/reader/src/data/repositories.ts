// Repositories of the reader database: the domain's repository interfaces
// (domain/repositories.ts) over the document store, with this replica's caches.
// Every read of tenant content names the tenant; user data is keyed by user.
// Results are plain objects.
import {
  deleteExpired,
  ensureIndexes,
  insertBatcherOf,
  isDuplicateKeyError,
  type InsertBatcher,
  nextSequence,
  replaceBatcherOf,
  type ReplaceBatcher,
  type Connection,
} from '@folio/mongo';
import type { ReferenceCache } from '@folio/messaging';
import type { Model } from 'mongoose';
import {
  positionIdOf,
  type ManifestRepository,
  type PositionRepository,
  type ReaderStore,
  type SessionRepository,
  type UserSettingsRepository,
} from '../domain/repositories.js';
import {
  readerModels,
  type ManifestDoc,
  type PositionDoc,
  type SessionDoc,
  type SnapshotDoc,
  type StoredSessionDoc,
  type StructureDoc,
  type UserSettingsDoc,
} from './schemas.js';
import type { UserVersions } from './user-versions.js';

type ManifestSummary = Omit<ManifestDoc, 'epub' | 'pdf' | 'audio'>;

/**
 * Manifests change only when content is ingested, which is rare and usually
 * another process (the seed): with a cache, sessions, settings and searches
 * read them from memory; an ingest in this process drops the entry, one in
 * another process shows within the cache's TTL. Absent manifests are never
 * cached.
 */
export interface ManifestCache {
  summaries: ReferenceCache<string, ManifestSummary>;
  structures: ReferenceCache<string, StructureDoc>;
  /** Cover keys by issue id: every cover request asks, by a field FerretDB cannot look up without reading every manifest. */
  coverKeys?: ReferenceCache<number, string>;
}

export class MongoManifestRepository implements ManifestRepository {
  constructor(
    private readonly model: Model<ManifestSummary>,
    private readonly structures: Model<StructureDoc>,
    private readonly cache?: ManifestCache,
  ) {}

  /** The whole manifest, structure included. */
  async find(tenantId: number, issueId: number): Promise<ManifestDoc | null> {
    const summary = await this.findSummary(tenantId, issueId);
    if (!summary) return null;
    const loadStructure = () => this.structures.findOne({ _id: summary._id }).lean<StructureDoc>().exec();
    const structure = await readThroughCache(this.cache?.structures, summary._id, loadStructure);
    return { ...summary, epub: structure?.epub ?? null, pdf: structure?.pdf ?? null, audio: structure?.audio ?? null };
  }

  /** The manifest without its structure (`epub`, `pdf`, `audio` null): type, keys, text index. */
  async findSummary(tenantId: number, issueId: number): Promise<ManifestDoc | null> {
    const id = `${tenantId}:${issueId}`;
    const summary = await readThroughCache(this.cache?.summaries, id, () =>
      this.model.findOne({ _id: id, tenant_id: tenantId, issue_id: issueId }).lean<ManifestSummary>().exec(),
    );
    return summary ? { ...summary, epub: null, pdf: null, audio: null } : null;
  }

  /** Cover lookups by issue id alone (the catalog's cover URL template has no tenant). */
  async coverKeyOf(issueId: number): Promise<string | null> {
    const load = async () => {
      const found = await this.model.findOne({ issue_id: issueId }, { cover_key: 1 }).lean<Pick<ManifestDoc, 'cover_key'>>().exec();
      return found?.cover_key ?? null;
    };
    return this.cache?.coverKeys ? this.cache.coverKeys.getPresent(issueId, load) : load();
  }

  /** Structure first: a summary is never visible without its structure. */
  async save(manifest: ManifestDoc): Promise<void> {
    const { epub, pdf, audio, ...summary } = manifest;
    await upsertById(this.structures, manifest._id, { _id: manifest._id, epub, pdf, audio });
    await upsertById(this.model, manifest._id, summary);
    this.cache?.summaries.delete(manifest._id);
    this.cache?.structures.delete(manifest._id);
    this.cache?.coverKeys?.delete(manifest.issue_id);
  }
}

/**
 * Sessions that exist, by id, as the session cache keeps them: every route
 * that takes a reader-token checks that its session still exists. A session
 * ends only through this service (v1 DELETE, erasure); `ended` runs after the
 * entry is dropped here and tells the other replicas (sessions.ended).
 */
export interface SessionCache {
  entries: ReferenceCache<number, Omit<SessionDoc, 'snapshot'>>;
  ended(change: { sessionId?: number; userId?: number }): void;
}

/**
 * A snapshot up to this many bytes of JSON rides in its session's document:
 * opening a session is then one insert, not two (measured with
 * `pnpm bench:api -- --only=sessions`: 5-15 % less CPU in docdb and
 * PostgreSQL per opening, against the gateway's as the yardstick on a noisy
 * machine). A larger one (a PDF's page list) is stored apart, in
 * `reader_session_snapshots`, so that reading a session, which every uncached
 * reader-token check does, never reads a large document: FerretDB took
 * 50-100 ms for one of 1,000 page entries.
 */
export const INLINE_SNAPSHOT_MAX_BYTES = 8 * 1024;

/**
 * A snapshot is stored as its JSON text: nothing ever queries inside it, and
 * as a string it is one value for the store to write instead of a tree. On
 * FerretDB every nested field and array item also gets an entry in the
 * document's type schema (`$s`), which made an audiobook's session 2.2 KB of
 * JSON, two thirds of it schema, so PostgreSQL parsed all of it and then
 * compressed the row (over its 2 KB TOAST threshold). As text, CPU per opened
 * session fell in docdb 105-114 -> 67-71 µs and in PostgreSQL 90-95 -> 58-62
 * µs (alternated `pnpm bench:api -- --only=sessions` runs, `/proc`).
 * Snapshots stored before 2026-11-27 are documents, and read as they are.
 */
function snapshotOf(stored: string | Record<string, unknown>): Record<string, unknown> {
  return typeof stored === 'string' ? (JSON.parse(stored) as Record<string, unknown>) : stored;
}

/** Everything of a session document but its snapshot: what a reader-token check reads. */
const WITHOUT_SNAPSHOT = { snapshot: 0 } as const;

export class MongoSessionRepository implements SessionRepository {
  // Sessions opened at the same moment are stored together (group commit, @folio/mongo).
  private readonly sessionInserts: InsertBatcher<StoredSessionDoc>;
  private readonly snapshotInserts: InsertBatcher<SnapshotDoc>;

  constructor(
    private readonly connection: Connection,
    private readonly model: Model<StoredSessionDoc>,
    private readonly snapshots: Model<SnapshotDoc>,
    private readonly cache?: SessionCache,
    private readonly inlineSnapshotMaxBytes = INLINE_SNAPSHOT_MAX_BYTES,
  ) {
    this.sessionInserts = insertBatcherOf(model);
    this.snapshotInserts = insertBatcherOf(snapshots);
  }

  /** Drops sessions from this replica's cache: one, every one of a user, or all (another replica ended them). */
  forget(change: { sessionId?: number; userId?: number } = {}): void {
    const entries = this.cache?.entries;
    if (!entries) return;
    if (change.sessionId !== undefined) entries.delete(change.sessionId);
    else if (change.userId !== undefined) entries.deleteWhere((_id, session) => session.user_id === change.userId);
    else entries.clear();
  }

  nextId(): Promise<number> {
    return nextSequence(this.connection, 'reader_sessions');
  }

  /**
   * One document when the snapshot is small (INLINE_SNAPSHOT_MAX_BYTES), else
   * both at once: one store round trip, not two; the snapshot as its JSON
   * text (snapshotOf). Neither is reachable before the caller answers with
   * the session's token and public id, so a failure of either leaves at most
   * an unreachable document, never a session seen without its snapshot.
   */
  async create(session: SessionDoc): Promise<void> {
    const { snapshot, ...fields } = session;
    const text = JSON.stringify(snapshot);
    if (Buffer.byteLength(text) <= this.inlineSnapshotMaxBytes) return this.sessionInserts.insert({ ...fields, snapshot: text });
    await Promise.all([this.snapshotInserts.insert({ _id: session._id, snapshot: text, expires_at: session.expires_at }), this.sessionInserts.insert(fields)]);
  }

  async extend(id: number, expiresAt: Date): Promise<void> {
    const later = { $max: { expires_at: expiresAt } };
    await Promise.all([this.model.updateOne({ _id: id }, later).exec(), this.snapshots.updateOne({ _id: id }, later).exec()]);
    this.forget({ sessionId: id });
  }

  /**
   * A scan of both collections, on FerretDB (a range filter is not pushed
   * down) and on MongoDB (no index on `expires_at`: every session insert
   * would pay for it), which is why it runs hourly, in the background.
   */
  async pruneExpired(before: Date): Promise<number> {
    const sessions = await deleteExpired(this.model, 'expires_at', before);
    // Snapshots stored apart before they carried expires_at are not matched, and stay.
    await deleteExpired(this.snapshots, 'expires_at', before);
    return sessions;
  }

  /** The session without its snapshot: what a reader-token check needs; from memory when cached (an absent one is always asked). */
  async find(id: number): Promise<Omit<SessionDoc, 'snapshot'> | null> {
    return readThroughCache(this.cache?.entries, id, () => this.model.findOne({ _id: id }, WITHOUT_SNAPSHOT).lean<Omit<SessionDoc, 'snapshot'>>().exec());
  }

  /** By the public id of the v1 session routes. */
  async findByPublicId(publicId: string): Promise<Omit<SessionDoc, 'snapshot'> | null> {
    return this.model.findOne({ public_id: publicId }, WITHOUT_SNAPSHOT).lean<Omit<SessionDoc, 'snapshot'>>().exec();
  }

  async findWithSnapshot(id: number): Promise<SessionDoc | null> {
    const session = await this.model.findOne({ _id: id }).lean<StoredSessionDoc>().exec();
    if (!session) return null;
    if (session.snapshot) return { ...session, snapshot: snapshotOf(session.snapshot) };
    // Stored apart: a large one, or one of a session opened before small snapshots rode inline.
    const apart = await this.snapshots.findOne({ _id: id }).lean<SnapshotDoc>().exec();
    return { ...session, snapshot: apart ? snapshotOf(apart.snapshot) : {} };
  }

  /** Deletes and returns the session; null when it was already gone. */
  async delete(id: number): Promise<SessionDoc | null> {
    const found = await this.findWithSnapshot(id);
    if (!found) return null;
    try {
      const { deletedCount } = await this.model.deleteOne({ _id: id }).exec();
      await this.snapshots.deleteOne({ _id: id }).exec();
      return deletedCount === 1 ? found : null;
    } finally {
      this.forget({ sessionId: id });
      this.cache?.ended({ sessionId: id });
    }
  }

  async idsOf(userId: number): Promise<number[]> {
    return (await this.model.find({ user_id: userId }, { _id: 1 }).lean<{ _id: number }[]>().exec()).map((session) => session._id);
  }

  async deleteAllOf(userId: number): Promise<number> {
    try {
      const ids = await this.idsOf(userId);
      const { deletedCount } = await this.model.deleteMany({ user_id: userId }).exec();
      if (ids.length) await this.snapshots.deleteMany({ _id: { $in: ids } }).exec();
      return deletedCount;
    } finally {
      this.forget({ userId });
      this.cache?.ended({ userId });
    }
  }
}

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

/** A cached value and the user's version (UserVersions) it was loaded at: served only while that version is current. */
export interface AtVersion<V> {
  version: string;
  value: V;
}

/**
 * Runs a write of a user's reading state, then outdates what every replica
 * cached of it, also when the write failed after it may have applied: the
 * new version first, so that once the write is answered no replica serves
 * what it loaded before; then this replica's entry and the broadcast, which
 * only free memory sooner.
 */
async function writeUserState<T>(cache: UserSettingsCache | UserPositionsCache | undefined, userId: number, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    if (cache) {
      await cache.versions.bump(userId);
      cache.entries.delete(userId);
      cache.changed(userId);
    }
  }
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

  async find(userId: number, tenantId: number, issueId: number): Promise<PositionDoc | null> {
    const id = positionIdOf(userId, tenantId, issueId);
    const all = await this.cachedAllOf(userId);
    if (all) return all.find((position) => position._id === id) ?? null;
    return this.model.findOne({ _id: id }).lean<PositionDoc>().exec();
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
    const filter = { _id: position._id, read_at: onlyOver ?? { $lte: position.read_at } };
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
  async recent(userId: number, tenantIds: number[], skip: number, limit: number): Promise<{ positions: PositionDoc[]; total: number }> {
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

/**
 * Replace-or-insert by _id. Two first-ever upserts of one id can race into a
 * duplicate key error (the unique _id decides); the loser then replaces the
 * winner's document, so the last write still wins.
 */
async function upsertById<T extends { _id: unknown }>(model: Model<T>, id: T['_id'], document: T): Promise<void> {
  try {
    await model.replaceOne({ _id: id } as never, document as never, { upsert: true }).exec();
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    await model.replaceOne({ _id: id } as never, document as never).exec();
  }
}

/** The store as this service wires it: the domain's repositories, plus what the caches need (MongoSessionRepository.forget). */
export interface MongoReaderStore extends ReaderStore {
  manifests: MongoManifestRepository;
  sessions: MongoSessionRepository;
  settings: MongoUserSettingsRepository;
  positions: MongoPositionRepository;
}

/** Through `cache` when the repository has one (the service's own store), else straight to the store. */
function readThroughCache<K, V>(cache: ReferenceCache<K, V> | undefined, key: K, load: () => Promise<V | null>): Promise<V | null> {
  return cache ? cache.getPresent(key, load) : load();
}

/** The service's caches (seeds and tools read the store). */
export async function openReaderStore(
  connection: Connection,
  caches: { positions?: UserPositionsCache; settings?: UserSettingsCache; manifests?: ManifestCache; sessions?: SessionCache } = {},
): Promise<MongoReaderStore> {
  const models = readerModels(connection);
  await ensureIndexes(connection);
  return {
    manifests: new MongoManifestRepository(models.manifests, models.structures, caches.manifests),
    sessions: new MongoSessionRepository(connection, models.sessions, models.snapshots, caches.sessions),
    settings: new MongoUserSettingsRepository(models.settings, caches.settings),
    positions: new MongoPositionRepository(models.positions, caches.positions),
  };
}
