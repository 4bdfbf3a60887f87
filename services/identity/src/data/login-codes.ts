// One pending login code per e-mail, stored only as a keyed hash. Each check
// of a code first takes one of its numbered attempt slots (a unique insert,
// `claimOnce`), and a correct code is used by taking its `used` slot, so
// parallel guesses never get more than the allowed attempts and a code logs
// in at most once. Implements the domain's LoginCodeRepository.
import { randomUUID } from 'node:crypto';
import { claimOnce } from '@folio/mongo';
import type { Model } from 'mongoose';
import type { LoginCodeRecord, LoginCodeRepository } from '../domain/repositories.js';
import { isDuplicateKey, type LoginCodeDoc, type LoginCodeSlotDoc } from './schemas.js';

/** Slots outlive their code by this much, so that a check still in flight cannot find them gone. */
const SLOT_GRACE_MS = 5 * 60_000;

export class MongoLoginCodeRepository implements LoginCodeRepository {
  constructor(
    private readonly model: Model<LoginCodeDoc>,
    private readonly slots: Model<LoginCodeSlotDoc>,
  ) {}

  /** Stores a new code for the e-mail, replacing any previous one (a new code_id starts with no attempts). */
  async replace(email: string, hash: string, expiresAt: Date): Promise<void> {
    const fields = { code_id: randomUUID(), hash, expires_at: expiresAt, attempts: 0, created_at: new Date() };
    try {
      await this.model.updateOne({ email }, { $set: fields }, { upsert: true }).exec();
    } catch (error) {
      // Two first inits for one address raced on the unique e-mail: the other one inserted, we overwrite.
      if (!isDuplicateKey(error)) throw error;
      await this.model.updateOne({ email }, { $set: fields }).exec();
    }
    // Slots are never deleted while their code could still be checked (that would hand them out
    // again); those of codes long expired are swept here, an indexed range delete.
    await this.slots.deleteMany({ code_expires_at: { $lt: new Date(Date.now() - SLOT_GRACE_MS) } }).exec();
  }

  async find(email: string): Promise<LoginCodeDoc | null> {
    return this.model.findOne({ email }).lean<LoginCodeDoc>().exec();
  }

  /** Takes the next free attempt slot of a code: its number, or null when all are taken. */
  async takeAttempt(code: LoginCodeRecord, maxAttempts: number): Promise<number | null> {
    for (let n = 1; n <= maxAttempts; n++) {
      if (await this.takeSlot(code, String(n))) {
        await this.model.updateOne({ code_id: code.code_id }, { $max: { attempts: n } }).exec();
        return n;
      }
    }
    return null;
  }

  /** Uses a code: true for exactly one caller; the code is gone afterwards. */
  async consume(code: LoginCodeRecord): Promise<boolean> {
    if (!(await this.takeSlot(code, 'used'))) return false;
    await this.model.deleteOne({ email: code.email, code_id: code.code_id }).exec();
    return true;
  }

  /** Erasure: the pending code of an address and its slots. */
  async deleteFor(email: string): Promise<void> {
    const pending = await this.find(email);
    await this.model.deleteMany({ email }).exec();
    if (pending) await this.slots.deleteMany({ code_id: pending.code_id }).exec();
  }

  private takeSlot(code: LoginCodeRecord, slot: string): Promise<boolean> {
    return claimOnce(this.slots.db, this.slots.collection.collectionName, `${code.code_id}:${slot}`, {
      code_id: code.code_id,
      code_expires_at: code.expires_at,
    });
  }
}
