// Consumes domain events from a service's own durable queue: acknowledges only
// after the handler finished, runs a handler at most once per event id,
// retries failures after a delay and parks poison messages in a dead-letter
// queue for an operator, so one bad event never blocks the others.
//
// Topology per consumer (all durable quorum queues, queues.ts; declared idempotently on every (re)connect):
//   <exchange> (topic) --bindings--> <queue>
//   <queue>.retry: messages wait there for their per-message TTL, then RabbitMQ
//                  dead-letters them back to <queue> through the default exchange,
//                  so other queues bound to <exchange> never see a retry.
//   <queue>.dead:  messages that failed 1 + maxRetries times, or were malformed,
//                  with the reason in the `x-last-error` header; moved back to
//                  <queue> by an operator, they start again at attempt 1.
// Retries are republished by the consumer (with an `x-attempt` header) rather
// than rejected, so the attempt count is ours and not RabbitMQ's x-death bookkeeping.
import { randomUUID } from 'node:crypto';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Connection } from 'mongoose';
import { runWithContext, type Logger } from '@folio/logger';
import {
  countConsumed,
  countDeadLetter,
  countRedelivered,
  onScrape,
  recordConsumerBacklog,
  recordDeadLetterQueue,
  registerConsumerQueue,
  type ConsumeOutcome,
} from '@folio/telemetry';
import { BrokerUnavailableError, type Broker } from './broker.js';
import { parseEvent, type DomainEvent } from './event.js';
import { declareDurableQueues } from './queues.js';

export interface ConsumerOptions {
  exchange: string;
  queue: string;
  /** Routing keys; topic patterns (`account.*`, `help.#`) are allowed. */
  bindings: string[];
  handler: (event: DomainEvent, meta: { attempt: number }) => Promise<void>;
  /** The consuming service's database, where processed event ids are kept. */
  idempotency: Connection;
  logger: Logger;
  /** Retries after the first attempt before a message is dead-lettered; default 3. */
  maxRetries?: number;
  /** Wait before each retry; default 1000 ms. */
  retryDelayMs?: number;
  /** Messages handled concurrently; default 10. */
  prefetch?: number;
  /** How long one delivery owns an event id; a second copy arriving meanwhile waits in the retry queue. Default 60 s. */
  leaseMs?: number;
  /** How long processed event ids are remembered for deduplication; default 14 days. */
  retentionMs?: number;
}

export interface RunningConsumer {
  /** Stops taking new messages, lets the ones in hand finish, and closes the channel. */
  stop(): Promise<void>;
}

/** On a retry: which attempt this delivery is (the first delivery has none and is attempt 1). */
export const ATTEMPT_HEADER = 'x-attempt';
/** On a dead letter: how often the handler failed. Not ATTEMPT_HEADER, so a replayed message starts afresh. */
export const FAILED_ATTEMPTS_HEADER = 'x-failed-attempts';
/** On a retry or dead letter: why the handler failed, or why the message is malformed. */
export const LAST_ERROR_HEADER = 'x-last-error';

/**
 * Thrown by a handler for a message no retry can fix (a payload that breaks
 * the event's contract): the message goes to the dead-letter queue at once.
 */
export class PoisonMessageError extends Error {
  override readonly name = 'PoisonMessageError';
}

export async function startConsumer(broker: Broker, options: ConsumerOptions): Promise<RunningConsumer> {
  const consumer = new Consumer(broker, options);
  try {
    await consumer.start();
  } catch (error) {
    await consumer.stop();
    throw error;
  }
  return { stop: () => consumer.stop() };
}

class Consumer {
  private readonly logger: Logger;
  private readonly processed: ProcessedEvents;
  private readonly maxRetries: number;
  private readonly retryDelayMs: number;
  private channel: ConfirmChannel | undefined;
  private consumerTag: string | undefined;
  private attaching: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  private reattachTimer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private stopScrape: (() => void) | undefined;
  private statsChannel: Promise<ConfirmChannel> | undefined;

