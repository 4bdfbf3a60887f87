// Mobile sessions: one per access token (jti). A login starts a token family;
// every refresh ends the family's current session (`rotated`) and starts the
// next, so a family has at most one live session. Implements the domain's
// SessionRepository.
import type { Model } from 'mongoose';
import type { SessionRecord, SessionRepository } from '../domain/repositories.js';
import type { SessionDoc, SessionStatus } from './schemas.js';

export class MongoSessionRepository implements SessionRepository {
  constructor(private readonly model: Model<SessionDoc>) {}

  async create(session: SessionRecord): Promise<void> {
    await this.model.collection.insertOne({ ...session } as never);
  }

  /** The hot path of every authenticated request: one lookup on the unique jti index. */
  async findByJti(jti: string): Promise<SessionDoc | null> {
    return this.model.findOne({ jti }).lean<SessionDoc>().exec();
  }

  /** Moves a session from `active` to `status`; false when it was no longer active. */
  async endIfActive(jti: string, status: Exclude<SessionStatus, 'active'>): Promise<boolean> {
    return (await this.model.updateOne({ jti, status: 'active' }, { $set: { status } }).exec()).modifiedCount === 1;
  }

  async setStatus(jti: string, status: SessionStatus): Promise<void> {
    await this.model.updateOne({ jti }, { $set: { status } }).exec();
  }

  /** Logs out every still-live session with this jti; returns their families. */
  async logout(jti: string): Promise<string[]> {
    const sessions = await this.model.find({ jti }, { family_id: 1 }).lean<SessionDoc[]>().exec();
    await this.model.updateMany({ jti, status: { $in: ['active', 'rotated'] } }, { $set: { status: 'logged_out' } }).exec();
    return sessions.map((session) => session.family_id);
  }

  async logoutFamily(familyId: string): Promise<void> {
    await this.model.updateMany({ family_id: familyId, status: { $in: ['active', 'rotated'] } }, { $set: { status: 'logged_out' } }).exec();
  }

  /** Live sessions of a user, newest login first. */
  async activeOf(userId: number, now: Date): Promise<SessionDoc[]> {
    return this.model
      .find({ user_id: userId, status: 'active', expires_at: { $gt: now } })
      .sort({ login_at: -1, created_at: -1 })
      .lean<SessionDoc[]>()
      .exec();
  }

  /** The live sessions of a token family (at most one, unless a race left two). */
  async activeOfFamily(familyId: string): Promise<SessionDoc[]> {
    return this.model.find({ family_id: familyId, status: 'active' }).lean<SessionDoc[]>().exec();
  }

  /**
   * One update per jti (a user has at most a few over the limit): with
   * `jti: {$in}` the only condition FerretDB sends to PostgreSQL is
   * `status: 'active'`, which matched every live session of every user (a
   * login at 60,000 sessions took over 2 s).
   */
  async evict(jtis: string[]): Promise<void> {
    await Promise.all(jtis.map((jti) => this.model.updateOne({ jti, status: 'active' }, { $set: { status: 'evicted' } }).exec()));
  }

  async deleteAllOf(userId: number): Promise<number> {
    return (await this.model.deleteMany({ user_id: userId }).exec()).deletedCount;
  }
}
