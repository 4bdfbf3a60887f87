// Group commit for conditional upserts, as InsertBatcher is for inserts: the
// replaceOne(filter, doc, {upsert: true}) calls that concurrent requests make
// on one collection within one turn of the event loop go to the store as a
// single unordered bulkWrite. Each caller gets what its replaceOne alone
// would have given: true once its document is stored (matched or upserted),
// or its own write error (a duplicate key when the upsert's insert collided).
//
// Only for replacements that still match their own filter once stored, such
// as a position written only over an older one ({_id, read_at: {$lte: its
// read_at}}): sending one again after it applied matches and changes
// nothing. That is what makes a batch safe to settle when the store does not
// say which of its writes applied: every write of the batch is sent again on
// its own. In upsert mode a write that is not stored is always a write error,
// so a batch whose counts add up applied every write; a batch with a write
// error goes the long way. (FerretDB 1.24 also stops an unordered batch at its
// first error and names the wrong index; MongoDB goes on and names the right
// one. Either way every caller gets its own outcome.)
//
// Why: against FerretDB on PostgreSQL, concurrent position upserts sent in
// commands of several documents go through about half again as fast as one
// command each, for less CPU per document in the store and the client
// (bench/api/HISTORY.md). A lone write waits one setImmediate and is sent as
// replaceOne.
import type { Model } from 'mongoose';
import { failedSomeWrites, TurnBatches } from './turn-batches.js';

/** The counts of a replaceOne or bulkWrite result the batcher reads. */
interface WriteCounts {
  matchedCount: number;
  upsertedCount: number;
}

/** The part of a driver collection the batcher uses (a mongoose model's `collection` is one). */
export interface ReplaceTarget<T> {
  replaceOne(filter: object, doc: T, options: { upsert: true }): Promise<WriteCounts>;
  bulkWrite(operations: { replaceOne: { filter: object; replacement: T; upsert: true } }[], options: { ordered: false }): Promise<WriteCounts>;
}

interface Pending<T> {
  filter: object;
  doc: T;
  resolve: (stored: boolean) => void;
  reject: (error: unknown) => void;
}

export class ReplaceBatcher<T> {
  private readonly batches: TurnBatches<Pending<T>>;

  constructor(
    private readonly target: ReplaceTarget<T>,
    /** Writes per command at most; more waiting ones go in the next command at once. */
    maxBatch = 256,
  ) {
    this.batches = new TurnBatches((batch) => this.send(batch), maxBatch);
  }

  /**
   * replaceOne(filter, doc, {upsert: true}), batched: true when the document
   * is stored. Rejects with this write's own error (a duplicate key is code
   * 11000, as from replaceOne) or with the command's.
   */
  upsert(filter: object, doc: T): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => this.batches.add({ filter, doc, resolve, reject }));
  }

  private send(batch: Pending<T>[]): void {
    if (batch.length === 1) {
      this.one(batch[0]!);
      return;
    }
    const operations = batch.map(({ filter, doc }) => ({ replaceOne: { filter, replacement: doc, upsert: true as const } }));
    this.target.bulkWrite(operations, { ordered: false }).then(
      (result) => {
        if (result.matchedCount + result.upsertedCount === batch.length) batch.forEach((entry) => entry.resolve(true));
        else batch.forEach((entry) => this.one(entry));
      },
      (error: unknown) => {
        // Write errors name writes of the batch: each is sent again alone. Anything else failed the whole command.
        if (failedSomeWrites(error)) batch.forEach((entry) => this.one(entry));
        else batch.forEach((entry) => entry.reject(error));
      },
    );
  }

  private one(entry: Pending<T>): void {
    this.target
      .replaceOne(entry.filter, entry.doc, { upsert: true })
      .then((result) => entry.resolve(result.matchedCount > 0 || result.upsertedCount > 0), entry.reject);
  }
}

/**
 * A batcher over a mongoose model's collection. Documents are written as
 * given, without mongoose's casting or defaults: the domain built them.
 */
export function replaceBatcherOf<T>(model: Model<T>, maxBatch?: number): ReplaceBatcher<T> {
  // The driver types a model's collection with ObjectId ids; ours are numbers and strings.
  return new ReplaceBatcher(model.collection as unknown as ReplaceTarget<T>, maxBatch);
}