  constructor(
    private readonly broker: Broker,
    private readonly options: ConsumerOptions,
  ) {
    this.logger = options.logger.child({ component: 'consumer', queue: options.queue });
    this.processed = new ProcessedEvents(options.idempotency, options.queue, options.leaseMs ?? 60_000);
    this.maxRetries = options.maxRetries ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 1_000;
  }

  /**
   * Declares and consumes now when the broker is connected, so that a failure
   * (say, a queue declared elsewhere with other arguments) fails the start;
   * a lazy broker that is still down gets its consumers on connection.
   */
  async start(): Promise<void> {
    await this.processed.ensureIndexes();
    registerConsumerQueue(this.options.queue);
    this.stopScrape = onScrape(() => this.recordDepths());
    this.unsubscribe = this.broker.onConnected(() => this.attachInBackground());
    if (this.broker.isConnected()) await this.attach();
    const retentionMs = this.options.retentionMs ?? 14 * 24 * 60 * 60 * 1000;
    // Pruned here rather than by a TTL index, which FerretDB does not implement.
    this.pruneTimer = setInterval(
      () => {
        this.processed.prune(retentionMs).catch((error: unknown) => this.logger.warn({ err: error }, 'pruning processed events failed'));
      },
      60 * 60 * 1000,
    );
    this.pruneTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.stopScrape?.();
    clearTimeout(this.reattachTimer);
    clearInterval(this.pruneTimer);
    const stats = this.statsChannel;
    this.statsChannel = undefined;
    await stats?.then((channel) => channel.close()).catch(() => {});
    await this.attaching?.catch(() => {});
    const channel = this.channel;
    this.channel = undefined;
    if (channel && this.consumerTag) await channel.cancel(this.consumerTag).catch(() => {});
    await Promise.allSettled(this.inFlight);
    await channel?.close().catch(() => {});
  }

  /**
   * At each scrape: messages waiting in the queue (the consumer lag) and in its
   * dead-letter queue, read from the broker on a channel of their own (asking
   * for a missing queue closes the channel that asked).
   */
  private async recordDepths(): Promise<void> {
    if (this.stopped || !this.broker.isConnected()) return;
    const { queue } = this.options;
    this.statsChannel ??= this.broker.createChannel().then((channel) => {
      channel.on('error', () => {});
      channel.on('close', () => {
        this.statsChannel = undefined;
      });
      return channel;
    });
    try {
      const channel = await this.statsChannel;
      recordConsumerBacklog(queue, (await channel.checkQueue(queue)).messageCount);
      recordDeadLetterQueue(queue, (await channel.checkQueue(`${queue}.dead`)).messageCount);
    } catch {
      this.statsChannel = undefined;
    }
  }

  private attach(): Promise<void> {
    if (this.stopped || this.channel) return Promise.resolve();
    this.attaching ??= this.open().finally(() => {
      this.attaching = undefined;
    });
    return this.attaching;
  }

  private attachInBackground(): void {
    this.attach().catch((error: unknown) => {
      // Without a connection there is nothing to retry on: the next onConnected does it.
      if (error instanceof BrokerUnavailableError || !this.broker.isConnected()) return;
      this.logger.error({ err: error }, 'cannot consume; retrying');
      this.reattachLater();
    });
  }

  private reattachLater(): void {
    clearTimeout(this.reattachTimer);
    this.reattachTimer = setTimeout(() => this.attachInBackground(), this.retryDelayMs);
  }

