// Access token authentication: signature, algorithm, issuer, audience and
// expiry checked locally against identity's JWKS, then the session (jti)
// checked with identity so that a logged-out or evicted session is refused
// even while its token has not expired. Every way a token can be wrong gives
// the same 401 body; an identity outage is a 503, not a logout.
import type { Request } from 'express';
import { httpStatusOf } from '@folio/errors';
import { isDomainError } from '../upstreams/breaker.js';
import { InvalidTokenError, type AccessTokenVerifier } from '../upstreams/jwks.js';
import { unauthorized } from './errors.js';
import type { AuthUser, Services } from './route.js';

export function bearerTokenOf(req: Request): string | undefined {
  const header = req.get('authorization');
  const match = header ? /^Bearer\s+([A-Za-z0-9\-_.~+/]+=*)\s*$/i.exec(header) : null;
  return match?.[1];
}

export async function authenticate(
  token: string | undefined,
  verifier: AccessTokenVerifier,
  services: Services,
  { enforceLimit = false } = {},
): Promise<AuthUser> {
  if (!token) throw unauthorized();
  let verified;
  try {
    verified = await verifier.verify(token);
  } catch (error) {
    if (error instanceof InvalidTokenError) throw unauthorized();
    throw error;
  }
  try {
    const session = await services.identity.checkSession({ jti: verified.jti, userId: verified.userId, enforceLimit });
    return { id: session.userId || verified.userId, email: session.email || verified.email || '', admin: session.admin, jti: verified.jti };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const status = httpStatusOf(error);
    // Outages stay 503; the session limit (session validate) is the spec's 409.
    if (status >= 500 || (enforceLimit && status === 409)) throw error;
    throw unauthorized();
  }
}
