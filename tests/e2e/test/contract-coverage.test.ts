// The operations no other end-to-end test calls through `api()` (the browser
// drives the checkout, the OPDS tests fetch some feeds themselves, social
// login needs a provider), called here once each so the contract check
// (tests/e2e/contract) sees an answer of every operation.
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, clientIp, loginByEmail, type Tokens } from './client.js';
import { STORE } from './reader-helpers.js';

describe('operations exercised for the contract check', () => {
  let user: Tokens;
  beforeAll(async () => {
    user = await loginByEmail(uniqueEmail('contract'));
  });

  it('when a social login carries a token the provider does not know, then it is refused, not a 5xx', async () => {
    const response = await api('POST', '/api/v2/login/social/google', { body: { access_token: 'not-a-google-token' }, headers: clientIp() });
    // 401 from the provider's answer, or 503 where the provider cannot be reached (this machine: no Internet).
    expect([401, 503]).toContain(response.status);
  });

  it('when the checkout page is opened without a checkout session, then 401', async () => {
    const response = await api('GET', '/app/checkout', { headers: { host: STORE[1], ...clientIp() } });
    expect(response.status).toBe(401);
  });

  it('when a payment is posted without a checkout session, then it is refused with a 4xx', async () => {
    const response = await api('POST', '/app/checkout/pay', { body: { card: '4242424242424242' }, headers: { host: STORE[1], ...clientIp() } });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it('when an e-reader asks for the OPDS 1.2 shelf without credentials, then 401 with a Basic challenge; with a token, its shelf', async () => {
    const anonymous = await api('GET', '/opds/v1.2/shelf', { headers: { host: STORE[1], ...clientIp() } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic /);
    const shelf = await api('GET', '/opds/v1.2/shelf', { token: user.access_token, headers: { host: STORE[1], ...clientIp() } });
    expect(shelf.status).toBe(200);
  });

  it('when an OPDS 2.0 client asks how to sign in, then the Authentication for OPDS document', async () => {
    const response = await api('GET', '/opds/v2/authentication', { headers: { host: STORE[1], ...clientIp() } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/opds-authentication\+json/);
  });
});
