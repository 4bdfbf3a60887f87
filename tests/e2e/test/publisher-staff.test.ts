// The publisher API's staff, API keys and audit log through the gateway: the
// seeded owner makes and revokes a key (then 401), a key cannot manage keys
// or read the log (403), another store's key is 403, a signed-in reader who
// is not staff is 403, a role is given and taken by e-mail, the last owner
// cannot step down (409), and each change is in the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, clientIp, loginByEmail, sharedLogin, type Tokens } from './client.js';

const TENANT = { 'x-svc-tenant-id': '1' };
const RUN = Date.now().toString(36);

describe('publisher staff, API keys and audit log', () => {
  let owner: Tokens;
  const asOwner = (method: string, path: string, body?: unknown) =>
    api(method, `/api/v2/publisher${path}`, { token: owner.access_token, headers: { ...TENANT, ...clientIp() }, body });
  const asKey = (key: string, method: string, path: string, tenant = '1') =>
    api(method, `/api/v2/publisher${path}`, { token: key, headers: { 'x-svc-tenant-id': tenant, ...clientIp() } });
  const revokeAtEnd: string[] = [];

  beforeAll(async () => {
    owner = await sharedLogin('admin@example.com');
  });
  afterAll(async () => {
    for (const id of revokeAtEnd) await asOwner('DELETE', `/api-keys/${id}`);
  });

  it('when the owner makes a key, then it is shown once, listed without it, acts as an editor, and is 401 once revoked', async () => {
    const created = await asOwner('POST', '/api-keys', { name: `staff e2e ${RUN}` });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: `staff e2e ${RUN}`, role: 'editor', revoked_at: null, last_used_at: null, key: expect.stringMatching(/^fpk_/) });
    const { key, id, prefix } = created.body;
    expect(key.startsWith(prefix)).toBe(true);

    const listed = await asOwner('GET', '/api-keys');
    expect(listed.status).toBe(200);
    expect(listed.body.data.find((k: { id: string }) => k.id === id)).toMatchObject({ id, prefix, revoked_at: null });
    expect(listed.text).not.toContain(key);

    expect((await asKey(key, 'GET', '/api-keys')).status).toBe(403);
    expect((await asKey(key, 'GET', '/audit-log')).status).toBe(403);
    expect((await asKey(key, 'GET', '/staff', '2')).status).toBe(403);

    expect((await asOwner('DELETE', `/api-keys/${id}`)).status).toBe(204);
    expect((await asOwner('DELETE', `/api-keys/${id}`)).status).toBe(204);
    expect((await asKey(key, 'GET', '/staff')).status).toBe(401);
    expect((await asOwner('DELETE', '/api-keys/no-such-key')).status).toBe(404);
    const after = await asOwner('GET', '/api-keys');
    expect(after.body.data.find((k: { id: string }) => k.id === id).revoked_at).toEqual(expect.any(String));
  });

  it('when a reader who is not staff, or nobody, calls a publisher route, then 403 and 401', async () => {
    const reader = await loginByEmail(`staff-e2e-${RUN}@example.com`);
    expect((await api('GET', '/api/v2/publisher/staff', { token: reader.access_token, headers: { ...TENANT, ...clientIp() } })).status).toBe(403);
    expect((await api('GET', '/api/v2/publisher/staff', { headers: { ...TENANT, ...clientIp() } })).status).toBe(401);
    expect((await api('GET', '/api/v2/publisher/staff', { token: 'fpk_not-a-key', headers: { ...TENANT, ...clientIp() } })).status).toBe(401);
  });

  it('when a role is given and taken by e-mail, then the staff list shows it; the last owner cannot step down; the log has each change', async () => {
    const email = `staff-e2e-editor-${RUN}@example.com`;
    const editor = await loginByEmail(email);
    const given = await asOwner('PUT', '/staff', { email, role: 'editor' });
    expect(given.status, given.text).toBe(200);
    expect(given.body).toMatchObject({ email, role: 'editor' });
    const editorCall = await api('GET', '/api/v2/publisher/staff', { token: editor.access_token, headers: { ...TENANT, ...clientIp() } });
    expect(editorCall.status).toBe(403);
    const staff = await asOwner('GET', '/staff');
    expect(staff.body.data).toEqual(
      expect.arrayContaining([{ user_id: given.body.user_id, email, role: 'editor' }, expect.objectContaining({ email: 'admin@example.com', role: 'owner' })]),
    );

    const taken = await asOwner('PUT', '/staff', { email, role: 'none' });
    expect(taken.body).toMatchObject({ email, role: null });
    expect((await asOwner('GET', '/staff')).body.data.map((m: { email: string }) => m.email)).not.toContain(email);
    expect((await asOwner('PUT', '/staff', { email: 'admin@example.com', role: 'editor' })).status).toBe(409);
    expect((await asOwner('PUT', '/staff', { email: `nobody-${RUN}@example.com`, role: 'editor' })).status).toBe(404);

    const log = await asOwner('GET', '/audit-log?per_page=20');
    expect(log.status).toBe(200);
    expect(log.body.meta).toMatchObject({ current_page: 1, per_page: 20 });
    const mine = log.body.data.filter((entry: { target: string }) => entry.target === `user:${given.body.user_id}`);
    expect(mine.map((entry: { action: string; details: { role: string | null } }) => [entry.action, entry.details.role])).toEqual([
      ['staff.set', null],
      ['staff.set', 'editor'],
    ]);
    expect(mine[0].actor).toMatch(/^user:\d+$/);
    expect((await asOwner('GET', '/audit-log?per_page=101')).status).toBe(422);
  });
});
