// Catalog caches access decisions (commerce) and tenant settings (identity)
// with TTLs far longer than this test runs; each change must still show on
// the next read, because the publisher's event drops the entry. Real
// commerce, identity and RabbitMQ; changes go through the publishers' own
// write paths (commerce's seed and account erasure, identity's seed).
import { catalog } from '@folio/proto';
import { seedIdentity, type IdentityDataset } from '@folio/identity/seed';
import { Broker, createEvent, Outbox } from '@folio/messaging';
import { createLogger } from '@folio/logger';
import { testInfra, waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommerceDataset } from '@folio/commerce/seed';
import { BRUNO, CARLA, dataset } from './support/dataset.js';
import { idsOf, startTestCatalog, type TestCatalog } from './support/harness.js';

const base = { page: 0, perPage: 0 };
const demo = dataset as unknown as CommerceDataset & IdentityDataset;
const issue = (id: number) => demo.issues.find((candidate) => candidate.id === id)!;

describe('caches invalidated by events', () => {
  let t: TestCatalog;
  const quiet = createLogger({ service: 'test', level: 'silent' });

  beforeAll(async () => {
    // Ten minutes: a read that sees a change did not wait for the TTL.
    t = await startTestCatalog({ env: { ACCESS_CACHE_TTL_MS: '600000', TENANT_CACHE_TTL_MS: '600000' } });
  });
  afterAll(() => t?.stop());

  const brunoOwns = async () => {
    const { section } = await t.client.filterLibrary({
      ...base,
      tenantId: 1,
      userId: BRUNO,
      scope: catalog.Scope.SCOPE_OWNED,
      filterName: 'section',
      filterValue: 'latest_issues',
      perPage: 50,
    });
    return idsOf(section);
  };

  it('when bruno reads his library again, then commerce is not asked (the decision is cached)', async () => {
    const first = await brunoOwns();
    // The seeds of identity and commerce announce their changes when the
    // harness starts; an event that lands while a read is loading keeps that
    // read out of the cache (by design), so wait for a read that was served
    // from it instead of counting the very first two.
    await waitFor(
      async () => {
        const before = t.commerce.calls.listAccessibleIssues;
        const again = await brunoOwns();
        expect(again).toEqual(first);
        return t.commerce.calls.listAccessibleIssues === before ? true : undefined;
      },
      { what: 'a library read answered without asking commerce' },
    );
  });

  it('when commerce grants bruno an issue, then his next library read shows it without waiting for the TTL', async () => {
    expect(await brunoOwns()).not.toContain(1002);

    await t.commerce.seed(
      { issues: [issue(1002)], access: [{ email: 'bruno@example.com', issue_id: 1002, source: 'gift' }], subscriptions: [] } as CommerceDataset,
      { announce: true },
    );

    await waitFor(async () => ((await brunoOwns()).includes(1002) ? true : undefined), { what: 'the granted issue in the library' });
  });

  it('when commerce revokes a grant of bruno, then his next library read no longer shows it', async () => {
    expect(await brunoOwns()).toContain(1007);

    await t.commerce.seed(
      { issues: [issue(1007)], access: [{ email: 'bruno@example.com', issue_id: 1007, source: 'admin', revoked: true }], subscriptions: [] } as CommerceDataset,
      { announce: true },
    );

    await waitFor(async () => ((await brunoOwns()).includes(1007) ? undefined : true), { what: 'the revoked issue gone from the library' });
  });

  it("when identity updates a tenant's settings, then the next search sees the new storefront_search flag", async () => {
    const search = () => t.client.searchStore({ tenantId: 3, userId: CARLA, query: 'livraria', page: 0, scope: catalog.Scope.SCOPE_OWNED });
    expect((await search()).searchDisabled).toBe(true);

    const broker = await Broker.connect(testInfra().amqpUrl, { logger: quiet, name: 'catalog-test-identity-seed' });
    const outbox = new Outbox(t.identity.db, broker, { exchange: t.identity.config.EVENTS_EXCHANGE, logger: quiet });
    try {
      const tenants = demo.tenants.map((tenant) => (tenant.id === 3 ? { ...tenant, features: { ...tenant.features, storefront_search: true } } : tenant));
      await seedIdentity(
        t.identity.db,
        { ...demo, tenants },
        { events: { publish: async (type, payload, meta) => outbox.add(createEvent(type, payload, meta)) } },
      );
    } finally {
      await outbox.stop();
      await broker.close();
    }

    await waitFor(async () => ((await search()).searchDisabled ? undefined : true), { what: 'the search enabled' });
  });
});
