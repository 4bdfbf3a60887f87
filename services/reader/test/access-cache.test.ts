// Reader keeps commerce's "yes" (peers/cached-access.ts) with a TTL far longer
// than this test runs; a revocation must still refuse the very next read,
// because commerce's access.changed drops the entry, and a grant must open
// the book at once, because a "no" is never kept. Real commerce and RabbitMQ;
// access changes go through commerce's own seed, which announces them.
import { createLogger } from '@folio/logger';
import { Broker, createEvent, Outbox } from '@folio/messaging';
import { failureOf, testInfra, waitFor } from '@folio/testing';
import { seedCommerce, type CommerceDataset } from '@folio/commerce/seed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataset, startReaderStack, USERS, type ReaderStack } from './support/stack.js';

const demo = dataset as unknown as CommerceDataset;
const issue = (id: number) => demo.issues.find((candidate) => candidate.id === id)!;

describe('cached access decisions', () => {
  let stack: ReaderStack;
  let broker: Broker;
  const quiet = createLogger({ service: 'test', level: 'silent' });

  beforeAll(async () => {
    stack = await startReaderStack({ only: [1002, 1007], overrides: { ACCESS_CACHE_TTL_MS: '600000' } });
    broker = await Broker.connect(testInfra().amqpUrl, { logger: quiet, name: 'reader-test-commerce-seed' });
  });
  afterAll(async () => {
    await broker?.close();
    await stack?.stop();
  });

  /** Changes access the way `./dev seed` does: commerce's seed, with access.changed through commerce's outbox. */
  const changeAccess = async (more: Pick<CommerceDataset, 'issues' | 'access'>) => {
    const outbox = new Outbox(stack.commerceDb, broker, { exchange: stack.commerceExchange, logger: quiet });
    try {
      await seedCommerce(stack.commerceDb, { subscriptions: [], ...more } as CommerceDataset, {
        events: { publish: async (type, payload, meta) => outbox.add(createEvent(type, payload, meta)) },
      });
    } finally {
      await outbox.stop();
    }
  };
  const open = (userId: number, issueId: number) => stack.client.createReaderSession({ tenantId: 1, userId, issueId, preview: false });

  it('when commerce revokes a grant that reader has cached, then the next open is refused without waiting for the TTL', async () => {
    await open(USERS.bruno, 1007);
    await open(USERS.bruno, 1007); // the "yes" is now cached

    await changeAccess({
      issues: [issue(1007)],
      access: [{ email: 'bruno@example.com', issue_id: 1007, source: 'admin', revoked: true }] as CommerceDataset['access'],
    });

    await waitFor(async () => ((await failureOf(open(USERS.bruno, 1007))).code === 'PERMISSION_DENIED' ? true : undefined), {
      what: 'the revoked issue refused',
    });
  });

  it('when a user without access is then granted the issue, then the first open after the grant succeeds (a "no" is never cached)', async () => {
    expect((await failureOf(open(USERS.bruno, 1002))).code).toBe('PERMISSION_DENIED');

    // Without announcing: the grant alone must be enough.
    await seedCommerce(stack.commerceDb, {
      issues: [issue(1002)],
      access: [{ email: 'bruno@example.com', issue_id: 1002, source: 'gift' }],
      subscriptions: [],
    } as unknown as CommerceDataset);

    await expect(open(USERS.bruno, 1002)).resolves.toBeDefined();
  });
});