  private async open(): Promise<void> {
    const { exchange, queue, bindings } = this.options;
    // On a channel of its own: a queue kept as classic costs that channel (see queues.ts).
    await declareDurableQueues(
      this.broker,
      [{ name: queue }, { name: `${queue}.retry`, arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': queue } }, { name: `${queue}.dead` }],
      this.logger,
    );
    const channel = await this.broker.createChannel();
    channel.on('error', (error: unknown) => this.logger.warn({ err: error }, 'consumer channel error'));
    channel.on('close', () => {
      if (this.channel === channel) this.channel = undefined;
      // A lost connection comes back through onConnected; a channel closed on its own needs a new one here.
      if (!this.stopped && this.broker.isConnected()) this.reattachLater();
    });
    try {
      await channel.assertExchange(exchange, 'topic', { durable: true });
      for (const pattern of bindings) await channel.bindQueue(queue, exchange, pattern);
      await channel.prefetch(this.options.prefetch ?? 10);
      this.channel = channel;
      const { consumerTag } = await channel.consume(queue, (message) => {
        if (!message) {
          // The broker cancelled us (say, the queue was deleted): a new channel re-declares and consumes again.
          channel.close().catch(() => {});
          return;
        }
        const work = this.handle(channel, message);
        this.inFlight.add(work);
        void work.finally(() => this.inFlight.delete(work));
      });
      this.consumerTag = consumerTag;
      this.logger.info({ exchange, bindings }, 'consuming');
    } catch (error) {
      await channel.close().catch(() => {});
      throw error;
    }
  }

  private async handle(channel: ConfirmChannel, message: ConsumeMessage): Promise<void> {
    const { queue } = this.options;
    if (message.fields.redelivered) countRedelivered(queue);
    try {
      const parsed = parseEvent(message.content);
      let outcome: ConsumeOutcome;
      if ('error' in parsed) {
        this.logger.warn({ message_id: message.properties.messageId, reason: parsed.error }, 'malformed message dead-lettered');
        await this.forward(channel, message, `${queue}.dead`, { [LAST_ERROR_HEADER]: parsed.error });
        countDeadLetter(queue);
        outcome = 'dead_lettered';
      } else {
        const { event } = parsed;
        outcome = await runWithContext({ requestId: event.id, tenantId: event.tenant_id }, () => this.process(channel, message, event));
      }
      channel.ack(message);
      countConsumed(queue, outcome);
    } catch (error) {
      countConsumed(queue, 'requeued');
      // Forwarding failed, most likely because the channel is gone: the broker redelivers the unacked message.
      this.logger.warn({ err: error, message_id: message.properties.messageId }, 'message left for redelivery');
      try {
        channel.nack(message, false, true);
      } catch {
        // the channel is closed; redelivery happens anyway
      }
    }
  }

  /** Runs the handler once per event id; resolves, with what became of the message, when it may be acknowledged. */
  private async process(channel: ConfirmChannel, message: ConsumeMessage, event: DomainEvent): Promise<ConsumeOutcome> {
    const { queue } = this.options;
    const attempt = attemptOf(message);
    let claim: Claim;
    try {
      claim = await this.processed.claim(event.id);
    } catch (error) {
      // Our database is down, the event is fine: wait without spending one of its attempts.
      this.logger.warn({ err: error }, 'idempotency store unavailable; retrying the event later');
      await this.forward(channel, message, `${queue}.retry`, {}, this.retryDelayMs);
      return 'retried';
    }
    if (claim === 'done') {
      this.logger.debug({ event_type: event.type }, 'duplicate event skipped');
      return 'duplicate';
    }
    if (claim === 'busy') {
      // Another delivery of this event is being handled right now; look again once it has finished or failed.
      await this.forward(channel, message, `${queue}.retry`, {}, this.retryDelayMs);
      return 'retried';
    }
    try {
      await this.options.handler(event, { attempt });
    } catch (error) {
      await this.processed.release(claim).catch(() => {});
      const reason = error instanceof Error ? error.message : String(error);
      if (attempt > this.maxRetries || error instanceof PoisonMessageError) {
        this.logger.error({ err: error, event_type: event.type, attempt }, 'event handler failed for the last time; dead-lettered');
        await this.forward(channel, message, `${queue}.dead`, { [LAST_ERROR_HEADER]: reason, [FAILED_ATTEMPTS_HEADER]: attempt, [ATTEMPT_HEADER]: undefined });
        countDeadLetter(queue);
        return 'dead_lettered';
      }
      this.logger.warn({ err: error, event_type: event.type, attempt }, 'event handler failed; will retry');
      await this.forward(channel, message, `${queue}.retry`, { [ATTEMPT_HEADER]: attempt + 1, [LAST_ERROR_HEADER]: reason }, this.retryDelayMs);
      return 'retried';
    }
    // The work is done: a failure to record it only risks a second run on redelivery, so ack anyway.
    await this.processed.complete(claim).catch((error: unknown) => this.logger.warn({ err: error }, 'could not record a processed event'));
    return 'handled';
  }

  /** Copies a message to a queue and waits for the broker's confirm, so the original may then be acked. */
  private forward(channel: ConfirmChannel, message: ConsumeMessage, queue: string, headers: Record<string, unknown>, delayMs?: number): Promise<void> {
    const { properties, fields } = message;
    // RabbitMQ's own dead-lettering history is not ours to copy; an undefined value removes a header.
    const merged = { ...properties.headers, ...headers };
    const kept = Object.fromEntries(Object.entries(merged).filter(([name, value]) => value !== undefined && !/^x-(death|first-death|last-death)/.test(name)));
    return new Promise((resolve, reject) => {
      channel.sendToQueue(
        queue,
        message.content,
        {
          persistent: true,
          contentType: properties.contentType as string | undefined,
          messageId: properties.messageId as string | undefined,
          type: properties.type as string | undefined,
          timestamp: properties.timestamp as number | undefined,
          headers: {
            // Where the message first came from, for whoever replays it out of the dead-letter queue.
            'x-original-exchange': fields.exchange,
            'x-original-routing-key': fields.routingKey,
            ...kept,
          },
          ...(delayMs !== undefined && { expiration: String(delayMs) }),
        },
        (error: unknown) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()),
      );
    });
  }
}

function attemptOf(message: ConsumeMessage): number {
  const value = Number(message.properties.headers?.[ATTEMPT_HEADER]);
  return Number.isInteger(value) && value > 0 ? value : 1;
}

type Claim = { event_id: string; token: string } | 'done' | 'busy';

interface ProcessedEvent {
  consumer: string;
  event_id: string;
  status: 'processing' | 'done';
  token: string;
  locked_until: Date | null;
  processed_at?: Date;
}

/**
 * Event ids a consumer has handled, in the consumer's own database. A row is
 * claimed (unique on consumer + event id) before the handler runs, so two
 * copies of one event delivered at once, to one replica or two, run it once.
 */
class ProcessedEvents {
  constructor(
    private readonly connection: Connection,
    private readonly consumer: string,
    private readonly leaseMs: number,
  ) {}

