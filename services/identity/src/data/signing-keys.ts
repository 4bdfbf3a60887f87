// Access-token signing keys. One key is active; keys that signed tokens that
// may still be alive stay published in the JWKS until they are retired.
// Implements the domain's SigningKeyRepository.
import type { Model } from 'mongoose';
import type { SigningKeyRecord, SigningKeyRepository } from '../domain/repositories.js';
import type { SigningKeyDoc } from './schemas.js';

export class MongoSigningKeyRepository implements SigningKeyRepository {
  constructor(private readonly model: Model<SigningKeyDoc>) {}

  /** The newest active key (two replicas starting at once may both create one; either is valid). */
  async active(): Promise<SigningKeyDoc | null> {
    return this.model.findOne({ active: true }).sort({ created_at: -1 }).lean<SigningKeyDoc>().exec();
  }

  async insert(key: SigningKeyRecord): Promise<void> {
    await this.model.collection.insertOne({ ...key } as never);
  }

  /** Deactivates every other key: they keep verifying, no longer signing. */
  async deactivateAllBut(kid: string, now: Date): Promise<void> {
    await this.model.updateMany({ kid: { $ne: kid }, active: true }, { $set: { active: false, deactivated_at: now } }).exec();
  }

  /** Retires keys deactivated before `before`: every token they signed has expired. */
  async retireDeactivatedBefore(before: Date, now: Date): Promise<void> {
    await this.model.updateMany({ active: false, retired_at: null, deactivated_at: { $lt: before } }, { $set: { retired_at: now } }).exec();
  }

  async published(): Promise<SigningKeyDoc[]> {
    return this.model.find({ retired_at: null }).sort({ created_at: -1 }).lean<SigningKeyDoc[]>().exec();
  }
}
