// OPDS Progression documents as the apps sent them, one per reading position
// (the position's `_id`), beside the positions rather than inside them: every
// other save of a position (API, KOReader) replaces the position document and
// leaves this one describing an older `read_at`, which is how the domain
// knows it no longer applies (domain/progression.ts).
import { isDuplicateKeyError, modelOn, type Connection } from '@folio/mongo';
import { Schema, type Model } from 'mongoose';
import type { ProgressionRecord, ProgressionRepository } from '../domain/progression.js';

export class MongoProgressionRepository implements ProgressionRepository {
  private readonly model: Model<ProgressionRecord>;

  constructor(connection: Connection) {
    const schema = new Schema<ProgressionRecord>(
      { _id: String, user_id: Number, read_at: Date },
      { versionKey: false, strict: false, minimize: false, collection: 'opds_progressions' },
    );
    schema.index({ user_id: 1 });
    this.model = modelOn(connection, 'OpdsProgression', schema);
  }

  async ensureIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async find(positionId: string): Promise<ProgressionRecord | null> {
    return this.model.findOne({ _id: positionId }).lean<ProgressionRecord>().exec();
  }

  /** Replaces the record unless one of a later position is stored (two devices' PUTs of one position may land in either order). */
  async saveIfNewer(record: ProgressionRecord): Promise<void> {
    const filter = { _id: record._id, read_at: { $lte: record.read_at } };
    try {
      await this.model.replaceOne(filter, record, { upsert: true }).exec();
    } catch (error) {
      // The upsert's insert collided: a record of a later position is stored (or a racing first write).
      if (!isDuplicateKeyError(error)) throw error;
      await this.model.replaceOne(filter, record).exec();
    }
  }

  async deleteAllOf(userId: number): Promise<number> {
    return (await this.model.deleteMany({ user_id: userId }).exec()).deletedCount;
  }
}
