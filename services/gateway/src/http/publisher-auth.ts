// Who may call a publisher route: a staff member of the route's tenant, by
// the same access token as every other v2 route (verified and
// session-checked by auth.ts), or a publisher API key, recognised by its
// prefix and never parsed as a JWT. identity's AuthorizeStaff decides the
// role for both, so revoking a key or a role takes effect on the next
// request; its refusals keep their statuses (401 unknown or revoked key,
// 403 not staff or another tenant's key, 429 too many wrong keys).
import { isDomainError } from '../peers/breaker.js';
import { identity } from '@folio/proto';
import { authenticate } from './auth.js';
import { unauthorized } from './errors.js';
import type { Admitted } from './request-gate.js';
import type { AuthUser, Services, StaffPrincipal } from './route.js';

/** Every publisher API key starts with this (identity makes them). */
export const PUBLISHER_API_KEY_PREFIX = 'fpk_';

export function isPublisherApiKey(token: string | undefined): token is string {
  return token !== undefined && token.startsWith(PUBLISHER_API_KEY_PREFIX);
}

const ROLES: Partial<Record<identity.StaffRole, StaffPrincipal['role']>> = {
  [identity.StaffRole.STAFF_ROLE_EDITOR]: 'editor',
  [identity.StaffRole.STAFF_ROLE_OWNER]: 'owner',
};

export async function authorizePublisher(
  admitted: Admitted,
  apiKey: string | undefined,
  services: Services,
  tenantId: number,
  clientIp: string,
): Promise<{ staff: StaffPrincipal; user?: AuthUser }> {
  let user: AuthUser | undefined;
  let request: identity.AuthorizeStaffRequest;
  if (isPublisherApiKey(apiKey)) {
    request = { tenantId, apiKey, clientIp };
  } else {
    user = await authenticate(admitted, services);
    request = { tenantId, userId: user.id, clientIp };
  }
  let answer: identity.AuthorizeStaffResponse;
  try {
    answer = await services.identity.authorizeStaff(request);
  } catch (error) {
    // UNAUTHENTICATED keeps the one 401 body of every bad credential.
    if (isDomainError(error) && error.code === 'UNAUTHENTICATED') throw unauthorized();
    throw error;
  }
  const role = ROLES[answer.role];
  if (!role) throw new Error(`AuthorizeStaff answered without a role for tenant ${tenantId}`);
  return {
    staff: {
      role,
      actor: answer.actor,
      ...(answer.userId !== undefined && { userId: answer.userId }),
      ...(answer.apiKeyId !== undefined && { apiKeyId: answer.apiKeyId }),
    },
    ...(user && { user }),
  };
}
