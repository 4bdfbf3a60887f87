// The first vertical slice, end to end against ./dev up: log in through
// MailDev, stay logged in, see who you are, discover stores, ask for help,
// register for push, and delete the account.
import { emailsTo, uniqueEmail, waitFor, waitForEmail } from '@folio/testing';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, clientIp, loginByEmail, sharedLogin, type Tokens } from './client.js';

describe('identity through the gateway (running stack)', () => {
  let ana: Tokens;

  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
  });

  it('when the stack is up, then /healthz and /readyz are green', async () => {
    expect((await api('GET', '/healthz')).status).toBe(200);
    const ready = await api('GET', '/readyz');
    expect(ready.status).toBe(200);
  });

  it('when a user logs in with X-App-Lang es, then the code e-mail is Spanish and the token response is complete', async () => {
    const email = uniqueEmail('hola');
    const tokens = await loginByEmail(email, { lang: 'es' });
    const mails = await emailsTo(email);
    expect(mails.at(-1)!.subject).toMatch(/código|acceso|inicio/i);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(tokens.refresh_token).toHaveLength(64);
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'ES256', kid: expect.any(String) });
    expect(decodeJwt(tokens.access_token)).toMatchObject({ email, jti: expect.any(String), exp: expect.any(Number) });
    expect(decodeJwt(ana.access_token)).toMatchObject({ email: 'ana@example.com' });
  });

  it('when ana asks who she is, then she gets her two tenants with every field of the tenant object', async () => {
    const response = await api('GET', '/api/v2/user', { token: ana.access_token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ email: 'ana@example.com', admin: false, picture: 'https://avatars.example.com/ana.png' });
    expect(response.body.tenants.map((t: { id: number }) => t.id)).toEqual([1, 2]);
    expect(response.body.tenants[1]).toEqual({
      id: 2,
      name: 'Editorial Sur',
      domain: 'sur.localhost',
      logo: 'https://assets.sur.localhost/logo.png',
      country_code: 'AR',
      country_name: 'Argentina',
      colors: { primary: '#0B6E4F', secondary: '#FFD166' },
    });
  });

  it('when ana discovers stores, then she sees active stores she has no account in, most users first', async () => {
    const response = await api('GET', '/api/v2/tenants', { token: ana.access_token });
    expect(response.status).toBe(200);
    // Harbor Comics, Atlântica and Aurora; Dormant Press has no active plan. Their order (most members
    // first) is not asserted here: other end-to-end tests running at the same time make users join
    // these stores (KOReader sync joins Aurora), so the counts move. Identity's tenants.test.ts checks the order.
    expect(response.body.data.map((t: { id: number }) => t.id).sort()).toEqual([3, 4, 6]);
    expect(response.body.meta).toEqual({ per_page: 20, next_cursor: null, prev_cursor: null });
  });

  it('when a single-tenant header is sent to a multi-tenant endpoint, then 412', async () => {
    const response = await api('GET', '/api/v2/tenants', { token: ana.access_token, headers: { 'x-svc-tenant-id': '1' } });
    expect(response.status).toBe(412);
    expect(response.body.message).toEqual(expect.any(String));
  });

  it('when ana asks for help subjects in Portuguese, then the generic app lists them all in Portuguese', async () => {
    const response = await api('GET', '/api/v2/help', { token: ana.access_token, headers: { 'x-app-lang': 'pt' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ 'missing-store': 'Não encontro minha loja', other: 'Outro' });
  });

  it('when ana sends a support request, then support receives it by e-mail', async () => {
    const marker = `printer ${Date.now()}`;
    const response = await api('POST', '/api/v2/help', {
      token: ana.access_token,
      body: { subject: 'missing-issues', message: `My issues are gone since the ${marker}.`, device: 'Pixel 8', so: 'android 15' },
      headers: { 'x-app-version': '3.2.1' },
    });
    expect(response.status).toBe(201);
    expect(response.text).toBe('');
    await waitFor(async () => (await emailsTo('support@folio.localhost')).find((mail) => mail.text.includes(marker)), {
      what: 'the support e-mail',
    });
  });

  it('when ana registers and unregisters a push token, then 201 and 204 with empty bodies', async () => {
    const device = `device-${Date.now()}`;
    const register = await api('POST', '/api/v2/user/push-notifications', {
      token: ana.access_token,
      body: { fcm_token: `fcm-${device}`, device_token: device, platform: 'android' },
    });
    expect(register.status).toBe(201);
    const unregister = await api('DELETE', '/api/v2/user/push-notifications', {
      token: ana.access_token,
      body: { device_token: device, platform: 'android' },
    });
    expect(unregister.status).toBe(204);
  });

  it('when a refresh token is used, then it rotates once and the old one is refused', async () => {
    const user = await loginByEmail(uniqueEmail('refresh'));
    const ip = clientIp();
    const first = await api<Tokens>('POST', '/api/v2/auth/refresh', { body: { refresh_token: user.refresh_token }, headers: ip });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(user.refresh_token);
    const again = await api('POST', '/api/v2/auth/refresh', { body: { refresh_token: user.refresh_token }, headers: ip });
    expect(again.status).toBe(401);
    const validate = await api('GET', '/api/v2/auth/session/validate', { token: first.body.access_token });
    expect(validate.body).toEqual({ CODE: 'success', message: 'Session is valid' });
  });

  it('when a user logs out, then the same JWT is refused', async () => {
    const user = await loginByEmail(uniqueEmail('logout'));
    expect((await api('GET', '/api/v2/logout', { token: user.access_token })).status).toBe(200);
    const after = await api('GET', '/api/v2/user', { token: user.access_token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'The given data was invalid.' });
  });

  it('when a user asks to delete the account, then the account is erased', async () => {
    const email = uniqueEmail('leaving');
    const user = await loginByEmail(email);
    const response = await api('POST', '/api/v2/help', {
      token: user.access_token,
      body: { subject: 'delete-account-and-data', message: 'Please delete everything about me.' },
    });
    expect(response.status).toBe(201);
    await waitFor(async () => ((await api('GET', '/api/v2/user', { token: user.access_token })).status === 401 ? true : undefined), {
      what: 'the account to be erased',
      timeoutMs: 15_000,
    });
  });

  it('when a store route is called on an unknown host, then 404', async () => {
    const response = await api('GET', '/app/purchase/1001?token=x', { headers: { host: 'nowhere.localhost' } });
    expect(response.status).toBe(404);
  });

  it('when a code arrives by e-mail, then the plain-text body has exactly one 8-digit run', async () => {
    const email = uniqueEmail('code');
    await api('POST', '/api/v2/login/token/init', { body: { email }, headers: clientIp() });
    const mail = await waitForEmail(email);
    expect(mail.text.match(/(?<!\d)\d{8}(?!\d)/g)).toHaveLength(1);
  });
});
