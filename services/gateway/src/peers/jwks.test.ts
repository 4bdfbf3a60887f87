import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessTokenVerifier } from './jwks.js';
import { flipS, hasCanonicalLowS } from '@folio/crypto';

const ISSUER = 'https://identity.test';
const AUDIENCE = 'folio-api';

async function signingKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const sign = async () => {
    const token = await new SignJWT({ jti: `t-${kid}` })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject('7')
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime('5m')
      .sign(privateKey);
    // identity signs in the low-S form, the only one the verifier accepts.
    return hasCanonicalLowS(token) ? token : flipS(token);
  };
  return { jwk, sign };
}

/** identity's GetJwks, answering the keys it holds at the time of each call. */
function fakeIdentity(keys: JWK[]) {
  const fetches: number[] = [];
  return {
    fetches,
    client: {
      getJwks: async () => {
        fetches.push(Date.now());
        return { keys: [...keys] };
      },
    } as never,
  };
}

describe('AccessTokenVerifier', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('when a token of a rotated key arrives within the refetch interval, then it waits and refetches, even if its timer fires before Date.now() says it is due', async () => {
    const first = await signingKey('k1');
    const rotated = await signingKey('k2');
    const held = [first.jwk];
    const identity = fakeIdentity(held);
    const verifier = new AccessTokenVerifier(identity.client, { issuer: ISSUER, audience: AUDIENCE, minRefetchIntervalMs: 50 });
    expect((await verifier.verify(await first.sign())).userId).toBe(7);

    held.push(rotated.jwk);
    // A clock that never reaches the end of the interval: the timer's firing is all the verifier gets.
    const frozen = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(frozen);

    expect((await verifier.verify(await rotated.sign())).userId).toBe(7);
    expect(identity.fetches).toHaveLength(2);
  });

  it('when many tokens of unknown keys arrive at once, then identity is asked once per interval', async () => {
    const known = await signingKey('k1');
    const identity = fakeIdentity([known.jwk]);
    const verifier = new AccessTokenVerifier(identity.client, { issuer: ISSUER, audience: AUDIENCE, minRefetchIntervalMs: 50 });
    await verifier.verify(await known.sign());

    const forged = await Promise.all(Array.from({ length: 5 }, (_, i) => signingKey(`forged-${i}`)));
    const results = await Promise.allSettled(forged.map(async (key) => verifier.verify(await key.sign())));

    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    expect(identity.fetches).toHaveLength(2);
  });
});
