// The ES256 keys that sign access tokens. Every replica signs with the newest
// active key (re-read at most once a minute, so a rotation reaches all
// replicas quickly) and the JWKS publishes every key not yet retired, so a
// token signed before a rotation keeps verifying until it expires.
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type KeyLike } from 'jose';
import { withLowS } from '@folio/crypto';
import type { SigningKeyRecord, SigningKeyRepository } from './repositories.js';

export const ALG = 'ES256';
const CACHE_MS = 60_000;

export interface AccessTokenClaims {
  sub: string;
  email: string;
  jti: string;
}

export class SigningKeys {
  private current: { kid: string; key: KeyLike | Uint8Array; loadedAt: number } | undefined;

  constructor(
    private readonly keys: SigningKeyRepository,
    private readonly settings: { issuer: string; audience: string; accessTokenTtlSeconds: number },
  ) {}

  /** Start-up: makes sure a key is active. */
  async ensureActive(): Promise<string> {
    const active = await this.keys.active();
    if (active) return (await this.load(active)).kid;
    return this.rotate();
  }

  /** Makes a new active key; older keys keep verifying until every token they signed has expired. */
  async rotate(): Promise<string> {
    const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
    const kid = randomUUID();
    const now = new Date();
    const doc: SigningKeyRecord = {
      kid,
      public_jwk: { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' },
      private_jwk: { ...(await exportJWK(privateKey)), kid, alg: ALG },
      created_at: now,
      active: true,
      deactivated_at: null,
      retired_at: null,
    };
    await this.keys.insert(doc);
    await this.keys.deactivateAllBut(kid, now);
    // A key deactivated longer ago than a token lives signed nothing that is still valid.
    await this.keys.retireDeactivatedBefore(new Date(now.getTime() - this.settings.accessTokenTtlSeconds * 1000 - 60_000), now);
    this.current = { kid, key: privateKey, loadedAt: Date.now() };
    return kid;
  }

  async sign(claims: AccessTokenClaims): Promise<{ token: string; expiresIn: number }> {
    const { kid, key } = await this.signingKey();
    const now = Math.floor(Date.now() / 1000);
    const expiresIn = this.settings.accessTokenTtlSeconds;
    const token = await new SignJWT({ email: claims.email })
      .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
      .setSubject(claims.sub)
      .setJti(claims.jti)
      .setIssuedAt(now)
      .setExpirationTime(now + expiresIn)
      .setIssuer(this.settings.issuer)
      .setAudience(this.settings.audience)
      .sign(key);
    return { token: withLowS(token), expiresIn };
  }

  /** `{"keys": [...]}` with every published public key. */
  async jwks(): Promise<{ keys: JWK[] }> {
    const keys = await this.keys.published();
    return { keys: keys.map((key) => ({ ...(key.public_jwk as unknown as JWK), kid: key.kid, alg: ALG, use: 'sig' })) };
  }

  private async signingKey() {
    if (this.current && Date.now() - this.current.loadedAt < CACHE_MS) return this.current;
    const active = await this.keys.active();
    if (!active) {
      await this.rotate();
      return this.current!;
    }
    return this.load(active);
  }

  private async load(doc: SigningKeyRecord) {
    if (this.current?.kid === doc.kid) {
      this.current.loadedAt = Date.now();
      return this.current;
    }
    this.current = { kid: doc.kid, key: await importJWK(doc.private_jwk as unknown as JWK, ALG), loadedAt: Date.now() };
    return this.current;
  }
}
