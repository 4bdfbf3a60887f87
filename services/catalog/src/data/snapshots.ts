// Snapshots of the catalog view in catalog's own database, readable by every
// replica in a few `_id` lookups (cheap on FerretDB and MongoDB alike):
//
//   snapshots { _id: "head", snapshot_id, chunks, sha256, ... }   the current snapshot
//   snapshots { _id: "<snapshot_id>:<n>", data: <binary> }        its bytes, in chunks
//   snapshot_claims { _id: "<snapshot_id>" }                      who writes it (a unique insert)
//
// Chunks stay well under the 16 MB document limit. A writer stores every
// chunk, then points the head at them, then deletes the chunks of the
// snapshot before the one it replaced (the one it replaced stays, so that a
// replica that read the old head a moment ago can still read its chunks).
import mongoose from 'mongoose';
import { claimOnce, type Connection } from '@folio/mongo';
import type { SnapshotHead, SnapshotRepository } from '../domain/repositories.js';

type Binary = mongoose.mongo.Binary;
const { Binary } = mongoose.mongo;

/** The head document: the domain's SnapshotHead plus the bookkeeping of chunk deletion. */
export interface SnapshotHeadDoc extends SnapshotHead {
  _id: 'head';
  /** The snapshot this one replaced: its chunks are deleted by the next writer. */
  previous: { snapshot_id: string; chunks: number } | null;
}

interface ChunkDoc {
  _id: string;
  snapshot_id: string;
  n: number;
  data: Binary;
}

const chunkId = (snapshotId: string, n: number) => `${snapshotId}:${n}`;

export class MongoSnapshotRepository implements SnapshotRepository {
  constructor(
    private readonly connection: Connection,
    private readonly chunkBytes = 4 * 1024 * 1024,
  ) {}

  // Heads and chunks share the `snapshots` collection; two typed handles on it.
  private get heads() {
    return this.connection.collection<SnapshotHeadDoc>('snapshots');
  }

  private get chunks() {
    return this.connection.collection<ChunkDoc>('snapshots');
  }

  async head(): Promise<SnapshotHeadDoc | null> {
    return this.heads.findOne({ _id: 'head' });
  }

  /** The payload a head names, or null when a chunk is missing (deleted by a newer writer meanwhile). */
  async read(head: SnapshotHead): Promise<Buffer | null> {
    const parts: Buffer[] = [];
    for (let n = 0; n < head.chunks; n++) {
      const chunk = await this.chunks.findOne({ _id: chunkId(head.snapshot_id, n) });
      if (!chunk) return null;
      parts.push(Buffer.from(chunk.data.buffer));
    }
    return Buffer.concat(parts);
  }

  /** True for the one caller (across replicas) that may write this snapshot id. */
  async claim(snapshotId: string): Promise<boolean> {
    return claimOnce(this.connection, 'snapshot_claims', snapshotId);
  }

  /** Stores the payload's chunks, points the head at them and drops the snapshot before the replaced one. */
  async write(head: Omit<SnapshotHead, 'chunks' | 'bytes'>, payload: Buffer): Promise<SnapshotHeadDoc> {
    const chunks = Math.max(1, Math.ceil(payload.length / this.chunkBytes));
    for (let n = 0; n < chunks; n++) {
      const data = new Binary(payload.subarray(n * this.chunkBytes, (n + 1) * this.chunkBytes));
      await this.chunks.replaceOne({ _id: chunkId(head.snapshot_id, n) }, { snapshot_id: head.snapshot_id, n, data }, { upsert: true });
    }
    const replaced = await this.head();
    const next: SnapshotHeadDoc = {
      ...head,
      _id: 'head',
      chunks,
      bytes: payload.length,
      previous: replaced ? { snapshot_id: replaced.snapshot_id, chunks: replaced.chunks } : null,
    };
    const { _id, ...fields } = next;
    await this.heads.replaceOne({ _id }, fields, { upsert: true });
    const stale = replaced?.previous;
    if (stale && stale.snapshot_id !== head.snapshot_id) {
      // By _id one at a time: a filter on another field would scan the chunks on FerretDB.
      for (let n = 0; n < stale.chunks; n++) await this.chunks.deleteOne({ _id: chunkId(stale.snapshot_id, n) });
    }
    return next;
  }
}
