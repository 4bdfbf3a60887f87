// Device keys through the gateway (running stack): create (the secret once),
// list (without it), delete (404 for another user's key), 422 for a bad
// label, multi-tenant like /user.
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, loginByEmail, type Tokens } from './client.js';

describe('device keys (running stack)', () => {
  let me: Tokens;
  let other: Tokens;
  beforeAll(async () => {
    [me, other] = await Promise.all([loginByEmail(uniqueEmail('keys')), loginByEmail(uniqueEmail('keys-other'))]);
  });

  it('when a key is created, then 201 shows it once and the list has it without the secret', async () => {
    const created = await api('POST', '/api/v2/user/device-keys', { token: me.access_token, body: { label: 'Kobo' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      label: 'Kobo',
      key: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      created_at: expect.any(String),
      last_used_at: null,
    });

    const listed = await api('GET', '/api/v2/user/device-keys', { token: me.access_token });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toContainEqual({ id: created.body.id, label: 'Kobo', created_at: created.body.created_at, last_used_at: null });
    expect(listed.text).not.toContain(created.body.key);
  });

  it('when the label is missing, empty or too long, then 422 on label', async () => {
    for (const body of [{}, { label: '  ' }, { label: 'x'.repeat(101) }, { label: 7 }]) {
      const response = await api('POST', '/api/v2/user/device-keys', { token: me.access_token, body });
      expect(response.status).toBe(422);
      expect(Object.keys(response.body.errors)).toEqual(['label']);
    }
  });

  it("when another user's key is deleted, then 404; the owner's delete is 204 and the key is gone", async () => {
    const created = await api('POST', '/api/v2/user/device-keys', { token: me.access_token, body: { label: 'to delete' } });
    expect((await api('DELETE', `/api/v2/user/device-keys/${created.body.id}`, { token: other.access_token })).status).toBe(404);
    const deleted = await api('DELETE', `/api/v2/user/device-keys/${created.body.id}`, { token: me.access_token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await api('DELETE', `/api/v2/user/device-keys/${created.body.id}`, { token: me.access_token })).status).toBe(404);
    const listed = await api('GET', '/api/v2/user/device-keys', { token: me.access_token });
    expect(listed.body.data.map((key: { id: string }) => key.id)).not.toContain(created.body.id);
  });

  it('when there is no JWT or a tenant header is sent, then 401 / 412 as on /user', async () => {
    expect((await api('GET', '/api/v2/user/device-keys')).status).toBe(401);
    expect((await api('GET', '/api/v2/user/device-keys', { token: me.access_token, headers: { 'x-svc-tenant-id': '1' } })).status).toBe(412);
  });
});
