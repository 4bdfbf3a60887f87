// The one account.deleted consumer every service wires: against the real
// RabbitMQ and MongoDB wire protocol, a valid event erases once, and a payload
// without a valid user_id is dead-lettered at once, never retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, testInfra, uniqueName, waitFor } from '@folio/testing';
import {
  ACCOUNT_DELETED,
  accountEraserQueue,
  Broker,
  createEvent,
  FAILED_ATTEMPTS_HEADER,
  LAST_ERROR_HEADER,
  startAccountEraser,
  type AccountDeletion,
  type RunningConsumer,
} from '../src/index.js';
import { brokerAdmin, consumerQueues, recordingLogger, type BrokerAdmin } from './support.js';

const { logger } = recordingLogger();
const config = {
  IDENTITY_EVENTS_EXCHANGE: uniqueName('account_eraser_test.identity.events'),
  QUEUE_PREFIX: uniqueName('account_eraser_test'),
  CONSUMER_MAX_RETRIES: 3,
  CONSUMER_RETRY_DELAY_MS: 200,
};
const queue = accountEraserQueue(config.QUEUE_PREFIX);
const erased: AccountDeletion[] = [];
let db: Awaited<ReturnType<typeof freshDatabase>>;
let admin: BrokerAdmin;
let broker: Broker;
let eraser: RunningConsumer;

beforeAll(async () => {
  db = await freshDatabase('messaging_account_eraser');
  admin = await brokerAdmin();
  broker = await Broker.connect(testInfra().amqpUrl, { logger, name: 'account-eraser-test' });
  eraser = await startAccountEraser({
    broker,
    connection: db.connection,
    logger,
    config,
    erase: async (deletion) => {
      erased.push(deletion);
    },
  });
});

afterAll(async () => {
  await eraser?.stop();
  await broker?.close();
  await db?.drop();
  await admin?.cleanUp({ queues: consumerQueues(queue), exchanges: [config.IDENTITY_EVENTS_EXCHANGE] });
  await admin?.close();
});

describe('startAccountEraser', () => {
  it('when account.deleted names a user, then erase runs once with the user id and the e-mail', async () => {
    const event = createEvent(ACCOUNT_DELETED, { user_id: 41, email: 'leaving@example.com' });

    await broker.publish(config.IDENTITY_EVENTS_EXCHANGE, event);
    await broker.publish(config.IDENTITY_EVENTS_EXCHANGE, event);

    await waitFor(async () => (erased.some((deletion) => deletion.userId === 41) ? true : undefined), { what: 'the erasure of user 41' });
    await broker.publish(config.IDENTITY_EVENTS_EXCHANGE, createEvent(ACCOUNT_DELETED, { user_id: 42 }));
    await waitFor(async () => (erased.some((deletion) => deletion.userId === 42) ? true : undefined), { what: 'the erasure of user 42' });
    expect(erased.filter((deletion) => deletion.userId === 41)).toEqual([{ userId: 41, email: 'leaving@example.com' }]);
    expect(erased.find((deletion) => deletion.userId === 42)).toEqual({ userId: 42, email: null });
  });

  it.each([[0], [-3], [1.5], ['7'], [2 ** 53], [null]])(
    'when user_id is %j, then the message is dead-lettered at once and nothing is erased',
    async (userId) => {
      const before = erased.length;
      const event = createEvent(ACCOUNT_DELETED, { user_id: userId });

      await broker.publish(config.IDENTITY_EVENTS_EXCHANGE, event);

      const dead = await admin.nextMessage(`${queue}.dead`);
      expect(dead.properties.messageId).toBe(event.id);
      expect(dead.properties.headers).toMatchObject({
        [LAST_ERROR_HEADER]: 'account.deleted without a valid user_id (a positive integer)',
        [FAILED_ATTEMPTS_HEADER]: 1,
      });
      expect(erased.length).toBe(before);
    },
  );
});
