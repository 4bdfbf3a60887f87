// Access decisions and storefront offers over gRPC, for the demo dataset.
import { checkHealth } from '@folio/grpc';
import type { commerce } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAME } from '../src/app.js';
import { seedCommerce } from '../src/seed.js';
import { dataset, failureOf, FREE, NONE, PURCHASED, startStack, SUBSCRIPTION, TENANT, type TestStack } from './support.js';

describe('access decisions', () => {
  let stack: TestStack;
  let ana: number;
  let bruno: number;
  let fabio: number;
  let dario: number;
  const byIssue = new Map<number, commerce.Access>();

  beforeAll(async () => {
    stack = await startStack();
    ana = stack.users['ana@example.com']!;
    bruno = stack.users['bruno@example.com']!;
    fabio = stack.users['fabio@example.com']!;
    dario = stack.users['dario@example.com']!;
    const { accesses } = await stack.commerce.batchGetAccess({
      tenantId: TENANT.northwind,
      userId: ana,
      issueIds: [1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009],
    });
    for (const access of accesses) byIssue.set(access.issueId, access);
  });
  afterAll(() => stack?.stop());

  it('when started, then it reports SERVING over grpc.health.v1', async () => {
    expect(await checkHealth(`127.0.0.1:${stack.service.grpcPort}`, SERVICE_NAME)).toBe(true);
  });

  it('when ana asks for a batch, then every known issue is answered once, in request order', () => {
    expect([...byIssue.keys()]).toEqual([1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009]);
  });

  it('when ana bought 1001, then it is purchased, without end, and cannot be bought again', () => {
    expect(byIssue.get(1001)).toEqual({
      issueId: 1001,
      reason: PURCHASED,
      expiresAt: undefined,
      canBeBought: false,
      free: false,
      prices: [{ currency: 'USD', amount: 9.99, discount: undefined }],
      individuallyAcquirable: true,
    });
  });

  it('when 1002 is on promotion until 2031, then its price carries the discount and it can be bought', () => {
    expect(byIssue.get(1002)).toMatchObject({
      reason: NONE,
      canBeBought: true,
      free: false,
      individuallyAcquirable: true,
      prices: [{ currency: 'USD', amount: 4.99, discount: { amount: 2.49, percentage: 50, endsAt: '2031-01-01T00:00:00Z' } }],
    });
  });

  it('when 1003 is free, then access is free, with no prices, not buyable', () => {
    expect(byIssue.get(1003)).toMatchObject({ reason: FREE, free: true, prices: [], canBeBought: false, individuallyAcquirable: true });
  });

  it('when 1004 is subscription-only and ana has no plan in tenant 1, then no access and not individually acquirable', () => {
    expect(byIssue.get(1004)).toMatchObject({ reason: NONE, individuallyAcquirable: false, canBeBought: false, prices: [] });
  });

  it('when bruno has a plan listing 1004, then he reads it by subscription', async () => {
    const { access } = await stack.commerce.getAccess({ tenantId: TENANT.northwind, userId: bruno, issueId: 1004 });
    expect(access).toMatchObject({ reason: SUBSCRIPTION, canBeBought: false });
  });

  it("when ana bought the physical 1005, then it is purchased (excluding physical items is catalog's business)", () => {
    expect(byIssue.get(1005)).toMatchObject({ reason: PURCHASED, canBeBought: false, prices: [{ currency: 'USD', amount: 24 }] });
  });

  it("when ana's grant for 1006 was revoked, then she has no access and can buy it", () => {
    expect(byIssue.get(1006)).toMatchObject({ reason: NONE, canBeBought: true, prices: [{ currency: 'USD', amount: 7.5 }] });
  });

  it('when 1007 has no price, then it is neither acquirable nor buyable', () => {
    expect(byIssue.get(1007)).toMatchObject({ reason: NONE, prices: [], individuallyAcquirable: false, canBeBought: false });
  });

  it('when 1008 is pay-per-use, then it is listed with its price but cannot be bought through the redirect', () => {
    expect(byIssue.get(1008)).toMatchObject({
      reason: NONE,
      individuallyAcquirable: true,
      canBeBought: false,
      prices: [{ currency: 'USD', amount: 1.99 }],
    });
  });

  it("when ana's gift of 1009 ends in 2031, then it is purchased with that end", () => {
    expect(byIssue.get(1009)).toMatchObject({ reason: PURCHASED, expiresAt: '2031-06-30 23:59:59', canBeBought: false });
  });

  it('when ana has the Sur plan covering everything, then 2001-2005 are read by subscription', async () => {
    const { accesses } = await stack.commerce.batchGetAccess({ tenantId: TENANT.sur, userId: ana, issueIds: [2001, 2002, 2003, 2004, 2005] });
    expect(accesses.map((access) => [access.issueId, access.reason, access.canBeBought])).toEqual([
      [2001, SUBSCRIPTION, false],
      [2002, SUBSCRIPTION, false],
      [2003, SUBSCRIPTION, false],
      [2004, SUBSCRIPTION, false],
      [2005, SUBSCRIPTION, false],
    ]);
    // Prices in the tenant's currency; a promotion without end has no ends_at.
    expect(accesses[1]!.prices).toEqual([{ currency: 'ARS', amount: 1200, discount: { amount: 900, percentage: 25, endsAt: undefined } }]);
    expect(accesses[4]).toMatchObject({ individuallyAcquirable: false, prices: [] });
  });

  it('when a tenant has free access, then fabio reads its issues free and nothing is for sale', async () => {
    const { access } = await stack.commerce.getAccess({ tenantId: TENANT.aurora, userId: fabio, issueId: 4001 });
    expect(access).toMatchObject({ reason: FREE, free: true, prices: [], canBeBought: false, individuallyAcquirable: true });
  });

  it('when dario holds a retail license, then he has purchased access', async () => {
    const { access } = await stack.commerce.getAccess({ tenantId: TENANT.harbor, userId: dario, issueId: 6001 });
    expect(access).toMatchObject({ reason: PURCHASED });
  });

  it('when a grant has expired, then it gives no access', async () => {
    await stack.store.grants.put({
      _id: 'test:expired:1002',
      tenant_id: TENANT.northwind,
      issue_id: 1002,
      user_id: bruno,
      email: null,
      source: 'gift',
      expires_at: new Date(Date.now() - 60_000),
      revoked: false,
      order_id: null,
      created_at: new Date(),
      erased_at: null,
    });
    const { access } = await stack.commerce.getAccess({ tenantId: TENANT.northwind, userId: bruno, issueId: 1002 });
    expect(access).toMatchObject({ reason: NONE, canBeBought: true });
    const { issues } = await stack.commerce.listAccessibleIssues({ tenantIds: [TENANT.northwind], userId: bruno });
    expect(issues.map((issue) => issue.issueId)).not.toContain(1002);
  });

  it('when nobody is logged in, then only free issues are readable', async () => {
    const { accesses } = await stack.commerce.batchGetAccess({ tenantId: TENANT.northwind, userId: 0, issueIds: [1001, 1003] });
    expect(accesses.map((access) => [access.issueId, access.reason, access.canBeBought])).toEqual([
      [1001, NONE, true],
      [1003, FREE, false],
    ]);
  });

  it('when the batch names unknown issues or issues of another tenant, then they are left out', async () => {
    const { accesses } = await stack.commerce.batchGetAccess({ tenantId: TENANT.northwind, userId: ana, issueIds: [999999, 2001, 1001, 1001] });
    expect(accesses.map((access) => access.issueId)).toEqual([1001]);
  });

  it('when one issue of another tenant is asked for, then it is not found', async () => {
    const failure = await failureOf(stack.commerce.getAccess({ tenantId: TENANT.northwind, userId: ana, issueId: 2001 }));
    expect(failure.code).toBe('NOT_FOUND');
  });

  it('when the tenant does not exist, then the batch is not found', async () => {
    const failure = await failureOf(stack.commerce.batchGetAccess({ tenantId: 999, userId: ana, issueIds: [1001] }));
    expect(failure.code).toBe('NOT_FOUND');
  });

  it('when ana lists what she can read in tenants 1 and 2, then tenant 2 is whole by subscription and tenant 1 lists her issues', async () => {
    const result = await stack.commerce.listAccessibleIssues({ tenantIds: [TENANT.northwind, TENANT.sur], userId: ana });
    expect(result.wholeTenants).toEqual([{ tenantId: TENANT.sur, reason: SUBSCRIPTION }]);
    expect(result.issues).toEqual([
      { tenantId: 1, issueId: 1001, reason: PURCHASED, expiresAt: undefined },
      { tenantId: 1, issueId: 1003, reason: FREE, expiresAt: undefined },
      { tenantId: 1, issueId: 1005, reason: PURCHASED, expiresAt: undefined },
      { tenantId: 1, issueId: 1009, reason: PURCHASED, expiresAt: '2031-06-30 23:59:59' },
    ]);
  });

  it('when fabio lists his tenants, then the free-access tenant is whole and free', async () => {
    const result = await stack.commerce.listAccessibleIssues({ tenantIds: [TENANT.harbor, TENANT.aurora], userId: fabio });
    expect(result).toEqual({ issues: [], wholeTenants: [{ tenantId: TENANT.aurora, reason: FREE }] });
  });

  it('when bruno lists tenant 1, then his admin grant and his listed plan issue are there', async () => {
    const { issues, wholeTenants } = await stack.commerce.listAccessibleIssues({ tenantIds: [TENANT.northwind, 999], userId: bruno });
    expect(wholeTenants).toEqual([]);
    expect(issues.map((issue) => [issue.issueId, issue.reason])).toEqual([
      [1001, PURCHASED],
      [1003, FREE],
      [1004, SUBSCRIPTION],
      [1007, PURCHASED],
    ]);
  });

  it('when the seed runs again, then nothing is duplicated', async () => {
    const before = { grants: await stack.store.grants.count(), plans: await stack.store.subscriptions.count(), offers: await stack.store.offers.count() };
    const summary = await seedCommerce(stack.db, dataset);
    expect(summary).toEqual({ offers: dataset.issues.length, grants: dataset.access.length, subscriptions: dataset.subscriptions.length, skipped: 0 });
    expect({ grants: await stack.store.grants.count(), plans: await stack.store.subscriptions.count(), offers: await stack.store.offers.count() }).toEqual(
      before,
    );
  });
});
