// The "a user's documents changed" announcement (user-changes.ts): the
// changes of one event-loop turn leave as one event, against a real broker.
import { createLogger } from '@folio/logger';
import { deleteTopology, testInfra, uniqueName, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribeBroadcast, type BroadcastSubscription } from './broadcast.js';
import { Broker } from './broker.js';
import { announceUserChange, changedUsersOf, subscribeUserChanges } from './user-changes.js';

describe('changedUsersOf', () => {
  it('when the payload names one user or several, then those are the users', () => {
    expect(changedUsersOf({ user_id: 7 })).toEqual([7]);
    expect(changedUsersOf({ user_ids: [1, 2, 3] })).toEqual([1, 2, 3]);
  });

  it('when the payload names no valid user, then it means everyone', () => {
    for (const payload of [null, {}, { user_id: '7' }, { user_ids: [] }, { user_ids: [1, 'x'] }, { user_ids: [1.5] }])
      expect(changedUsersOf(payload)).toBeNull();
  });
});

describe('announceUserChange', () => {
  const logger = createLogger({ service: 'test', level: 'silent' });
  const exchange = uniqueName('user-changes');
  let broker: Broker;
  const subscriptions: BroadcastSubscription[] = [];
  const payloads: unknown[] = [];
  const forgotten: number[] = [];

  beforeAll(async () => {
    broker = await Broker.connect(testInfra().amqpUrl, { logger, name: 'user-changes-test' });
    subscriptions.push(
      await subscribeBroadcast(broker, { exchange, bindings: ['things.changed'], logger, handler: (event) => void payloads.push(event.payload) }),
    );
    subscriptions.push(
      await subscribeUserChanges({
        broker,
        logger,
        exchange,
        type: 'things.changed',
        forgetUser: (userId) => void forgotten.push(userId),
        forgetAll: () => {},
      }),
    );
  });
  afterAll(async () => {
    for (const subscription of subscriptions) await subscription.stop();
    await broker?.close();
    await deleteTopology({ exchanges: [exchange] }).catch(() => {});
  });

  it('when several users change within the window, then one event names each once, and subscribers forget each', async () => {
    for (const userId of [1, 2, 2, 3]) announceUserChange(broker, exchange, 'things.changed', userId, logger);
    await waitFor(async () => (forgotten.length >= 3 ? true : undefined), { what: 'the users forgotten' });
    expect(payloads).toEqual([{ user_ids: [1, 2, 3] }]);
    expect(forgotten.sort()).toEqual([1, 2, 3]);
  });

  it('when one user changes alone, then the event is the version-1 {user_id}', async () => {
    payloads.length = 0;
    announceUserChange(broker, exchange, 'things.changed', 9, logger);
    await waitFor(async () => (payloads.length > 0 ? true : undefined), { what: 'the event' });
    expect(payloads).toEqual([{ user_id: 9 }]);
  });
});
