// An expired access token is refused even though its session is alive:
// identity issues 1-second tokens in this file.
import { uniqueEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThroughGateway, startStack, type Stack } from './support.js';

describe('access token expiry', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ identityEnv: { ACCESS_TOKEN_TTL_SECONDS: '1' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('when the token has expired, then 401 with the spec body; a refreshed token works again', async () => {
    const tokens = await loginThroughGateway(stack.http, uniqueEmail('gw_expiry'));
    expect(tokens.expires_in).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 2_100));

    const expired = await stack.http.get('/api/v2/user', { token: tokens.access_token });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ message: 'The given data was invalid.' });

    const refreshed = await stack.http.post('/api/v2/auth/refresh', { body: { refresh_token: tokens.refresh_token } });
    expect(refreshed.status).toBe(200);
    expect((await stack.http.get('/api/v2/user', { token: refreshed.body.access_token })).status).toBe(200);
  });
});
