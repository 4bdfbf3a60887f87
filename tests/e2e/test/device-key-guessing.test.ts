// Device-key guessing through the gateway (running stack): wrong keys from
// many addresses for one e-mail do not lock its owner's right key out of
// kosync or OPDS, while one address that keeps guessing is refused (429),
// even with the right key. The gateway trusts X-Forwarded-For from loopback
// outside production, so each request names its address.
import { createHash } from 'node:crypto';
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, loginByEmail, ownClientIp } from './client.js';

const AURORA = 'aurora.localhost:8080';
const md5 = (value: string) => createHash('md5').update(value).digest('hex');
const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

describe('device-key guessing (running stack)', () => {
  let email: string;
  let key: string;
  beforeAll(async () => {
    email = uniqueEmail('guessed');
    const jwt = await loginByEmail(email, { appTenantId: 4 });
    const created = await api('POST', '/api/v2/user/device-keys', { token: jwt.access_token, body: { label: 'Kobo' } });
    expect(created.status).toBe(201);
    key = created.body.key as string;
  });

  const kosyncAuth = (secret: string, ip: { 'x-forwarded-for': string }) =>
    api('GET', '/kosync/users/auth', { headers: { ...ip, host: AURORA, 'x-auth-user': email, 'x-auth-key': md5(secret) } });

  it("when 25 wrong keys come from other addresses, then the owner's right key still works from its own address, in kosync and OPDS", async () => {
    const home = ownClientIp();
    expect((await kosyncAuth(key, home)).status).toBe(200);
    const refusals: number[] = [];
    for (let i = 0; i < 25; i++) refusals.push((await kosyncAuth(`guess-${i}`, ownClientIp())).status);
    expect(refusals.slice(0, 20).every((status) => status === 401)).toBe(true);
    // Over the e-mail's limit a wrong key is 429, but never 200.
    expect(refusals.slice(20).every((status) => status === 429)).toBe(true);

    expect((await kosyncAuth(key, home)).status).toBe(200);
    const opds = await api('GET', '/opds/v2/catalog', { headers: { ...home, host: AURORA, authorization: basic(email, key) } });
    expect(opds.status).toBe(200);
  });

  it('when one address keeps guessing, then it gets 429 with a Retry-After, even for the right key', async () => {
    const guesser = ownClientIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await kosyncAuth(`again-${i}`, guesser)).status);
    expect(statuses.at(-1)).toBe(429);
    const right = await kosyncAuth(key, guesser);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
