// Access token authentication: signature, algorithm, issuer, audience and
// expiry checked locally against identity's JWKS (request-gate.ts started
// it), then the session (jti): from its liveness key in Redis, read in the
// request's one round trip, and only when that key is absent or unreadable
// from identity's CheckSession (which writes the key again). A logged-out or
// evicted session has a tombstone, so it is refused on the very next request
// even while its token has not expired. Every way a token can be wrong gives
// the same 401 body; an identity outage is a 503, not a logout.
import type { Request } from 'express';
import { httpStatusOf } from '@folio/errors';
import { isDomainError } from '../peers/breaker.js';
import { InvalidTokenError } from '../peers/jwks.js';
import { unauthorized } from './errors.js';
import type { Admitted } from './request-gate.js';
import type { AuthUser, Services } from './route.js';
import { livenessOf } from './session-liveness.js';

export function bearerTokenOf(req: Request): string | undefined {
  const header = req.get('authorization');
  const match = header ? /^Bearer\s+([A-Za-z0-9\-_.~+/]+=*)\s*$/i.exec(header) : null;
  return match?.[1];
}

export async function authenticate(admitted: Admitted, services: Services, { enforceLimit = false } = {}): Promise<AuthUser> {
  if (!admitted.token || !admitted.verification) throw unauthorized();
  let verified;
  try {
    verified = await admitted.verification;
  } catch (error) {
    if (error instanceof InvalidTokenError) throw unauthorized();
    throw error;
  }

  const liveness = livenessOf(admitted.session);
  if (liveness.state === 'ended') throw unauthorized();
  if (liveness.state === 'live' && liveness.userId === verified.userId) {
    return { id: liveness.userId, email: liveness.email || verified.email || '', admin: liveness.admin, jti: verified.jti };
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
