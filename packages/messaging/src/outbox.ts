// The transactional outbox: a service records the events it means to publish
// in its own database, and a relay hands them to the broker, so that a broker
// outage delays events instead of losing them.
//
// Guarantee. MongoDB transactions are optional (the local stack's FerretDB has
// none): when the caller passes a session inside a transaction, the state
// change and the outbox row commit together. Without one, the service writes
// its state, then the outbox row, and only then answers. A crash between the
// two leaves a change without its event and the request unanswered, so the
// client retries: use cases must then find the change done and add the event
// again (an event id derived from the change makes that add a no-op when the
// row did get written). Once a row exists it is published at least once: the relay marks it
// published only after the broker confirmed, so a crash in between publishes
// it again, and consumers deduplicate by event id.
import { randomUUID } from 'node:crypto';
import type { ClientSession, Connection } from 'mongoose';
import type { Logger } from '@folio/logger';
import { currentTraceCarrier, inTraceOf, onScrape, recordOutbox, type TraceCarrier } from '@folio/telemetry';
import { BrokerUnavailableError, type Broker } from './broker.js';
import type { DomainEvent } from './event.js';

export interface OutboxOptions {
  exchange: string;
  logger: Logger;
  /** How often the relay looks for rows it was not told about (written by another replica, or left by a crash). */
  pollIntervalMs?: number;
  /** Rows published per relay pass before the loop yields. */
  batchSize?: number;
  /** How long a claimed row stays reserved to one relay; longer than a publish can take. */
  claimLeaseMs?: number;
  /** Longest wait between attempts while the broker is down. */
  maxBackoffMs?: number;
  /** How long published rows are kept (for audit and debugging) before they are pruned. */
  retentionMs?: number;
}

interface OutboxRow {
  event_id: string;
  exchange: string;
  event: DomainEvent;
  occurred_at: Date;
  created_at: Date;
  published_at: Date | null;
  /**
   * Present (true) only while the row waits to be published: the relay and
   * the metrics find waiting rows by equality on it, which both stores answer
   * from an index over the few waiting rows. (`published_at: null` is not
   * something FerretDB sends to PostgreSQL, so that filter read every row
   * kept for the retention period, once per event: ~3 events/s.)
   */
  pending?: true;
  claimed_until: Date | null;
  claim: string | null;
  attempts: number;
  last_error?: string;
  /** W3C trace context of the request that wrote the row, so its publish (and the consumers) join that trace. */
  trace?: TraceCarrier;
}

