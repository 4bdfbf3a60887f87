// One RabbitMQ connection per process: publishes domain events with publisher
// confirms and keeps reconnecting after the broker goes away, so that callers
// (the outbox relay, consumers) only ever see "connected or not".
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import type { Logger } from '@folio/logger';
import type { DomainEvent } from './event.js';

export interface BrokerOptions {
  logger: Logger;
  /** Shown in the RabbitMQ management UI as the connection name. */
  name?: string;
  /** Return at once and connect in the background instead of failing when the broker is down at start. */
  lazy?: boolean;
  /** First reconnect delay; doubles up to maxReconnectDelayMs. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
}

export class BrokerUnavailableError extends Error {
  constructor() {
    super('message broker is not connected');
    this.name = 'BrokerUnavailableError';
  }
}

export class Broker {
  private model: ChannelModel | undefined;
  private publisher: Promise<ConfirmChannel> | undefined;
  private readonly declaredExchanges = new Set<string>();
  private readonly connectedListeners = new Set<() => void>();
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failedAttempts = 0;
  private closed = false;
  private readonly logger: Logger;

  private constructor(
    private readonly url: string,
    private readonly options: BrokerOptions,
  ) {
    this.logger = options.logger.child({ component: 'broker' });
  }

  static async connect(url: string, options: BrokerOptions): Promise<Broker> {
    const broker = new Broker(url, options);
    if (options.lazy) {
      broker.open().catch((error) => broker.retryLater(error));
    } else {
      await broker.open();
    }
    return broker;
  }

  isConnected(): boolean {
    return this.model !== undefined;
  }

  /** Runs `listener` after every reconnection; consumers re-declare and re-consume there. Returns an unsubscribe. */
  onConnected(listener: () => void): () => void {
    this.connectedListeners.add(listener);
    return () => this.connectedListeners.delete(listener);
  }

  /** A fresh confirm channel on the current connection, owned by the caller. */
  async createChannel(): Promise<ConfirmChannel> {
    if (!this.model) throw new BrokerUnavailableError();
    return this.model.createConfirmChannel();
  }

  /**
   * Publishes to a durable topic exchange with the event type as routing key.
   * Resolves only once the broker has taken responsibility for the message.
   */
  async publish(exchange: string, event: DomainEvent): Promise<void> {
    const channel = await this.publishChannel();
    if (!this.declaredExchanges.has(exchange)) {
      await channel.assertExchange(exchange, 'topic', { durable: true });
      this.declaredExchanges.add(exchange);
    }
    const occurredAt = Date.parse(event.occurred_at);
    await new Promise<void>((resolve, reject) => {
      channel.publish(
        exchange,
        event.type,
        Buffer.from(JSON.stringify(event)),
        {
          persistent: true,
          contentType: 'application/json',
          messageId: event.id,
          type: event.type,
          // AMQP timestamps are whole seconds.
          timestamp: Math.floor((Number.isNaN(occurredAt) ? Date.now() : occurredAt) / 1000),
        },
        (error: unknown) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()),
      );
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const model = this.model;
    this.model = undefined;
    this.publisher = undefined;
    await model?.close().catch(() => {});
  }

  private async open(): Promise<void> {
    const model = await amqp.connect(this.url, {
      clientProperties: { connection_name: this.options.name ?? 'folio' },
    });
    if (this.closed) {
      await model.close().catch(() => {});
      return;
    }
    // amqplib emits 'error' before 'close'; without a listener it would crash the process.
    model.on('error', (error: unknown) => this.logger.warn({ err: error }, 'broker connection error'));
    model.on('close', () => this.lost(model));
    this.model = model;
    this.failedAttempts = 0;
    this.logger.info('connected to the message broker');
    for (const listener of this.connectedListeners) listener();
  }

  private lost(model: ChannelModel): void {
    if (this.model !== model) return;
    this.model = undefined;
    this.publisher = undefined;
    if (this.closed) return;
    this.logger.warn('lost the message broker connection; reconnecting');
    this.retryLater();
  }

  private retryLater(error?: unknown): void {
    if (this.closed) return;
    if (error) this.logger.warn({ err: error, attempt: this.failedAttempts }, 'cannot reach the message broker');
    const base = this.options.reconnectDelayMs ?? 500;
    const max = this.options.maxReconnectDelayMs ?? 15_000;
    // Jitter keeps a fleet of replicas from reconnecting in lockstep.
    const delay = Math.min(max, base * 2 ** this.failedAttempts) * (0.75 + Math.random() / 2);
    this.failedAttempts += 1;
    this.reconnectTimer = setTimeout(() => {
      this.open().catch((nextError) => this.retryLater(nextError));
    }, delay);
  }

  private publishChannel(): Promise<ConfirmChannel> {
    if (!this.model) return Promise.reject(new BrokerUnavailableError());
    if (!this.publisher) {
      const created = this.model.createConfirmChannel().then((channel) => {
        channel.on('error', (error: unknown) => this.logger.warn({ err: error }, 'publish channel error'));
        channel.on('close', () => {
          // A channel error (say, a deleted exchange) closes only the channel: open a new one next time.
          if (this.publisher === created) this.publisher = undefined;
          this.declaredExchanges.clear();
        });
        return channel;
      });
      created.catch(() => {
        if (this.publisher === created) this.publisher = undefined;
      });
      this.publisher = created;
    }
    return this.publisher;
  }
}
