// The last-write-wins write of a document by its _id, shared by the
// repositories whose documents are replaced whole (manifests, settings,
// positions).
import { isDuplicateKeyError } from '@folio/mongo';
import type { Model } from 'mongoose';

/**
 * Replace-or-insert by _id. Two first-ever upserts of one id can race into a
 * duplicate key error (the unique _id decides); the loser then replaces the
 * winner's document, so the last write still wins.
 */
export async function upsertById<T extends { _id: unknown }>(model: Model<T>, id: T['_id'], document: T): Promise<void> {
  try {
    await model.replaceOne({ _id: id } as never, document as never, { upsert: true }).exec();
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    await model.replaceOne({ _id: id } as never, document as never).exec();
  }
}
