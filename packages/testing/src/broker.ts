// A test file's own topology on the shared RabbitMQ: observing the events a
// service publishes (what other services would receive) and removing the
// exchanges and consumer queues the file declared once it is done. A plain
// amqplib connection, independent of @folio/messaging (which tests with this).
import amqp from 'amqplib';
import { testInfra } from './infra.js';
import { waitFor } from './wait.js';

/** The queues a consumer of `queue` declares: the queue, its retry queue and its dead-letter queue. */
export function consumerQueues(queue: string): string[] {
  return [queue, `${queue}.retry`, `${queue}.dead`];
}

/** What a test file declared on the shared broker. */
export interface TestTopology {
  exchanges?: string[];
  /** The consumers' queue names; their `.retry` and `.dead` queues go with them. */
  consumers?: string[];
}

/** Removes a test file's exchanges and consumer queues from the shared broker. */
export async function deleteTopology({ exchanges = [], consumers = [] }: TestTopology): Promise<void> {
  const connection = await amqp.connect(testInfra().amqpUrl);
  try {
    const channel = await connection.createChannel();
    for (const queue of consumers.flatMap(consumerQueues)) await channel.deleteQueue(queue);
    for (const exchange of exchanges) await channel.deleteExchange(exchange);
    await channel.close();
  } finally {
    await connection.close();
  }
}

/** An event as it arrived in JSON: its type and payload typed, the rest of the envelope as sent. */
export interface ObservedEvent<P = unknown> {
  type: string;
  payload: P;
  readonly [field: string]: unknown;
}

export interface EventObserver {
  /** Every event received so far, in arrival order. */
  received: ObservedEvent[];
  /** The first event of `type` that `match` accepts, waiting for it up to `timeoutMs`. */
  waitFor<P = unknown>(type: string, match?: (event: ObservedEvent<P>) => boolean, timeoutMs?: number): Promise<ObservedEvent<P>>;
  close(): Promise<void>;
}

/** A queue of our own (exclusive, deleted with the connection) bound to `exchange` with `bindings`, collecting what arrives. */
export async function observeEvents(exchange: string, bindings: string[]): Promise<EventObserver> {
  const connection = await amqp.connect(testInfra().amqpUrl);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  for (const binding of bindings) await channel.bindQueue(queue, exchange, binding);
  const received: ObservedEvent[] = [];
  await channel.consume(queue, (message) => {
    if (!message) return;
    received.push(JSON.parse(message.content.toString('utf8')) as ObservedEvent);
    channel.ack(message);
  });
  return {
    received,
    waitFor: <P = unknown>(type: string, match: (event: ObservedEvent<P>) => boolean = () => true, timeoutMs = 10_000) =>
      waitFor(() => received.find((event) => event.type === type && match(event as ObservedEvent<P>)) as ObservedEvent<P> | undefined, {
        timeoutMs,
        what: `event ${type}`,
      }),
    close: async () => {
      await channel.close().catch(() => {});
      await connection.close().catch(() => {});
    },
  };
}
