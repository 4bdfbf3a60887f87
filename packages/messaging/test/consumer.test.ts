// Consumers against the real RabbitMQ and MongoDB wire protocol: retries and
// dead-lettering, duplicate deliveries, and poison messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, testInfra, uniqueName, waitFor } from '@folio/testing';
import {
  ATTEMPT_HEADER,
  Broker,
  createEvent,
  FAILED_ATTEMPTS_HEADER,
  LAST_ERROR_HEADER,
  startConsumer,
  type ConsumerOptions,
  type DomainEvent,
} from '../src/index.js';
import { brokerAdmin, consumerQueues, recordingLogger, type BrokerAdmin } from './support.js';

const { logger, lines } = recordingLogger();
const exchange = uniqueName('consumer_test.events');
const queues: string[] = [];
let db: Awaited<ReturnType<typeof freshDatabase>>;
let admin: BrokerAdmin;
let broker: Broker;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  db = await freshDatabase('messaging_consumer');
  admin = await brokerAdmin();
  broker = await Broker.connect(testInfra().amqpUrl, { logger, name: 'consumer-test' });
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await broker.close();
  await db.drop();
  await admin.cleanUp({ queues, exchanges: [exchange] });
  await admin.close();
});

async function consumer(name: string, options: Pick<ConsumerOptions, 'bindings' | 'handler'> & Partial<ConsumerOptions>) {
  const queue = uniqueName(name);
  queues.push(...consumerQueues(queue));
  const running = await startConsumer(broker, { exchange, queue, idempotency: db.connection, logger, ...options });
  cleanups.push(() => running.stop());
  return queue;
}

const skippedDuplicates = (eventId: string) => lines.filter((line) => line.msg === 'duplicate event skipped' && line.request_id === eventId).length;

describe('startConsumer', () => {
  it('when the handler keeps failing, then it is retried maxRetries times and the message lands in <queue>.dead with the last error', async () => {
    const attempts: number[] = [];
    const queue = await consumer('consumer_failing', {
      bindings: ['help.requested'],
      maxRetries: 2,
      retryDelayMs: 200,
      handler: async (_event, { attempt }) => {
        attempts.push(attempt);
        throw new Error(`support mailbox is full (attempt ${attempt})`);
      },
    });
    const event = createEvent('help.requested', { subject: 'billing' }, { tenantId: 5 });

    await broker.publish(exchange, event);

    const dead = await admin.nextMessage(`${queue}.dead`);
    expect(attempts).toEqual([1, 2, 3]);
    expect(JSON.parse(dead.content.toString())).toEqual(event);
    expect(dead.properties.messageId).toBe(event.id);
    expect(dead.properties.headers).toMatchObject({
      [LAST_ERROR_HEADER]: 'support mailbox is full (attempt 3)',
      [FAILED_ATTEMPTS_HEADER]: 3,
      'x-original-exchange': exchange,
      'x-original-routing-key': 'help.requested',
    });
    expect(dead.properties.headers).not.toHaveProperty(ATTEMPT_HEADER);
    expect(await admin.messageCount(`${queue}.retry`)).toBe(0);
  });

  it('when the handler fails once, then the retry succeeds and nothing is dead-lettered', async () => {
    const attempts: number[] = [];
    const queue = await consumer('consumer_flaky', {
      bindings: ['push.*'],
      retryDelayMs: 100,
      handler: async (_event, { attempt }) => {
        attempts.push(attempt);
        if (attempt === 1) throw new Error('push provider timed out');
      },
    });

    await broker.publish(exchange, createEvent('push.registered', { token: 'abc' }));

    await waitFor(() => (attempts.length === 2 ? true : undefined), { what: 'the retry' });
    expect(attempts).toEqual([1, 2]);
    expect(await admin.messageCount(`${queue}.dead`)).toBe(0);
  });

  it('when the same event is delivered twice in a row, then the handler runs once', async () => {
    const handled: DomainEvent[] = [];
    await consumer('consumer_duplicate', {
      bindings: ['account.deleted'],
      prefetch: 1,
      handler: async (event) => {
        handled.push(event);
      },
    });
    const event = createEvent('account.deleted', { user_id: 42 }, { tenantId: 1 });

    await broker.publish(exchange, event);
    await broker.publish(exchange, event);

    await waitFor(() => skippedDuplicates(event.id) || undefined, { what: 'the duplicate to be skipped' });
    expect(handled.map((e) => e.id)).toEqual([event.id]);
  });

  it('when two copies of an event arrive at once, then the handler runs once', async () => {
    let running = 0;
    let calls = 0;
    await consumer('consumer_concurrent_duplicate', {
      bindings: ['account.deletion_requested'],
      prefetch: 10,
      retryDelayMs: 100,
      handler: async () => {
        calls += 1;
        running += 1;
        await new Promise((resolve) => setTimeout(resolve, 300));
        running -= 1;
      },
    });
    const event = createEvent('account.deletion_requested', { user_id: 43 });

    await Promise.all([broker.publish(exchange, event), broker.publish(exchange, event)]);

    await waitFor(() => skippedDuplicates(event.id) || undefined, { what: 'the duplicate to be skipped' });
    expect(calls).toBe(1);
    expect(running).toBe(0);
  });

  it('when its queue is deleted under it, then the consumer declares it again and goes on consuming', async () => {
    const handled: string[] = [];
    const queue = await consumer('consumer_queue_deleted', {
      bindings: ['catalog.#'],
      retryDelayMs: 100,
      handler: async (event) => {
        handled.push(event.id);
      },
    });

    await admin.channel.deleteQueue(queue);
    await waitFor(async () => ((await admin.inspect(queue))?.consumerCount === 1 ? true : undefined), { what: 'the queue to come back' });
    const event = createEvent('catalog.issue.published', { issue_id: 9 });
    await broker.publish(exchange, event);

    await waitFor(() => handled.find((id) => id === event.id), { what: 'the event' });
  });

  it('when a message is not a valid event, then it is dead-lettered at once without retries', async () => {
    let calls = 0;
    const queue = await consumer('consumer_malformed', {
      bindings: ['notes.#'],
      maxRetries: 3,
      retryDelayMs: 100,
      handler: async () => {
        calls += 1;
      },
    });

    admin.channel.publish(exchange, 'notes.created', Buffer.from('{not json'), { messageId: 'garbage-1' });
    admin.channel.publish(exchange, 'notes.created', Buffer.from(JSON.stringify({ type: 'notes.created', payload: {} })), { messageId: 'no-id' });

    const first = await admin.nextMessage(`${queue}.dead`);
    const second = await admin.nextMessage(`${queue}.dead`);
    expect([first.properties.messageId, second.properties.messageId]).toEqual(['garbage-1', 'no-id']);
    expect(first.content.toString()).toBe('{not json');
    expect(first.properties.headers?.[LAST_ERROR_HEADER]).toBe('body is not JSON');
    expect(second.properties.headers?.[LAST_ERROR_HEADER]).toBe('event has no id');
    expect(first.properties.headers?.[ATTEMPT_HEADER]).toBeUndefined();
    expect(calls).toBe(0);
    expect(await admin.messageCount(`${queue}.retry`)).toBe(0);
  });
});
