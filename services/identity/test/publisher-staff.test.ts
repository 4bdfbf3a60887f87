// Publisher staff, API keys and the audit log against the real identity
// service: the seeded owner, roles set by e-mail without ever leaving a
// store without an owner, keys shown once and stored as digests, authorized
// for their own store only and refused once revoked, wrong keys throttled per
// address without locking a right key out elsewhere, and the audit log paged
// newest first.
import { createHash } from 'node:crypto';
import { identity } from '@folio/proto';
import { uniqueEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimsOf, dataset, failureOf, loginByEmail, observeEvents, startTestIdentity, type TestIdentity } from './support.js';

const { STAFF_ROLE_EDITOR: EDITOR, STAFF_ROLE_OWNER: OWNER, STAFF_ROLE_UNSPECIFIED: NONE } = identity.StaffRole;
const idOf = (email: string) => dataset.users.findIndex((user) => user.email === email) + 1;
const ADMIN = { id: idOf('admin@example.com'), email: 'admin@example.com' }; // tenant 1, owner by the seed
const ANA = { id: idOf('ana@example.com'), email: 'ana@example.com' }; // tenants 1 and 2
const BRUNO = { id: idOf('bruno@example.com'), email: 'bruno@example.com' }; // tenant 1
const CARLA = { id: idOf('carla@example.com'), email: 'carla@example.com' }; // tenant 3

