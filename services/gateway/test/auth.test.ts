// Login, user, logout, session validation and refresh through the gateway,
// against the real identity service.
import { uniqueEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoLeak, fromIp, loginThroughGateway, startStack, type Stack } from './support.js';

describe('identity routes through the gateway', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('when a user logs in by e-mail code, then /user answers with their tenants, and after logout it answers 401', async () => {
    const { http } = stack;
    const email = uniqueEmail('gw_login');
    const tokens = await loginThroughGateway(http, email, { 'x-app-lang': 'es' });
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: expect.any(Number) });
    expect(tokens.refresh_token).toHaveLength(64);

    const user = await http.get('/api/v2/user', { token: tokens.access_token });
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({ email, admin: false, id: expect.any(Number), picture: expect.any(String) });
    expect(user.body.tenants).toEqual([
      {
        id: 1,
        name: 'Northwind Reader',
        domain: 'northwind.localhost',
        logo: expect.any(String),
        country_code: 'US',
        country_name: 'United States',
        colors: { primary: '#1F4E79', secondary: '#F2A900' },
      },
    ]);
    expect(user.headers['cache-control']).toBe('no-store');

    const validate = await http.get('/api/v2/auth/session/validate', { token: tokens.access_token });
    expect(validate.status).toBe(200);
    expect(validate.body).toEqual({ CODE: 'success', message: 'Session is valid' });

    const logout = await http.get('/api/v2/logout', { token: tokens.access_token });
    expect(logout.status).toBe(200);
    expect(logout.text).toBe('');

    const after = await http.get('/api/v2/user', { token: tokens.access_token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'The given data was invalid.' });
    const validateAfter = await http.get('/api/v2/auth/session/validate', { token: tokens.access_token });
    expect(validateAfter.status).toBe(401);
  });

  it('when a custom app logs a new user in, then the user belongs to the app tenant', async () => {
    const email = uniqueEmail('gw_custom');
    const tokens = await loginThroughGateway(stack.http, email, { 'x-customapp-tenant-id': '2' });
    const user = await stack.http.get('/api/v2/user', { token: tokens.access_token });
    expect(user.body.tenants.map((t: { id: number }) => t.id)).toEqual([2]);
  });

  it('when login init gets a bad e-mail, an unknown lang or a malformed app tenant, then 422 names each field', async () => {
    const response = await stack.http.post('/api/v2/login/token/init', {
      body: { email: 'not-an-email', lang: 'fr' },
      headers: { 'x-customapp-tenant-id': 'abc' },
    });
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('The given data was invalid.');
    expect(Object.keys(response.body.errors).sort()).toEqual(['X-CustomApp-Tenant-Id', 'email', 'lang']);
    expectNoLeak(response);

    const missing = await stack.http.post('/api/v2/login/token/validate', { body: { email: uniqueEmail() } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ code: ['The code field is required.'] });
  });

  it("when a code is wrong, then identity's 422 with the code's field error comes through", async () => {
    const email = uniqueEmail('gw_wrong');
    expect((await stack.http.post('/api/v2/login/token/init', { body: { email } })).status).toBe(201);
    const response = await stack.http.post('/api/v2/login/token/validate', { body: { email, code: '00000000' } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ message: 'The given data was invalid.', errors: { code: [expect.any(String)] } });
  });

  it('when social login names an unknown provider or lacks access_token, then 400', async () => {
    const provider = await stack.http.post('/api/v2/login/social/myspace', { body: { access_token: 'x' } });
    expect(provider.status).toBe(400);
    expect(provider.body.message).toEqual(expect.any(String));
    const missing = await stack.http.post('/api/v2/login/social/google', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toHaveProperty('access_token');
  });

  it('when refresh lacks refresh_token, then 422 names it', async () => {
    const response = await stack.http.post('/api/v2/auth/refresh', { body: {}, headers: fromIp(1) });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ message: 'The given data was invalid.', errors: { refresh_token: ['The refresh_token field is required.'] } });
  });

  it('when a refresh token is used, then a new pair comes back and the old token is refused', async () => {
    const tokens = await loginThroughGateway(stack.http, uniqueEmail('gw_refresh'));
    const first = await stack.http.post('/api/v2/auth/refresh', { body: { refresh_token: tokens.refresh_token }, headers: fromIp(2) });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await stack.http.get('/api/v2/user', { token: first.body.access_token })).status).toBe(200);
    const again = await stack.http.post('/api/v2/auth/refresh', { body: { refresh_token: tokens.refresh_token }, headers: fromIp(2) });
    expect(again.status).toBe(401);
  });

  it('when one IP sends an 11th refresh within a minute, then it gets 429 with Retry-After, and another IP does not', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      statuses.push((await stack.http.post('/api/v2/auth/refresh', { body: { refresh_token: `bogus-${i}` }, headers: fromIp(10) })).status);
    }
    expect(statuses.every((status) => status === 401)).toBe(true);

    const eleventh = await stack.http.post('/api/v2/auth/refresh', { body: { refresh_token: 'bogus' }, headers: fromIp(10) });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({ message: expect.any(String) });
    const retryAfter = Number(eleventh.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    const otherIp = await stack.http.post('/api/v2/auth/refresh', { body: { refresh_token: 'bogus' }, headers: fromIp(11) });
    expect(otherIp.status).toBe(401);
  });

  it('when 20 refreshes with one token race, then exactly one succeeds', async () => {
    const tokens = await loginThroughGateway(stack.http, uniqueEmail('gw_race'));
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stack.http.post('/api/v2/auth/refresh', { body: { refresh_token: tokens.refresh_token }, headers: fromIp(100 + i) }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 401)).toBe(true);
  });
});
