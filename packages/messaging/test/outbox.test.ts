// The outbox against the real RabbitMQ and MongoDB wire protocol: events
// written during a broker outage are kept and delivered once it is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, startTcpProxy, testInfra, uniqueName, waitFor, type TcpProxy } from '@folio/testing';
import { Broker, BrokerUnavailableError, createEvent, Outbox, startConsumer, type DomainEvent } from '../src/index.js';
import { brokerAdmin, consumerQueues, isFerretDB, recordingLogger, type BrokerAdmin } from './support.js';

const { logger } = recordingLogger();
const exchange = uniqueName('outbox_test.events');
const queues: string[] = [];
let db: Awaited<ReturnType<typeof freshDatabase>>;
let admin: BrokerAdmin;
let broker: Broker;
let proxy: TcpProxy;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  db = await freshDatabase('messaging_outbox');
  admin = await brokerAdmin();
  broker = await Broker.connect(testInfra().amqpUrl, { logger, name: 'outbox-test' });
  const { hostname, port } = new URL(testInfra().amqpUrl);
  proxy = await startTcpProxy(hostname, Number(port || 5672));
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await broker.close();
  await proxy.close();
  await db.drop();
  await admin.cleanUp({ queues, exchanges: [exchange] });
  await admin.close();
});

async function consumer(name: string, bindings: string[]) {
  const queue = uniqueName(name);
  queues.push(...consumerQueues(queue));
  const received: DomainEvent[] = [];
  const running = await startConsumer(broker, {
    exchange,
    queue,
    bindings,
    idempotency: db.connection,
    logger,
    prefetch: 1,
    handler: async (event) => {
      received.push(event);
    },
  });
  cleanups.push(() => running.stop());
  return received;
}

const outboxRow = (eventId: string) => db.connection.collection('outbox').findOne({ event_id: eventId });

describe('Outbox', () => {
  it('when events are added while the broker is unreachable, then they are kept and delivered in order after it is back', async () => {
    const received = await consumer('outbox_outage', ['help.#']);
    const viaProxy = await Broker.connect(proxy.url(testInfra().amqpUrl), { logger, lazy: true, reconnectDelayMs: 50, maxReconnectDelayMs: 200 });
    cleanups.push(() => viaProxy.close());
    const outbox = new Outbox(db.connection, viaProxy, { exchange, logger, pollIntervalMs: 100, maxBackoffMs: 300 });
    outbox.start();
    cleanups.push(() => outbox.stop());
    await proxy.cut();
    await waitFor(() => !viaProxy.isConnected() || undefined, { what: 'the connection to drop' });
    const events = [1, 2, 3].map((n) => createEvent('help.requested', { n }, { tenantId: 1 }));

    for (const event of events) await outbox.add(event);

    await expect(outbox.relayOnce()).rejects.toThrow(BrokerUnavailableError);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received).toEqual([]);
    expect(await outboxRow(events[0]!.id)).toMatchObject({ published_at: null, event: events[0] });

    await proxy.restore();

    await waitFor(() => (received.length === 3 ? true : undefined), { what: 'the three events' });
    expect(received.map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(received[0]).toEqual(events[0]);
    for (const event of events) expect((await outboxRow(event.id))?.published_at).toBeInstanceOf(Date);
    await outbox.stop();
  });

  it('when the broker is up, then add publishes right away without a running relay', async () => {
    const received = await consumer('outbox_immediate', ['push.registered']);
    const outbox = new Outbox(db.connection, broker, { exchange, logger });
    const event = createEvent('push.registered', { token: 't' });

    await outbox.add(event);

    await waitFor(() => received.find((e) => e.id === event.id), { what: 'the event' });
    expect(await outbox.relayOnce()).toBe(0);
  });

  it('when the same event is added twice, then it is recorded and published once', async () => {
    const received = await consumer('outbox_twice', ['account.deletion_requested']);
    const outbox = new Outbox(db.connection, broker, { exchange, logger });
    const event = createEvent('account.deletion_requested', { user_id: 5 }, { id: 'deletion-request-5' });

    await outbox.add(event);
    await outbox.add(event);

    await waitFor(() => received.find((e) => e.id === event.id), { what: 'the event' });
    expect(await db.connection.collection('outbox').countDocuments({ event_id: event.id })).toBe(1);
    expect(await outbox.relayOnce()).toBe(0);
  });

  it('when two relays drain the same outbox at once, then every row is published, each once where the database isolates updates', async () => {
    const outboxA = new Outbox(db.connection, broker, { exchange, logger, batchSize: 100 });
    const outboxB = new Outbox(db.connection, broker, { exchange, logger, batchSize: 100 });
    const rows = db.connection.collection('outbox');
    // Written directly so that neither relay is triggered by add().
    const events = Array.from({ length: 20 }, (_, n) => createEvent('account.deleted', { n }));
    await outboxA.ensureIndexes();
    await rows.insertMany(
      events.map((event) => ({
        event_id: event.id,
        exchange,
        event,
        occurred_at: new Date(event.occurred_at),
        created_at: new Date(),
        published_at: null,
        claimed_until: null,
        claim: null,
        attempts: 0,
      })),
    );

    const [a, b] = await Promise.all([outboxA.relayOnce(), outboxB.relayOnce()]);

    expect(await rows.countDocuments({ event_id: { $in: events.map((e) => e.id) }, published_at: { $ne: null } })).toBe(20);
    // FerretDB lets both claims win now and then: a duplicate publish, which consumers absorb by event id.
    if (await isFerretDB(db.connection)) expect(a + b).toBeGreaterThanOrEqual(20);
    else expect(a + b).toBe(20);
  });
});
