// Broadcast subscriptions against the real RabbitMQ: every subscriber gets
// each event (unlike a work queue), the queue disappears with the
// subscriber, and a subscriber that lost its connection is told it may have
// missed events when it subscribes again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, testInfra, uniqueName, waitFor, type TcpProxy } from '@folio/testing';
import { Broker, createEvent, subscribeBroadcast, type BroadcastSubscription, type DomainEvent } from '../src/index.js';
import { brokerAdmin, recordingLogger, type BrokerAdmin } from './support.js';

const { logger } = recordingLogger();
const exchange = uniqueName('broadcast_test.events');
let admin: BrokerAdmin;
let broker: Broker;
let proxy: TcpProxy;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  admin = await brokerAdmin();
  broker = await Broker.connect(testInfra().amqpUrl, { logger, name: 'broadcast-test' });
  const { hostname, port } = new URL(testInfra().amqpUrl);
  proxy = await startTcpProxy(hostname, Number(port || 5672));
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await broker.close();
  await proxy.close();
  await admin.cleanUp({ exchanges: [exchange] });
  await admin.close();
});

async function subscriber(target: Broker, bindings: string[]) {
  const received: DomainEvent[] = [];
  let subscriptions = 0;
  const running: BroadcastSubscription = await subscribeBroadcast(target, {
    exchange,
    bindings,
    logger,
    handler: (event) => {
      received.push(event);
    },
    onSubscribed: () => {
      subscriptions += 1;
    },
  });
  cleanups.push(() => running.stop());
  return { received, running, subscriptions: () => subscriptions };
}

describe('subscribeBroadcast', () => {
  it('when an event is published, then every subscriber (every replica) receives it, and only the bound types', async () => {
    const replicaA = await subscriber(broker, ['access.changed']);
    const replicaB = await subscriber(broker, ['access.changed']);
    const event = createEvent('access.changed', { tenant_id: 1, user_id: 7 }, { tenantId: 1 });

    await broker.publish(exchange, createEvent('purchase.completed', { order_id: 'x' }));
    await broker.publish(exchange, event);

    await waitFor(() => (replicaA.received.length && replicaB.received.length ? true : undefined), { what: 'both replicas' });
    expect(replicaA.received).toEqual([event]);
    expect(replicaB.received).toEqual([event]);
  });

  it('when a subscriber stops, then its queue is gone from the broker', async () => {
    const replica = await subscriber(broker, ['tenant.updated']);
    expect(replica.running.attached()).toBe(true);
    await replica.running.stop();
    expect(replica.running.attached()).toBe(false);

    // Nothing is bound any more: a mandatory message is returned as unroutable, and RabbitMQ sends the return before the confirm.
    const probe = await admin.connection.createConfirmChannel();
    let returned = false;
    probe.on('return', () => {
      returned = true;
    });
    probe.publish(exchange, 'tenant.updated', Buffer.from('{}'), { mandatory: true });
    await probe.waitForConfirms();
    await probe.close();
    const routed = !returned;
    expect(routed).toBe(false);
  });

  it('when the connection drops and comes back, then the subscriber is detached meanwhile, told to drop what it cached, and receives events again', async () => {
    const flaky = await Broker.connect(proxy.url(testInfra().amqpUrl), { logger, name: 'broadcast-flaky', reconnectDelayMs: 50, maxReconnectDelayMs: 200 });
    cleanups.push(() => flaky.close());
    const replica = await subscriber(flaky, ['access.changed']);
    expect(replica.subscriptions()).toBe(1);

    await proxy.cut();
    await waitFor(() => !replica.running.attached() || undefined, { what: 'the subscription to detach' });
    await proxy.restore();
    await waitFor(() => (replica.subscriptions() >= 2 ? true : undefined), { what: 'a new subscription after the cut' });
    expect(replica.running.attached()).toBe(true);
    const event = createEvent('access.changed', { tenant_id: 2 }, { tenantId: 2 });
    await broker.publish(exchange, event);

    await waitFor(() => (replica.received.some((received) => received.id === event.id) ? true : undefined), { what: 'the event after reconnecting' });
  });
});
