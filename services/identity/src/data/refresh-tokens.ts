// Refresh tokens, stored only as SHA-256 hashes. A rotation is the insert of
// the successor token, unique on its parent's hash: of any number of
// concurrent refreshes with one token exactly one insert succeeds.
// Implements the domain's RefreshTokenRepository.
import type { Model } from 'mongoose';
import type { RefreshTokenRecord, RefreshTokenRepository } from '../domain/repositories.js';
import { isDuplicateKey, type RefreshTokenDoc } from './schemas.js';

export class MongoRefreshTokenRepository implements RefreshTokenRepository {
  constructor(private readonly model: Model<RefreshTokenDoc>) {}

  /** Inserts a token; false when its parent already has a successor (a lost rotation race). */
  async insert(token: RefreshTokenRecord): Promise<boolean> {
    try {
      await this.model.collection.insertOne({ ...token } as never);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async findByHash(hash: string): Promise<RefreshTokenDoc | null> {
    return this.model.findOne({ hash }).lean<RefreshTokenDoc>().exec();
  }

  async findSuccessor(parentHash: string): Promise<RefreshTokenDoc | null> {
    return this.model.findOne({ parent_hash: parentHash }).lean<RefreshTokenDoc>().exec();
  }

  async markRotated(hash: string, now: Date): Promise<void> {
    await this.model.updateOne({ hash, status: 'active' }, { $set: { status: 'rotated', rotated_at: now } }).exec();
  }

  /** Kills every token of the family that could still be used or replayed. */
  async revokeFamily(familyId: string): Promise<void> {
    await this.revokeFamilies([familyId]);
  }

  /**
   * One update per family, on its indexed `family_id`: with `family_id: {$in}`
   * FerretDB sent PostgreSQL only `status <> 'revoked'`, every token of every
   * user (an eviction at 60,000 refresh tokens took over 2 s).
   */
  async revokeFamilies(familyIds: string[]): Promise<void> {
    await Promise.all(
      familyIds.map((familyId) => this.model.updateMany({ family_id: familyId, status: { $ne: 'revoked' } }, { $set: { status: 'revoked' } }).exec()),
    );
  }

  async deleteAllOf(userId: number): Promise<number> {
    return (await this.model.deleteMany({ user_id: userId }).exec()).deletedCount;
  }
}
