// Publishing with confirms and consuming against the real RabbitMQ, including
// a broker connection that drops and comes back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentContext, type RequestContext } from '@folio/logger';
import { freshDatabase, startTcpProxy, testInfra, uniqueName, waitFor, type TcpProxy } from '@folio/testing';
import { Broker, createEvent, startConsumer, type DomainEvent } from '../src/index.js';
import { brokerAdmin, consumerQueues, recordingLogger, type BrokerAdmin } from './support.js';

const { logger } = recordingLogger();
const exchange = uniqueName('broker_test.events');
const queues: string[] = [];
let db: Awaited<ReturnType<typeof freshDatabase>>;
let admin: BrokerAdmin;
let broker: Broker;
let proxy: TcpProxy;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  db = await freshDatabase('messaging_broker');
  admin = await brokerAdmin();
  broker = await Broker.connect(testInfra().amqpUrl, { logger, name: 'broker-test' });
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

async function consumer(name: string, bindings: string[], target: Broker = broker) {
  const queue = uniqueName(name);
  queues.push(...consumerQueues(queue));
  const received: { event: DomainEvent; context: RequestContext | undefined }[] = [];
  const running = await startConsumer(target, {
    exchange,
    queue,
    bindings,
    idempotency: db.connection,
    logger,
    handler: async (event) => {
      received.push({ event, context: currentContext() });
    },
  });
  cleanups.push(() => running.stop());
  return { queue, received, running };
}

describe('Broker', () => {
  it('when an event is published with confirms, then a bound consumer receives it with every field', async () => {
    const { received } = await consumer('broker_all_fields', ['identity.user.*']);
    const event = createEvent('identity.user.registered', { user_id: 7, email: 'a@example.com' }, { tenantId: 3, version: 2 });

    await broker.publish(exchange, event);

    const [delivery] = await waitFor(() => (received.length ? received : undefined), { what: 'the event' });
    expect(delivery?.event).toEqual(event);
    expect(delivery?.context).toEqual({ requestId: event.id, tenantId: 3 });
  });

  it('when an event is published, then the message carries id, type, timestamp, JSON content type and persistence', async () => {
    const queue = uniqueName('broker_properties');
    queues.push(queue);
    await admin.channel.assertQueue(queue, { durable: true });
    await admin.channel.bindQueue(queue, exchange, 'catalog.issue.published');
    const event = createEvent('catalog.issue.published', { issue_id: 1 });

    await broker.publish(exchange, event);

    const message = await admin.nextMessage(queue);
    expect(message.fields.routingKey).toBe('catalog.issue.published');
    expect(message.properties).toMatchObject({
      messageId: event.id,
      type: 'catalog.issue.published',
      contentType: 'application/json',
      deliveryMode: 2,
      timestamp: Math.floor(Date.parse(event.occurred_at) / 1000),
    });
    expect(JSON.parse(message.content.toString())).toEqual(event);
  });

  it('when the broker is unreachable at start, then connect rejects unless it is lazy, and a lazy broker connects once it is back', async () => {
    await proxy.cut();
    const url = proxy.url(testInfra().amqpUrl);

    await expect(Broker.connect(url, { logger })).rejects.toThrow();
    const lazy = await Broker.connect(url, { logger, lazy: true, reconnectDelayMs: 50, maxReconnectDelayMs: 200 });
    cleanups.push(() => lazy.close());
    expect(lazy.isConnected()).toBe(false);
    await expect(lazy.publish(exchange, createEvent('x.y', {}))).rejects.toThrow(/not connected/);

    await proxy.restore();
    await waitFor(() => lazy.isConnected() || undefined, { what: 'the lazy broker to connect' });
  });

  it('when the connection drops and comes back, then the consumer consumes again', async () => {
    const viaProxy = await Broker.connect(proxy.url(testInfra().amqpUrl), { logger, reconnectDelayMs: 50, maxReconnectDelayMs: 200 });
    cleanups.push(() => viaProxy.close());
    const { received } = await consumer('broker_reconnect', ['reader.#'], viaProxy);

    await proxy.cut();
    await waitFor(() => !viaProxy.isConnected() || undefined, { what: 'the connection to drop' });
    await proxy.restore();
    await waitFor(() => viaProxy.isConnected() || undefined, { what: 'the reconnection' });
    const event = createEvent('reader.session.started', { session_id: 'abc' });
    await broker.publish(exchange, event);

    await waitFor(() => received.find((r) => r.event.id === event.id), { what: 'the event after reconnecting' });
  });
});
