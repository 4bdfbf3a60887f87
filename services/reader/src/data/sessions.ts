// Reader sessions over the document store: the session documents, their
// snapshots (inline when small, else apart) and this replica's cache of the
// sessions that exist.
import { deleteExpired, insertBatcherOf, type InsertBatcher, nextSequence, type Connection } from '@folio/mongo';
import type { ReferenceCache } from '@folio/messaging';
import type { Model } from 'mongoose';
import type { PublicSessionKey, SessionRepository } from '../domain/repositories.js';
import { readThroughCache } from './read-through-cache.js';
import type { SessionDoc, SnapshotDoc, StoredSessionDoc } from './schemas.js';

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
 * compressed the row (over its 2 KB TOAST threshold); as text, opening a
 * session costs both about a third less CPU (bench/api HISTORY.md).
 * Snapshots an earlier version stored are documents, and read as they are.
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

  /** By the public id of the v1 session routes, within the tenant (the index on `public_id` still finds it). */
  async findByPublicId(key: PublicSessionKey): Promise<Omit<SessionDoc, 'snapshot'> | null> {
    return this.model.findOne({ public_id: key.publicId, tenant_id: key.tenantId }, WITHOUT_SNAPSHOT).lean<Omit<SessionDoc, 'snapshot'>>().exec();
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
