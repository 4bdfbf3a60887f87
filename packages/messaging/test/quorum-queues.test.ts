// A consumer's queues are quorum queues on the real broker (the local one is a
// single node, which quorum queues support), a queue left classic by an older
// declaration is kept and still consumed, and the consumer's series are on
// /metrics: what it consumed, its backlog and its dead-letter queue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, testInfra, uniqueName, waitFor } from '@folio/testing';
import { renderMetrics } from '@folio/telemetry';
import { Broker, createEvent, startConsumer, type ConsumerOptions } from '../src/index.js';
import { brokerAdmin, consumerQueues, recordingLogger, type BrokerAdmin } from './support.js';

const { logger, lines } = recordingLogger();
const exchange = uniqueName('quorum_test.events');
const queues: string[] = [];
let db: Awaited<ReturnType<typeof freshDatabase>>;
let admin: BrokerAdmin;
let broker: Broker;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  db = await freshDatabase('messaging_quorum');
  admin = await brokerAdmin();
  broker = await Broker.connect(testInfra().amqpUrl, { logger, name: 'quorum-test' });
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await broker.close();
  await db.drop();
  await admin.cleanUp({ queues, exchanges: [exchange] });
  await admin.close();
});

async function consumer(queue: string, options: Pick<ConsumerOptions, 'bindings' | 'handler'>) {
  queues.push(...consumerQueues(queue));
  const running = await startConsumer(broker, { exchange, queue, idempotency: db.connection, logger, retryDelayMs: 200, ...options });
  cleanups.push(() => running.stop());
}

/** RabbitMQ accepts a re-declaration only with the queue's own type: a 406 otherwise. */
async function typeOf(queue: string): Promise<'quorum' | 'classic'> {
  const probe = await admin.connection.createChannel();
  probe.on('error', () => {});
  try {
    await probe.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum', ...(queue.endsWith('.retry') && retryArguments(queue)) } });
    return 'quorum';
  } catch {
    return 'classic';
  } finally {
    await probe.close().catch(() => {});
  }
}

const retryArguments = (retryQueue: string) => ({ 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': retryQueue.replace(/\.retry$/, '') });

function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2]!.matchAll(/([a-z_]+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('consumer queues', () => {
  it('when a consumer starts, then its queue, retry queue and dead-letter queue are quorum queues', async () => {
    const queue = uniqueName('quorum_new');
    await consumer(queue, { bindings: ['help.requested'], handler: async () => {} });

    for (const name of consumerQueues(queue)) expect(await typeOf(name), name).toBe('quorum');
  });

  it('when its queue already exists as a classic queue, then the consumer keeps it, warns, and consumes from it', async () => {
    const queue = uniqueName('quorum_legacy');
    await admin.channel.assertQueue(queue, { durable: true });
    const handled: string[] = [];
    await consumer(queue, {
      bindings: ['help.requested'],
      handler: async (event) => {
        handled.push(event.id);
      },
    });
    const event = createEvent('help.requested', { subject: 'legacy' }, { tenantId: 1 });

    await broker.publish(exchange, event);

    await waitFor(async () => (handled.includes(event.id) ? true : undefined), { what: 'the event handled from the classic queue' });
    expect(await typeOf(queue)).toBe('classic');
    expect(await typeOf(`${queue}.dead`)).toBe('quorum');
    expect(lines.some((line) => line.queue === queue && String(line.msg).includes('classic queue'))).toBe(true);
  });

  it('when messages were handled and dead-lettered, then /metrics shows them with the queue depths', async () => {
    const queue = uniqueName('quorum_metrics');
    await consumer(queue, {
      bindings: ['help.requested', 'help.failed'],
      handler: async (event) => {
        if (event.type === 'help.failed') throw new Error('no inbox');
      },
    });
    await broker.publish(exchange, createEvent('help.requested', { subject: 'ok' }, { tenantId: 1 }));
    await broker.publish(exchange, createEvent('help.failed', { subject: 'bad' }, { tenantId: 1 }));

    const text = await waitFor(
      async () => {
        const { body } = await renderMetrics();
        const settled =
          sample(body, 'folio_dead_letter_queue_messages', { queue }) === 1 &&
          sample(body, 'folio_messages_consumed_total', { queue, outcome: 'dead_lettered' }) === 1;
        return settled ? body : undefined;
      },
      { what: 'the dead-lettered message counted in the dead-letter queue' },
    );
    expect(sample(text, 'folio_messages_consumed_total', { queue, outcome: 'handled' })).toBe(1);
    expect(sample(text, 'folio_messages_consumed_total', { queue, outcome: 'retried' })).toBe(3);
    expect(sample(text, 'folio_messages_consumed_total', { queue, outcome: 'dead_lettered' })).toBe(1);
    expect(sample(text, 'folio_dead_letters_total', { queue })).toBe(1);
    expect(sample(text, 'folio_consumer_backlog_messages', { queue })).toBe(0);
    expect(sample(text, 'folio_messages_redelivered_total', { queue })).toBe(0);
  });
});