  private get rows() {
    return this.connection.collection<ProcessedEvent>('processed_events');
  }

  async ensureIndexes(): Promise<void> {
    await this.rows.createIndex({ consumer: 1, event_id: 1 }, { unique: true });
    await this.rows.createIndex({ consumer: 1, processed_at: 1 });
  }

  async claim(eventId: string): Promise<Claim> {
    const token = randomUUID();
    const now = new Date();
    const lockedUntil = new Date(now.getTime() + this.leaseMs);
    try {
      await this.rows.insertOne({ consumer: this.consumer, event_id: eventId, status: 'processing', token, locked_until: lockedUntil });
      return { event_id: eventId, token };
    } catch (error) {
      if ((error as { code?: unknown }).code !== 11000) throw error;
    }
    // A claim whose lease ran out belongs to a consumer that died mid-handler: take it over.
    const taken = await this.rows.findOneAndUpdate(
      { consumer: this.consumer, event_id: eventId, status: 'processing', locked_until: { $lt: now } },
      { $set: { token, locked_until: lockedUntil } },
    );
    if (taken) return { event_id: eventId, token };
    const existing = await this.rows.findOne({ consumer: this.consumer, event_id: eventId });
    return existing?.status === 'done' ? 'done' : 'busy';
  }

  async complete(claim: { event_id: string; token: string }): Promise<void> {
    await this.rows.updateOne(
      { consumer: this.consumer, event_id: claim.event_id, token: claim.token },
      { $set: { status: 'done', processed_at: new Date(), locked_until: null } },
    );
  }

  /** Gives the event id back so that the retry can claim it. */
  async release(claim: { event_id: string; token: string }): Promise<void> {
    await this.rows.deleteOne({ consumer: this.consumer, event_id: claim.event_id, token: claim.token, status: 'processing' });
  }

  async prune(retentionMs: number): Promise<void> {
    await this.rows.deleteMany({ consumer: this.consumer, status: 'done', processed_at: { $lt: new Date(Date.now() - retentionMs) } });
  }
}
