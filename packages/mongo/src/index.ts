// MongoDB access shared by every service: one connection per service
// database, integer id sequences and race-free claims. (Tenant scoping is
// each repository's: its methods take the domain's scope type, as in
// services/notes, so the domain never builds a query; see docs/architecture.md.)
import mongoose, { type Connection, type Model, type Schema } from 'mongoose';

export type { Connection } from 'mongoose';
export { InsertBatcher, insertBatcherOf, type InsertTarget } from './insert-batcher.js';
export { ReplaceBatcher, replaceBatcherOf, type ReplaceTarget } from './replace-batcher.js';
export { deleteExpired, isTooManyToDeleteAtOnce } from './delete-expired.js';

// Every query's exec() otherwise keeps `new Error().stack` to report a query
// run twice; with --enable-source-maps that stack is source-mapped on every
// query: ~5 % of commerce's CPU on the purchase redirect. We never run a query twice.
mongoose.set('skipOriginalStackTraces', true);

export async function connectMongo(uri: string, options: { dbName?: string } = {}): Promise<Connection> {
  const connection = mongoose.createConnection(uri, {
    dbName: options.dbName,
    serverSelectionTimeoutMS: 5_000,
    // While the store is away an operation fails as the driver's outage error
    // (503 with Retry-After, @folio/errors) instead of waiting in mongoose's
    // buffer for 10 s and then failing as a plain MongooseError (a 500).
    bufferCommands: false,
    // Indexes are created explicitly by ensureIndexes(): start-up stays predictable.
    autoIndex: false,
    autoCreate: true,
  });
  await connection.asPromise();
  return connection;
}

/** Builds every index the connection's models declare; idempotent. */
export async function ensureIndexes(connection: Connection): Promise<void> {
  for (const model of Object.values(connection.models)) {
    await model.createIndexes();
  }
}

interface CounterDoc {
  _id: string;
  seq: number;
}

const DUPLICATE_KEY = 11000;

export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === DUPLICATE_KEY;
}

/**
 * Next value of a named integer sequence (users, notes, ...): the API exposes
 * integer ids, which MongoDB does not generate itself.
 *
 * Values are handed out from blocks of SEQUENCE_BLOCK: a process claims a
 * block by inserting a unique `sequence_claims` document for it (so two
 * processes can never hold the same block) and then gives its values out in
 * order, in memory. A plain `$inc` would be enough on MongoDB, but the local
 * stack's FerretDB does not isolate concurrent updates of one document (lost
 * increments); unique inserts are safe on both. Claiming every value (as
 * before) made concurrent writers collide on the same candidates and retry:
 * 32 concurrent note writes cost ~500 inserts and went at 30 a second. The
 * `counters` document is the hint of where free blocks start; a block always
 * starts above it, so seeded ids below a bumped counter are never reused.
 * Values of a block a process did not use before it stopped are skipped.
 *
 * The next block is claimed ahead, once half of the current one is given
 * out: a claim is three round trips to the store, and every caller that
 * finds the block empty waits on them. A busy writer (reader opening
 * sessions under load) runs out many times a second; with the claim ahead
 * its writes no longer queue behind one.
 */
export const SEQUENCE_BLOCK = 50;

interface SequenceBlock {
  next: number;
  end: number;
}

interface SequenceState {
  block?: SequenceBlock;
  /** The block claimed ahead, used once `block` is empty. */
  upcoming?: SequenceBlock;
  /** The claim in flight (one at a time per process and sequence; concurrent callers share it). */
  claiming?: Promise<void>;
  /** bumpSequence: no value at or below this is handed out (a block claimed before a bump may hold some). */
  floor: number;
}

const sequences = new WeakMap<Connection, Map<string, SequenceState>>();

function sequenceState(connection: Connection, name: string): SequenceState {
  let perName = sequences.get(connection);
  if (!perName) sequences.set(connection, (perName = new Map()));
  let state = perName.get(name);
  if (!state) perName.set(name, (state = { floor: 0 }));
  return state;
}

export async function nextSequence(connection: Connection, name: string): Promise<number> {
  const state = sequenceState(connection, name);
  for (;;) {
    const block = state.block;
    if (block) block.next = Math.max(block.next, state.floor + 1);
    if (block && block.next <= block.end) {
      const value = block.next++;
      if (block.end - value < SEQUENCE_BLOCK / 2 && !state.upcoming && !state.claiming) {
        // Nobody waits on this claim: a failure is retried by the first caller that finds the block empty.
        claim(connection, name, state).catch(() => {});
      }
      return value;
    }
    if (state.upcoming) {
      state.block = state.upcoming;
      state.upcoming = undefined;
      continue;
    }
    await claim(connection, name, state);
  }
}

/** The claim in flight, or a new one; it leaves its block in `state.upcoming`. */
function claim(connection: Connection, name: string, state: SequenceState): Promise<void> {
  state.claiming ??= claimBlock(connection, name)
    .then((block) => {
      state.upcoming = block;
    })
    .finally(() => {
      state.claiming = undefined;
    });
  return state.claiming;
}

async function claimBlock(connection: Connection, name: string): Promise<SequenceBlock> {
  const counters = connection.collection<CounterDoc>('counters');
  const claims = connection.collection<{ _id: string }>('sequence_claims');
  const hint = (await counters.findOne({ _id: name }))?.seq ?? 0;
  // The first block whose every value is above the hint.
  let index = Math.ceil(hint / SEQUENCE_BLOCK);
  for (let attempt = 0; attempt < 10_000; attempt++, index++) {
    try {
      await claims.insertOne({ _id: `${name}:block:${index}` });
    } catch (error) {
      if (isDuplicateKeyError(error)) continue;
      throw error;
    }
    const end = (index + 1) * SEQUENCE_BLOCK;
    await raiseCounter(connection, name, end);
    return { next: index * SEQUENCE_BLOCK + 1, end };
  }
  throw new Error(`sequence ${name}: no free block found`);
}

async function raiseCounter(connection: Connection, name: string, atLeast: number): Promise<void> {
  try {
    await connection.collection<CounterDoc>('counters').updateOne({ _id: name }, { $max: { seq: atLeast } }, { upsert: true });
  } catch (error) {
    // Two first-ever upserts raced; the other one created the counter, which is all we need.
    if (!isDuplicateKeyError(error)) throw error;
  }
}

/**
 * Claims `key` in `collection` exactly once across every caller and replica:
 * true for the one caller whose unique insert succeeded, false for all others.
 * This is the project's compare-and-set: conditional updates are atomic on
 * MongoDB but not on FerretDB, unique inserts are atomic on both.
 */
export async function claimOnce(connection: Connection, collection: string, key: string, fields: Record<string, unknown> = {}): Promise<boolean> {
  try {
    await connection.collection<{ _id: string; claimed_at: Date }>(collection).insertOne({ _id: key, claimed_at: new Date(), ...fields });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/** Raises a sequence so that it never hands out ids at or below `atLeast` (seeded data). */
export async function bumpSequence(connection: Connection, name: string, atLeast: number): Promise<void> {
  await raiseCounter(connection, name, atLeast);
  // This process skips the values at or below the bump of the blocks it holds or is claiming (another process's are its own).
  const state = sequenceState(connection, name);
  state.floor = Math.max(state.floor, atLeast);
}

export function modelOn<T>(connection: Connection, name: string, schema: Schema<T>): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema);
}