// Random per run: failure counters outlive a run in the shared Redis (10 minutes).
const ipBase = `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
let ipCounter = 1;
const freshIp = () => `${ipBase}.${ipCounter++}`;

describe('publisher staff, API keys and audit log', () => {
  let t: TestIdentity;
  beforeAll(async () => {
    t = await startTestIdentity();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const authorizeKey = (apiKey: string, tenantId = 1, clientIp = freshIp()) => t.client.authorizeStaff({ tenantId, apiKey, clientIp });
  const authorizeUser = (userId: number, tenantId = 1) => t.client.authorizeStaff({ tenantId, userId, clientIp: freshIp() });
  const roleOf = async (tenantId: number, email: string) => (await t.client.listStaff({ tenantId })).staff.find((member) => member.email === email)?.role;

  it('when seeded, then admin@example.com owns tenant 1 and is listed as its staff; other users are not staff', async () => {
    expect(await authorizeUser(ADMIN.id)).toEqual({ role: OWNER, actor: `user:${ADMIN.id}`, userId: ADMIN.id, apiKeyId: undefined });
    expect((await t.client.listStaff({ tenantId: 1 })).staff).toContainEqual({ userId: ADMIN.id, email: ADMIN.email, role: OWNER });
    expect(await t.db.collection('memberships').findOne({ user_id: ADMIN.id, tenant_id: 1 })).toMatchObject({ staff_role: 'owner' });
  });

  it('when a user without a role, or without an account in the store, asks, then PERMISSION_DENIED', async () => {
    for (const [userId, tenantId] of [
      [ANA.id, 1],
      [ADMIN.id, 2],
      [CARLA.id, 1],
      [99_999, 1],
    ] as const) {
      expect(await failureOf(authorizeUser(userId, tenantId))).toMatchObject({ code: 'PERMISSION_DENIED', message: 'You are not staff of this store.' });
    }
  });

  it('when a key is created, then it is shown once, stored as its SHA-256 only, and authorizes an editor of its store', async () => {
    const created = await t.client.createPublisherApiKey({ tenantId: 1, name: '  Build pipeline  ', createdByUserId: ADMIN.id });
    expect(created.key).toMatch(/^fpk_[A-Za-z0-9_-]{43}$/);
    expect(created.apiKey).toMatchObject({
      tenantId: 1,
      name: 'Build pipeline',
      prefix: created.key.slice(0, 8),
      role: EDITOR,
      createdByUserId: ADMIN.id,
      lastUsedAt: undefined,
      revokedAt: undefined,
    });
    const stored = await t.db.collection('publisher_api_keys').findOne({ key_id: created.apiKey!.id });
    expect(stored).toMatchObject({ _id: createHash('sha256').update(created.key).digest('hex'), tenant_id: 1 });
    expect(JSON.stringify(stored)).not.toContain(created.key);

    const id = created.apiKey!.id;
    expect(await authorizeKey(created.key)).toEqual({ role: EDITOR, actor: `api-key:${id}`, apiKeyId: id, userId: undefined });
    const listed = (await t.client.listPublisherApiKeys({ tenantId: 1 })).apiKeys.find((key) => key.id === id);
    expect(Date.parse(listed!.lastUsedAt!)).toBeGreaterThanOrEqual(Date.parse(listed!.createdAt));
    expect(JSON.stringify(await t.client.listPublisherApiKeys({ tenantId: 1 }))).not.toContain(created.key);
  });

  it('when a key is used again within a minute, then last_used_at is not written again', async () => {
    const { key, apiKey } = await t.client.createPublisherApiKey({ tenantId: 1, name: 'touch', createdByUserId: ADMIN.id });
    await authorizeKey(key);
    const first = (await t.db.collection('publisher_api_keys').findOne({ key_id: apiKey!.id }))!.last_used_at as Date;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await authorizeKey(key);
    await authorizeKey(key);
    expect(((await t.db.collection('publisher_api_keys').findOne({ key_id: apiKey!.id }))!.last_used_at as Date).getTime()).toBe(first.getTime());
  });

  it('when the name is empty, too long or has control characters, then INVALID_ARGUMENT on name', async () => {
    for (const name of ['', '   ', 'x'.repeat(101), 'tab\there', 'nul\u0000']) {
      const failure = await failureOf(t.client.createPublisherApiKey({ tenantId: 1, name, createdByUserId: ADMIN.id }));
      expect(failure.code).toBe('INVALID_ARGUMENT');
      expect(Object.keys(failure.details.fieldErrors)).toEqual(['name']);
    }
    expect((await t.client.createPublisherApiKey({ tenantId: 1, name: 'é'.repeat(100), createdByUserId: ADMIN.id })).apiKey!.name).toHaveLength(100);
  });

  it('when a key of one store is used for another, then PERMISSION_DENIED; an unknown key is UNAUTHENTICATED', async () => {
    const { key } = await t.client.createPublisherApiKey({ tenantId: 2, name: 'tenant 2', createdByUserId: ANA.id });
    expect(await authorizeKey(key, 2)).toMatchObject({ role: EDITOR });
    expect(await failureOf(authorizeKey(key, 1))).toMatchObject({ code: 'PERMISSION_DENIED' });
    for (const wrong of [`${key}x`, `fpk_${'A'.repeat(43)}`, 'not-a-key', '', `fpk_${'A'.repeat(500)}`]) {
      expect((await failureOf(authorizeKey(wrong, 2))).code).toBe('UNAUTHENTICATED');
    }
  });

  it('when a key is revoked, then it is UNAUTHENTICATED, listed with revoked_at, and revoking again changes nothing', async () => {
    const { key, apiKey } = await t.client.createPublisherApiKey({ tenantId: 1, name: 'to revoke', createdByUserId: ADMIN.id });
    const id = apiKey!.id;
    expect((await failureOf(t.client.revokePublisherApiKey({ tenantId: 2, id }))).code).toBe('NOT_FOUND');
    expect(await authorizeKey(key)).toMatchObject({ apiKeyId: id });

    const revoked = (await t.client.revokePublisherApiKey({ tenantId: 1, id })).apiKey!;
    expect(revoked.revokedAt).toBeDefined();
    expect(await failureOf(authorizeKey(key))).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect((await t.client.revokePublisherApiKey({ tenantId: 1, id })).apiKey!.revokedAt).toBe(revoked.revokedAt);

    const listed = (await t.client.listPublisherApiKeys({ tenantId: 1 })).apiKeys;
    expect(listed.find((k) => k.id === id)).toMatchObject({ revokedAt: revoked.revokedAt });
    const createdAts = listed.map((k) => Date.parse(k.createdAt));
    expect(createdAts).toEqual([...createdAts].sort((a, b) => b - a));
    for (const unknown of ['nope', '', 'a\u0000b']) {
      expect(['NOT_FOUND', 'INVALID_ARGUMENT']).toContain((await failureOf(t.client.revokePublisherApiKey({ tenantId: 1, id: unknown }))).code);
    }
  });

  it('when one address sends 30 wrong keys, then it is refused even a right key, while the right key works from elsewhere', async () => {
    const { key } = await t.client.createPublisherApiKey({ tenantId: 1, name: 'throttle', createdByUserId: ADMIN.id });
    const ip = freshIp();
    for (let i = 0; i < 30; i++) expect((await failureOf(authorizeKey(`fpk_wrong-${i}`, 1, ip))).code).toBe('UNAUTHENTICATED');
    const limited = await failureOf(authorizeKey(key, 1, ip));
    expect(limited.code).toBe('RESOURCE_EXHAUSTED');
    expect(limited.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(await authorizeKey(key, 1, freshIp())).toMatchObject({ role: EDITOR });
  });

  it('when a role is set by e-mail, then the user is staff (with an account made where he had none) and can be taken off again', async () => {
    const before = (await t.db.collection('tenants').findOne({ _id: 1 as never }))!.member_count as number;
    expect((await t.client.setStaffRole({ tenantId: 1, email: ' Carla@Example.com ', role: EDITOR })).member).toEqual({
      userId: CARLA.id,
      email: CARLA.email,
      role: EDITOR,
    });
    expect(await authorizeUser(CARLA.id)).toMatchObject({ role: EDITOR, actor: `user:${CARLA.id}` });
    expect((await t.db.collection('tenants').findOne({ _id: 1 as never }))!.member_count).toBe(before + 1);
    expect(await roleOf(1, CARLA.email)).toBe(EDITOR);

    expect((await t.client.setStaffRole({ tenantId: 1, email: CARLA.email, role: NONE })).member).toMatchObject({ role: NONE });
    expect((await failureOf(authorizeUser(CARLA.id))).code).toBe('PERMISSION_DENIED');
    expect(await roleOf(1, CARLA.email)).toBeUndefined();
  });

  it('when the e-mail has no account or is not an e-mail, then NOT_FOUND or INVALID_ARGUMENT', async () => {
    expect((await failureOf(t.client.setStaffRole({ tenantId: 1, email: uniqueEmail('nobody'), role: EDITOR }))).code).toBe('NOT_FOUND');
    expect((await failureOf(t.client.setStaffRole({ tenantId: 1, email: 'not an e-mail', role: EDITOR }))).code).toBe('INVALID_ARGUMENT');
    expect((await failureOf(t.client.setStaffRole({ tenantId: 999, email: ANA.email, role: EDITOR }))).code).toBe('NOT_FOUND');
  });

  it('when the last owner would lose the role, then FAILED_PRECONDITION; with a second owner he can step down', async () => {
    // Tenant 2 has no owner yet: ana becomes its first.
    await t.client.setStaffRole({ tenantId: 2, email: ANA.email, role: OWNER });
    for (const role of [NONE, EDITOR]) {
      const failure = await failureOf(t.client.setStaffRole({ tenantId: 2, email: ANA.email, role }));
      expect(failure).toMatchObject({ code: 'FAILED_PRECONDITION', message: 'The store must keep an owner: make someone else owner first.' });
      expect(failure.details.reason).toBe('LAST_OWNER');
    }
    await t.client.setStaffRole({ tenantId: 2, email: BRUNO.email, role: OWNER });
    expect((await t.client.setStaffRole({ tenantId: 2, email: ANA.email, role: EDITOR })).member).toMatchObject({ role: EDITOR });
    expect((await failureOf(t.client.setStaffRole({ tenantId: 2, email: BRUNO.email, role: NONE }))).code).toBe('FAILED_PRECONDITION');
    expect((await t.client.listStaff({ tenantId: 2 })).staff).toEqual([
      { userId: BRUNO.id, email: BRUNO.email, role: OWNER },
      { userId: ANA.id, email: ANA.email, role: EDITOR },
    ]);
  });

  it('when the only two owners step down at the same time, then the store still has an owner', async () => {
    await t.client.setStaffRole({ tenantId: 2, email: ANA.email, role: OWNER });
    const results = await Promise.allSettled([
      t.client.setStaffRole({ tenantId: 2, email: ANA.email, role: NONE }),
      t.client.setStaffRole({ tenantId: 2, email: BRUNO.email, role: NONE }),
    ]);
    expect(results.some((result) => result.status === 'rejected')).toBe(true);
    expect((await t.client.listStaff({ tenantId: 2 })).staff.filter((member) => member.role === OWNER).length).toBeGreaterThanOrEqual(1);
  });

  it('when entries are recorded, then they are listed newest first by page with the total, each tenant its own', async () => {
    const tenantId = 3;
    for (let i = 1; i <= 7; i++) {
      await t.client.recordAuditEntry({
        tenantId,
        actor: 'api-key:abc',
        action: 'issue.update',
        target: `issue:${i}`,
        detailsJson: JSON.stringify({ n: i }),
        requestId: `r-${i}`,
      });
    }
    await t.client.recordAuditEntry({ tenantId: 4, actor: 'user:1', action: 'issue.create', target: 'issue:99', detailsJson: '', requestId: '' });

    const pages = await Promise.all([1, 2, 3].map((page) => t.client.listAuditEntries({ tenantId, page, perPage: 3 })));
    expect(pages.map((page) => page.total)).toEqual([7, 7, 7]);
    expect(pages.map((page) => page.entries.map((entry) => entry.target))).toEqual([
      ['issue:7', 'issue:6', 'issue:5'],
      ['issue:4', 'issue:3', 'issue:2'],
      ['issue:1'],
    ]);
    expect(pages[0]!.entries[0]).toMatchObject({ tenantId, actor: 'api-key:abc', action: 'issue.update', detailsJson: '{"n":7}', requestId: 'r-7' });
    expect(await t.client.listAuditEntries({ tenantId, page: 0, perPage: 0 })).toMatchObject({ page: 1, perPage: 50, total: 7 });
    expect(await t.client.listAuditEntries({ tenantId, page: 4, perPage: 3 })).toMatchObject({ entries: [], total: 7 });
    const other = await t.client.listAuditEntries({ tenantId: 4, page: 1, perPage: 10 });
    expect(other.entries.map((entry) => [entry.target, entry.detailsJson])).toEqual([['issue:99', '{}']]);
  });

  it('when the same change is recorded again (a retry), then it is one entry', async () => {
    const request = { tenantId: 5, actor: 'user:1', action: 'offer.put', target: 'issue:7', detailsJson: '{"free":true}', requestId: 'retried' };
    const [first, second] = [await t.client.recordAuditEntry(request), await t.client.recordAuditEntry(request)];
    expect(second.entry).toEqual(first.entry);
    expect((await t.client.listAuditEntries({ tenantId: 5, page: 1, perPage: 10 })).total).toBe(1);
  });

  it('when an entry or a page is malformed, then INVALID_ARGUMENT on the field', async () => {
    const valid = { tenantId: 3, actor: 'user:1', action: 'issue.create', target: 'issue:1', detailsJson: '{}', requestId: 'x' };
    for (const [change, field] of [
      [{ detailsJson: '[1, 2]' }, 'details_json'],
      [{ detailsJson: 'null' }, 'details_json'],
      [{ detailsJson: '"text"' }, 'details_json'],
      [{ detailsJson: '{"a":' }, 'details_json'],
      [{ detailsJson: JSON.stringify({ a: 'x'.repeat(16 * 1024) }) }, 'details_json'],
      [{ action: '  ' }, 'action'],
      [{ target: '' }, 'target'],
      [{ actor: '' }, 'actor'],
      [{ target: 'issue:\u00001' }, 'target'],
    ] as const) {
      const failure = await failureOf(t.client.recordAuditEntry({ ...valid, ...change }));
      expect(failure.code).toBe('INVALID_ARGUMENT');
      expect(Object.keys(failure.details.fieldErrors)).toEqual([field]);
    }
    for (const [page, perPage, field] of [
      [1, 101, 'per_page'],
      [-1, 10, 'page'],
    ] as const) {
      const failure = await failureOf(t.client.listAuditEntries({ tenantId: 3, page, perPage }));
      expect(Object.keys(failure.details.fieldErrors)).toEqual([field]);
    }
  });

  it("when a staff member's account is erased, then his role goes with it and the keys he made keep working", async () => {
    const events = await observeEvents(t.config.EVENTS_EXCHANGE, ['account.deleted']);
    try {
      const email = uniqueEmail('erased-owner');
      const tokens = await loginByEmail(t.client, email);
      const userId = Number((await claimsOf(t.client, t.config, tokens.accessToken)).sub);
      await t.client.setStaffRole({ tenantId: 1, email, role: OWNER });
      const { key } = await t.client.createPublisherApiKey({ tenantId: 1, name: 'outlives its maker', createdByUserId: userId });

      await t.client.submitHelpRequest({ userId, appTenantId: 1, subject: 'delete-account-and-data', message: 'Please delete all my data.', lang: 'en' });
      await events.waitFor('account.deleted', (e) => (e.payload as { user_id: number }).user_id === userId);

      expect((await failureOf(authorizeUser(userId))).code).toBe('PERMISSION_DENIED');
      expect(await roleOf(1, email)).toBeUndefined();
      expect(await authorizeKey(key)).toMatchObject({ role: EDITOR });
      expect((await t.client.listPublisherApiKeys({ tenantId: 1 })).apiKeys.find((k) => k.name === 'outlives its maker')).toMatchObject({
        createdByUserId: userId,
      });
    } finally {
      await events.close();
    }
  });
});
