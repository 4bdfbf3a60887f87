// Who is browsing a store's OPDS catalog (and syncing with KOReader): HTTP
// Basic with the e-mail and a device key (identity checks the key, the
// membership of this store and the failure limits), or a Bearer access token
// of a member of this store. The caller answers "nobody" in its protocol's
// own way (an Authentication for OPDS document, a Basic challenge, kosync's 401).
import type { Request, Response } from 'express';
import { httpStatusOf } from '@folio/errors';
import { identity } from '@folio/proto';
import { authenticate } from '../http/auth.js';
import { stateOf } from '../http/context.js';
import type { AuthUser, Services, Tenant } from '../http/route.js';
import { isDomainError } from '../peers/breaker.js';

export type ReaderAuth = { user: Omit<AuthUser, 'jti'> } | { refused: 'missing' | 'invalid' | 'not-a-member' };

/** `Basic base64(email:key)` → its parts; undefined when absent or malformed. */
export function basicCredentialsOf(req: Request): { email: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]{1,1024})\s*$/i.exec(req.get('authorization') ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { email: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** A device key check with identity; UNAUTHENTICATED becomes a refusal, anything else (429, 503) stays an error. */
export async function verifyDeviceKey(
  services: Services,
  request: { email: string; secret: string; form: 'plain' | 'kosync-md5'; tenant: Tenant; clientIp: string },
): Promise<ReaderAuth> {
  if (!request.email || !request.secret || request.email.length > 254 || request.secret.length > 256) return { refused: 'invalid' };
  try {
    const verified = await services.identity.verifyDeviceKey({
      email: request.email,
      tenantId: request.tenant.id,
      secret: request.secret,
      secretForm: request.form === 'kosync-md5' ? identity.SecretForm.SECRET_FORM_KOSYNC_MD5 : identity.SecretForm.SECRET_FORM_PLAIN,
      clientIp: request.clientIp,
    });
    return { user: { id: verified.userId, email: verified.email, admin: verified.admin } };
  } catch (error) {
    if (isDomainError(error) && error.code === 'UNAUTHENTICATED') return { refused: 'invalid' };
    throw error;
  }
}

export async function authenticateReader(req: Request, res: Response, services: Services, tenant: Tenant): Promise<ReaderAuth> {
  const state = stateOf(res);
  const basic = basicCredentialsOf(req);
  if (basic) return verifyDeviceKey(services, { ...basic, form: 'plain', tenant, clientIp: state.clientIp });

  const admitted = state.admitted;
  if (!admitted?.token) return { refused: 'missing' };
  let user: AuthUser;
  try {
    user = await authenticate(admitted, services);
  } catch (error) {
    if (isDomainError(error) && httpStatusOf(error) === 401) return { refused: 'invalid' };
    throw error;
  }
  const profile = await services.identity.getUser({ userId: user.id });
  if (!profile.user?.tenants.some((member) => member.id === tenant.id)) return { refused: 'not-a-member' };
  return { user: { id: user.id, email: user.email, admin: user.admin } };
}
