// Broadcast subscriptions: every process that subscribes gets its own copy of
// each matching event. A work queue (startConsumer) hands an event to ONE
// replica, which is right for work done once (erase an account) and wrong for
// state every replica holds, such as caches: each replica must drop its entry.
//
// Each subscription is a server-named queue, exclusive to this connection,
// auto-deleted and not durable, bound to the exchange. It lives exactly as
// long as the connection: nothing piles up for a replica that is gone, and a
// replica that was disconnected has missed whatever was published meanwhile.
// That is why `onSubscribed` runs after every (re)subscription: a cache
// clears itself there, so a lost invalidation costs at most the time the
// connection was down (and a cache's TTL bounds even the case where the
// broker never comes back).
//
// Messages are auto-acknowledged and handled once, without retries or
// deduplication: an invalidation is idempotent and cheap, and one lost to a
// crash is bounded the same way.
import type { ConfirmChannel } from 'amqplib';
import type { Logger } from '@folio/logger';
import { BrokerUnavailableError, type Broker } from './broker.js';
import { parseEvent, type DomainEvent } from './event.js';

export interface BroadcastOptions {
  exchange: string;
  /** Routing keys; topic patterns (`access.*`) are allowed. */
  bindings: string[];
  handler: (event: DomainEvent) => void | Promise<void>;
  /** Runs each time a fresh queue is bound: events published while there was none were missed. */
  onSubscribed?: () => void;
  logger: Logger;
  /** Wait before re-subscribing after a channel closed on its own; default 1000 ms. */
  retryDelayMs?: number;
}

export interface BroadcastSubscription {
  /** True while a queue is bound and consuming: events published now reach this process. */
  attached(): boolean;
  /** Stops consuming; the broker deletes the queue. */
  stop(): Promise<void>;
}

export async function subscribeBroadcast(broker: Broker, options: BroadcastOptions): Promise<BroadcastSubscription> {
  const subscription = new Subscription(broker, options);
  await subscription.start();
  return { attached: () => subscription.attached(), stop: () => subscription.stop() };
}

class Subscription {
  private readonly logger: Logger;
  private channel: ConfirmChannel | undefined;
  private attaching: Promise<void> | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly broker: Broker,
    private readonly options: BroadcastOptions,
  ) {
    this.logger = options.logger.child({ component: 'broadcast', exchange: options.exchange });
  }

  /** Subscribes now when connected (so that a bad topology fails the start), else on connection. */
  async start(): Promise<void> {
    this.unsubscribe = this.broker.onConnected(() => this.attachInBackground());
    if (this.broker.isConnected()) await this.attach();
  }

  attached(): boolean {
    return this.channel !== undefined && this.broker.isConnected();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.retryTimer);
    await this.attaching?.catch(() => {});
    const channel = this.channel;
    this.channel = undefined;
    await channel?.close().catch(() => {});
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
      if (error instanceof BrokerUnavailableError || !this.broker.isConnected()) return;
      this.logger.error({ err: error }, 'cannot subscribe; retrying');
      this.retryLater();
    });
  }

  private retryLater(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.attachInBackground(), this.options.retryDelayMs ?? 1_000);
  }

  private async open(): Promise<void> {
    const { exchange, bindings } = this.options;
    const channel = await this.broker.createChannel();
    channel.on('error', (error: unknown) => this.logger.warn({ err: error }, 'broadcast channel error'));
    channel.on('close', () => {
      if (this.channel === channel) this.channel = undefined;
      // A lost connection comes back through onConnected; a channel closed on its own needs a new one here.
      if (!this.stopped && this.broker.isConnected()) this.retryLater();
    });
    try {
      await channel.assertExchange(exchange, 'topic', { durable: true });
      const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
      for (const pattern of bindings) await channel.bindQueue(queue, exchange, pattern);
      await channel.consume(
        queue,
        (message) => {
          if (!message) {
            channel.close().catch(() => {});
            return;
          }
          const parsed = parseEvent(message.content);
          if ('error' in parsed) {
            this.logger.warn({ reason: parsed.error }, 'malformed broadcast message ignored');
            return;
          }
          this.deliver(parsed.event);
        },
        { noAck: true },
      );
      if (this.stopped) {
        await channel.close().catch(() => {});
        return;
      }
      this.channel = channel;
      this.logger.info({ queue, bindings }, 'subscribed');
      this.options.onSubscribed?.();
    } catch (error) {
      await channel.close().catch(() => {});
      throw error;
    }
  }

  private deliver(event: DomainEvent): void {
    try {
      Promise.resolve(this.options.handler(event)).catch((error: unknown) =>
        this.logger.warn({ err: error, event_type: event.type }, 'broadcast handler failed'),
      );
    } catch (error) {
      this.logger.warn({ err: error, event_type: event.type }, 'broadcast handler failed');
    }
  }
}
