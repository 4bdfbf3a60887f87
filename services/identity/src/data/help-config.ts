// The help subjects, their labels and routing, as loaded from the dataset.
// Implements the domain's HelpConfigRepository; `replace` is the seed's.
import type { Model } from 'mongoose';
import type { HelpConfigRepository } from '../domain/repositories.js';
import type { HelpConfigDoc } from './schemas.js';

const ID = 'help';

export class MongoHelpConfigRepository implements HelpConfigRepository {
  constructor(private readonly model: Model<HelpConfigDoc>) {}

  async get(): Promise<HelpConfigDoc | null> {
    return this.model.findById(ID).lean<HelpConfigDoc>().exec();
  }

  async replace(config: Omit<HelpConfigDoc, '_id'>): Promise<void> {
    await this.model.replaceOne({ _id: ID }, { _id: ID, ...config }, { upsert: true }).exec();
  }
}
