// Verifies access tokens against identity's public keys. The key set comes
// from identity's GetJwks RPC and is kept in memory; a token signed with a
// key we have not seen (identity rotated) triggers a refetch, at most one per
// second, so a flood of forged `kid`s cannot hammer identity. Verified
// tokens are remembered until they expire (verified-tokens.ts), and only the
// canonical low-S form of a signature is accepted (low-S.ts).
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { identity } from '@folio/proto';
import type { GuardedClient } from './index.js';
import { hasCanonicalLowS } from '@folio/crypto';
import { VerifiedTokenCache } from './verified-tokens.js';

export interface VerifiedToken {
  userId: number;
  jti: string;
  email?: string;
  payload: JWTPayload;
}

/** A token that is not ours, not valid, or not valid any more. */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

type KeySet = ReturnType<typeof createLocalJWKSet>;

/** Our tokens are about 600 characters; anything past this is refused before any work. */
export const MAX_TOKEN_LENGTH = 4_096;

export class AccessTokenVerifier {
  private keys: KeySet | undefined;
  private loading: Promise<KeySet> | undefined;
  private lastFetch = 0;
  private readonly verified: VerifiedTokenCache<VerifiedToken>;

  constructor(
    private readonly identity: Pick<GuardedClient<identity.IdentityServiceClient>, 'getJwks'>,
    private readonly options: { issuer: string; audience: string; minRefetchIntervalMs?: number; cacheSize?: number },
  ) {
    this.verified = new VerifiedTokenCache(options.cacheSize ?? 10_000);
  }

  /** The token's verification when it is already known (verified and not expired), without any work. */
  known(token: string): VerifiedToken | undefined {
    return this.verified.get(token);
  }

  /** Throws InvalidTokenError for a bad token; upstream failures (identity down) pass through as they are. */
  async verify(token: string): Promise<VerifiedToken> {
    const known = this.verified.get(token);
    if (known) return known;
    const verified = await this.verifyOnce(token);
    this.verified.set(token, verified, (verified.payload.exp ?? 0) * 1000);
    return verified;
  }

  private async verifyOnce(token: string): Promise<VerifiedToken> {
    // The keys first: without them (identity down) every token is a 503, as it always was.
    let keys = await this.keySet();
    // Not even worth a signature check: no token of ours is this long, and no valid one has a malleated signature.
    if (token.length > MAX_TOKEN_LENGTH || !hasCanonicalLowS(token)) throw new InvalidTokenError('not a canonical ES256 token');
    let result;
    try {
      result = await this.check(token, keys);
    } catch (error) {
      if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw this.invalid(error);
      // A key we have not seen: identity may have rotated. Refetch, but not
      // more than once per interval; a token arriving sooner waits for it,
      // and then refetches unless another request did meanwhile. (Not "unless
      // the interval has not passed": a timer may fire a little before
      // Date.now() says it is due, and the new key was then never fetched.)
      const fetchSeen = this.lastFetch;
      const wait = fetchSeen + this.minRefetchIntervalMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      keys = await this.keySet(this.lastFetch === fetchSeen);
      try {
        result = await this.check(token, keys);
      } catch (retryError) {
        throw this.invalid(retryError);
      }
    }
    const { payload } = result;
    const sub = payload.sub;
    if (typeof sub !== 'string' || !/^[1-9]\d{0,9}$/.test(sub) || typeof payload.jti !== 'string' || payload.jti.length === 0) {
      throw new InvalidTokenError('token lacks sub or jti');
    }
    return {
      userId: Number(sub),
      jti: payload.jti,
      ...(typeof payload.email === 'string' && { email: payload.email }),
      payload,
    };
  }

  private check(token: string, keys: KeySet) {
    return jwtVerify(token, keys, {
      algorithms: ['ES256'],
      issuer: this.options.issuer,
      audience: this.options.audience,
      requiredClaims: ['sub', 'jti', 'exp'],
    });
  }

  private invalid(error: unknown): unknown {
    // jose errors all mean "not a token we accept"; anything else is a bug or an outage.
    if (error instanceof joseErrors.JOSEError || error instanceof InvalidTokenError) return new InvalidTokenError(error.message);
    return error;
  }

  private get minRefetchIntervalMs(): number {
    return this.options.minRefetchIntervalMs ?? 1_000;
  }

  private keySet(refresh = false): Promise<KeySet> {
    // Concurrent requests share one fetch.
    if (this.loading) return this.loading;
    if (this.keys && !refresh) return Promise.resolve(this.keys);
    this.loading = (async () => {
      try {
        this.lastFetch = Date.now();
        const { keys } = await this.identity.getJwks({});
        const jwks: JSONWebKeySet = { keys: keys.map((key) => ({ ...key })) };
        this.keys = createLocalJWKSet(jwks);
        return this.keys;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}
