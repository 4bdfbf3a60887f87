// The queue behind the group commits of this package (InsertBatcher,
// ReplaceBatcher): what callers add within one turn of the event loop is
// handed over as one batch. A batch forms only under load; a lone entry waits
// one setImmediate (microseconds). A full batch leaves at once, and the
// entries after it start the next one.
import { mongo } from 'mongoose';

/**
 * An unordered bulk command's failure that names some of its writes (write
 * errors, no write concern error): the others were applied or can be judged
 * one by one. Anything else failed the whole command.
 */
export function failedSomeWrites(error: unknown): error is InstanceType<typeof mongo.MongoBulkWriteError> {
  return error instanceof mongo.MongoBulkWriteError && error.result.getWriteConcernError() === undefined;
}

export class TurnBatches<T> {
  private pending: T[] = [];
  private scheduled = false;

  constructor(
    private readonly send: (batch: T[]) => void,
    /** Entries per batch at most. */
    private readonly maxBatch: number,
  ) {}

  add(entry: T): void {
    this.pending.push(entry);
    if (this.pending.length >= this.maxBatch) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.send(batch);
  }
}
