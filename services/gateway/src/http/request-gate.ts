// The first step of every routed request, before its body is parsed: the
// one Redis round trip (global limit, the route's limit, the session's
// liveness key) and, alongside it, the local verification of the access
// token. The global limit is decided here; what else was learned waits in
// the request state for the pipeline, which decides it in its usual order
// (store host, route limit, token, session, ...), so responses stay as they
// were. The session key is named from the token's unverified jti, so that the
// read can go out before the signature is checked; it is used only once the
// same token has verified. A reader-token verified before has its session's
// liveness key read too (http/reader-token.ts). On a route whose reads are
// cached per user, the user's response version is read in the same round
// trip (the user named by an already verified token, or by a reader-token
// seen verified before), and used only once the request has authenticated as
// that user.
import type { Request, RequestHandler, Response } from 'express';
import type { AccessTokenVerifier, VerifiedToken } from '../peers/jwks.js';
import { bearerTokenOf } from './auth.js';
import { stateOf } from './context.js';
import type { Admission, RateLimits } from './rate-limit.js';
import type { ReaderTokenVerifier } from './reader-token.js';
import type { ResponseCache } from './response-cache.js';
import { HEADER } from './headers.js';
import { isPublisherApiKey } from './publisher-auth.js';
import { requiresJwt, requiresReaderToken, type Route } from './route.js';
import { sessionKeyOf } from './session-liveness.js';

export interface Admitted extends Admission {
  /** The access token the route takes, when one was sent. */
  token?: string;
  /** Its verification (settled; rejects with InvalidTokenError for a bad token). */
  verification?: Promise<VerifiedToken>;
  /** The user whose response version `userVersion` is; the cache serves only that user. */
  versionUserId?: number;
}

export interface GateDeps {
  verifier: AccessTokenVerifier;
  limits: RateLimits;
  /** SESSION_LIVENESS_PREFIX, shared with identity (SHARED_KEY_PREFIXES). */
  sessionKeyPrefix: string;
  responses: ResponseCache;
  readerTokens: ReaderTokenVerifier;
}

export function accessTokenOf(req: Request, route: Route): string | undefined {
  if (route.auth === 'jwt-query') {
    const token = req.query.token;
    return typeof token === 'string' && token.length > 0 ? token : undefined;
  }
  return bearerTokenOf(req);
}

/** The jti claim without checking anything: only to name a Redis key early. */
function unverifiedJtiOf(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (!payload || payload.length > 4_096) return undefined;
  try {
    const jti = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { jti?: unknown }).jti;
    return typeof jti === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(jti) ? jti : undefined;
  } catch {
    return undefined;
  }
}

export function admissionGate(route: Route, deps: GateDeps): RequestHandler {
  return async (req: Request, res: Response, next) => {
    const state = stateOf(res);
    const sent = requiresJwt(route.auth) || route.auth === 'device-key' || route.auth === 'publisher' ? accessTokenOf(req, route) : undefined;
    // A publisher API key is no JWT: nothing to verify or read here, identity checks it.
    const token = route.auth === 'publisher' && isPublisherApiKey(sent) ? undefined : sent;
    let verification: Promise<VerifiedToken> | undefined;
    let sessionKey: string | undefined;
    let versionUserId: number | undefined;
    if (token) {
      // A token seen before (most requests) needs neither the signature check nor the payload decoded again.
      const known = deps.verifier.known(token);
      verification = known ? Promise.resolve(known) : deps.verifier.verify(token);
      // Awaited by auth later, or never (a 429 first): no unhandled rejection either way.
      verification.catch(() => undefined);
      const jti = known ? known.jti : unverifiedJtiOf(token);
      // The session-limit route always asks identity (it needs the reason: 409), so it reads nothing.
      if (jti && !route.enforceSessionLimit) sessionKey = sessionKeyOf(deps.sessionKeyPrefix, jti);
      if (known && route.cachePerUser) versionUserId = known.userId;
    }
    let readerSessionKey: string | undefined;
    if (requiresReaderToken(route.auth)) {
      const readerToken = req.get(HEADER.readerToken)?.trim();
      const knownReader = readerToken ? deps.readerTokens.known(readerToken) : undefined;
      readerSessionKey = knownReader?.livenessKey;
      if (route.cachePerUser && versionUserId === undefined && route.auth === 'reader-token') versionUserId = knownReader?.userId;
    }
    const versionKey = versionUserId !== undefined && deps.responses.enabled ? deps.responses.versionKeyOf(versionUserId) : undefined;
    const admission = await deps.limits.admit(state.clientIp, route.rateLimit, {
      session: sessionKey,
      userVersion: versionKey,
      readerSession: readerSessionKey,
    });
    state.admitted = {
      ...admission,
      ...(token && { token }),
      ...(verification && { verification }),
      ...(versionKey && { versionUserId }),
    };
    next();
  };
}