const DAY_MS = 24 * 60 * 60 * 1000;
// FerretDB has no TTL indexes, so published rows are pruned by the relay instead, on every database.
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export class Outbox {
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly claimLeaseMs: number;
  private readonly maxBackoffMs: number;
  private readonly retentionMs: number;
  private readonly logger: Logger;
  private indexes: Promise<void> | undefined;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  // Relay passes in this process run one after another; a pass that has not started yet absorbs new requests.
  private lastPass: Promise<unknown> = Promise.resolve();
  private queuedPass: Promise<number> | undefined;
  private lastPrune = 0;
  private unsubscribe: (() => void) | undefined;
  private stopScrape: (() => void) | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly broker: Broker,
    private readonly options: OutboxOptions,
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.batchSize = options.batchSize ?? 100;
    this.claimLeaseMs = options.claimLeaseMs ?? 30_000;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.retentionMs = options.retentionMs ?? 7 * DAY_MS;
    this.logger = options.logger.child({ component: 'outbox', exchange: options.exchange });
  }

  private get rows() {
    return this.connection.collection<OutboxRow>('outbox');
  }

  /** Creates the outbox indexes; idempotent, and called by add() and the relay if the service did not. */
  ensureIndexes(): Promise<void> {
    this.indexes ??= (async () => {
      await this.rows.createIndex({ event_id: 1 }, { unique: true });
      await this.rows.createIndex({ pending: 1, exchange: 1, occurred_at: 1 });
      // Rows written before `pending` existed (once; a no-op afterwards).
      await this.rows.updateMany({ published_at: null, pending: { $exists: false } }, { $set: { pending: true } });
    })().catch((error: unknown) => {
      this.indexes = undefined;
      throw error;
    });
    return this.indexes;
  }

  /**
   * Records an event (inside the caller's transaction when `session` is given)
   * and asks the relay to publish it now. Resolves once the row is written;
   * a failed publish is left to the relay. Outside a transaction, adding an
   * event id that is already recorded is a no-op.
   */
  async add(event: DomainEvent, options: { session?: ClientSession } = {}): Promise<void> {
    await this.ensureIndexes();
    const occurredAt = new Date(event.occurred_at);
    const trace = currentTraceCarrier();
    const row: OutboxRow = {
      event_id: event.id,
      exchange: this.options.exchange,
      event,
      occurred_at: Number.isNaN(occurredAt.getTime()) ? new Date() : occurredAt,
      created_at: new Date(),
      published_at: null,
      pending: true,
      claimed_until: null,
      claim: null,
      attempts: 0,
      ...(trace.traceparent && { trace }),
    };
    try {
      await this.rows.insertOne(row, options.session ? { session: options.session } : {});
    } catch (error) {
      // The same event added again (a retried request) is already recorded; inside a transaction the caller must know.
      if (options.session || (error as { code?: unknown }).code !== 11000) throw error;
      return;
    }
    // Inside an uncommitted transaction the row is not visible yet; the next poll picks it up.
    this.relayOnce().catch((error: unknown) => this.logger.debug({ err: error }, 'immediate relay failed; the relay will retry'));
  }

  /** Starts the background relay; safe to call once per process, stopped by stop(). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.broker.onConnected(() => this.wake?.());
    // folio_outbox_pending / folio_outbox_oldest_age_seconds, read when Prometheus scrapes (two indexed queries).
    this.stopScrape = onScrape(async () => recordOutbox(await this.pending()));
    this.loop = this.run();
  }

  /** Rows not yet published and the age of the oldest, in seconds (0 when none). */
  async pending(): Promise<{ pending: number; oldestAgeSeconds: number }> {
    const filter = { pending: true as const, exchange: this.options.exchange };
    const [pending, oldest] = await Promise.all([
      this.rows.countDocuments(filter),
      this.rows.findOne(filter, { sort: { occurred_at: 1 }, projection: { occurred_at: 1 } }),
    ]);
    const oldestAgeSeconds = oldest ? Math.max(0, (Date.now() - oldest.occurred_at.getTime()) / 1000) : 0;
    return { pending, oldestAgeSeconds };
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.stopScrape?.();
    this.wake?.();
    await this.loop;
    await this.lastPass.catch(() => {});
  }

  /** Publishes what is pending now, oldest first; resolves with how many rows it published. */
  relayOnce(): Promise<number> {
    if (!this.queuedPass) {
      const pass = this.lastPass.then(() => {
        this.queuedPass = undefined;
        return this.drain();
      });
      this.queuedPass = pass;
      this.lastPass = pass.catch(() => {});
    }
    return this.queuedPass;
  }

  private async run(): Promise<void> {
    let delay = this.pollIntervalMs;
    while (this.running) {
      try {
        const published = await this.relayOnce();
        delay = this.pollIntervalMs;
        // A full batch means more may be waiting: go again without sleeping.
        if (published >= this.batchSize) continue;
        await this.pruneIfDue();
      } catch (error) {
        if (!(error instanceof BrokerUnavailableError)) this.logger.warn({ err: error }, 'outbox relay failed; backing off');
        delay = Math.min(this.maxBackoffMs, delay * 2);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private async drain(): Promise<number> {
    await this.ensureIndexes();
    // Checking first keeps a down broker from churning claims in the database.
    if (!this.broker.isConnected()) throw new BrokerUnavailableError();
    // The oldest waiting rows in one query, then each claimed by its unique
    // event_id: a sorted find costs every waiting row on FerretDB (it sorts
    // in memory), so it is paid once per batch, not once per event (with a
    // backlog of 1,600 rows that was ~1 event/s).
    const now = new Date();
    const waiting = await this.rows
      .find(
        { pending: true, exchange: this.options.exchange, $or: [{ claimed_until: null }, { claimed_until: { $lt: now } }] },
        { sort: { occurred_at: 1, _id: 1 }, limit: this.batchSize, projection: { event_id: 1 } },
      )
      .toArray();
    let published = 0;
    for (const { event_id: eventId } of waiting) {
      if (!this.broker.isConnected()) throw new BrokerUnavailableError();
      const row = await this.claim(eventId);
      if (!row) continue; // another replica's relay took it meanwhile
      try {
        // In the writer's trace: amqplib's instrumentation then carries it in the message headers to the consumers.
        await inTraceOf(row.trace, `outbox publish ${row.event.type}`, () => this.broker.publish(this.options.exchange, row.event));
      } catch (error) {
        await this.rows.updateOne(
          { event_id: row.event_id, claim: row.claim },
          { $set: { claimed_until: null, claim: null, last_error: String(error) }, $inc: { attempts: 1 } },
        );
        throw error;
      }
      await this.rows.updateOne(
        { event_id: row.event_id, claim: row.claim },
        { $set: { published_at: new Date(), claimed_until: null, claim: null }, $unset: { pending: '' }, $inc: { attempts: 1 } },
      );
      published += 1;
    }
    if (published) this.logger.debug({ published }, 'outbox relayed events');
    return published;
  }

  /** Reserves one waiting row for this relay (by its unique event_id); another replica skips it until the lease runs out. */
  private claim(eventId: string): Promise<OutboxRow | null> {
    const now = new Date();
    return this.rows.findOneAndUpdate(
      { event_id: eventId, pending: true, $or: [{ claimed_until: null }, { claimed_until: { $lt: now } }] },
      { $set: { claimed_until: new Date(now.getTime() + this.claimLeaseMs), claim: randomUUID() } },
      { returnDocument: 'after' },
    );
  }

  private async pruneIfDue(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    // Rows a replica of the previous version wrote without `pending` during a rolling upgrade.
    await this.rows.updateMany({ published_at: null, pending: { $exists: false } }, { $set: { pending: true } });
    const { deletedCount } = await this.rows.deleteMany({
      exchange: this.options.exchange,
      published_at: { $lt: new Date(Date.now() - this.retentionMs) },
    });
    if (deletedCount) this.logger.info({ deleted: deletedCount }, 'pruned published outbox rows');
  }
}
