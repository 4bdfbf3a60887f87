// Access token verification: every forged, altered or dead token is a 401
// with the spec's body; key rotation at identity is followed.
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { uniqueEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThroughGateway, startStack, type Stack, type Tokens } from './support.js';

const INVALID = { message: 'The given data was invalid.' };
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('access tokens', () => {
  let stack: Stack;
  let tokens: Tokens;

  beforeAll(async () => {
    stack = await startStack();
    tokens = await loginThroughGateway(stack.http, uniqueEmail('gw_jwt'));
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const userWith = (token: string) => stack.http.get('/api/v2/user', { token });

  it('when the token is valid, then /user answers 200', async () => {
    expect((await userWith(tokens.access_token)).status).toBe(200);
  });

  it('when the Authorization header is missing or not Bearer, then 401 with the spec body', async () => {
    const none = await stack.http.get('/api/v2/user');
    expect(none.status).toBe(401);
    expect(none.body).toEqual(INVALID);
    const basic = await stack.http.get('/api/v2/user', { headers: { authorization: `Basic ${tokens.access_token}` } });
    expect(basic.status).toBe(401);
  });

  it('when the signature is tampered with, then 401', async () => {
    const [header, payload, signature] = tokens.access_token.split('.') as [string, string, string];
    const middle = Math.floor(signature.length / 2);
    const flipped = signature.slice(0, middle) + (signature[middle] === 'A' ? 'B' : 'A') + signature.slice(middle + 1);
    const response = await userWith(`${header}.${payload}.${flipped}`);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(INVALID);
  });

  it('when the payload is altered (another user), then 401', async () => {
    const [header, , signature] = tokens.access_token.split('.') as [string, string, string];
    const claims = decodeJwt(tokens.access_token);
    const forged = `${header}.${b64({ ...claims, sub: '1' })}.${signature}`;
    expect((await userWith(forged)).status).toBe(401);
  });

  it('when the token says alg none, then 401', async () => {
    const { kid } = decodeProtectedHeader(tokens.access_token);
    const unsigned = `${b64({ alg: 'none', typ: 'JWT', kid })}.${b64(decodeJwt(tokens.access_token))}.`;
    const response = await userWith(unsigned);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(INVALID);
  });

  it("when the token is signed with another key under identity's kid, then 401", async () => {
    const { kid } = decodeProtectedHeader(tokens.access_token);
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT(decodeJwt(tokens.access_token)).setProtectedHeader({ alg: 'ES256', kid: kid! }).sign(privateKey);
    expect((await userWith(forged)).status).toBe(401);
  });

  it('when the token is HS256 keyed with the public key (algorithm confusion), then 401', async () => {
    const { kid } = decodeProtectedHeader(tokens.access_token);
    const { publicKey } = await generateKeyPair('ES256');
    const secret = new TextEncoder().encode(JSON.stringify(await exportJWK(publicKey)));
    const forged = await new SignJWT(decodeJwt(tokens.access_token)).setProtectedHeader({ alg: 'HS256', kid: kid! }).sign(secret);
    expect((await userWith(forged)).status).toBe(401);
  });

  it('when the token has an unknown kid, then 401 (after one JWKS refetch)', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT(decodeJwt(tokens.access_token)).setProtectedHeader({ alg: 'ES256', kid: 'nobody-knows-me' }).sign(privateKey);
    expect((await userWith(forged)).status).toBe(401);
  });

  it('when the token is garbage, then 401', async () => {
    for (const token of ['abc', 'a.b.c', '....']) expect((await userWith(token)).status).toBe(401);
  });

  it('when identity rotates its signing key, then tokens of the new key and of the old one are accepted', async () => {
    const oldKid = decodeProtectedHeader(tokens.access_token).kid;
    const newKid = await stack.identity.service.rotateSigningKey();
    expect(newKid).not.toBe(oldKid);
    const fresh = await loginThroughGateway(stack.http, uniqueEmail('gw_rotated'));
    expect(decodeProtectedHeader(fresh.access_token).kid).toBe(newKid);
    expect((await userWith(fresh.access_token)).status).toBe(200);
    expect((await userWith(tokens.access_token)).status).toBe(200);
  });

  it('when the session was logged out, then its token is refused everywhere', async () => {
    const own = await loginThroughGateway(stack.http, uniqueEmail('gw_logout'));
    expect((await stack.http.get('/api/v2/logout', { token: own.access_token })).status).toBe(200);
    expect((await userWith(own.access_token)).body).toEqual(INVALID);
    expect((await stack.http.get('/api/v2/tenants', { token: own.access_token })).status).toBe(401);
    expect((await stack.http.get('/api/v2/library', { token: own.access_token, headers: { 'x-svc-tenant-id': '1' } })).status).toBe(401);
  });

  it('when a refresh rotated the session, then the previous access token is refused', async () => {
    const own = await loginThroughGateway(stack.http, uniqueEmail('gw_rotate_session'));
    const refreshed = await stack.http.post('/api/v2/auth/refresh', {
      body: { refresh_token: own.refresh_token },
      headers: { 'x-forwarded-for': '203.0.113.200' },
    });
    expect(refreshed.status).toBe(200);
    expect((await userWith(own.access_token)).status).toBe(401);
    expect((await userWith(refreshed.body.access_token)).status).toBe(200);
  });
});
