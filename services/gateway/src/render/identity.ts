// Identity's messages → the spec's JSON shapes. Only the fields the spec names
// leave the gateway: a proto Tenant carries settings that stay internal.
import { DomainError } from '@folio/errors';
import type { identity } from '@folio/proto';
import type { z } from 'zod';
import type { TenantObject, TokenResponse, UserObject } from '../routes/schemas.js';

export function tenantToWire(tenant: identity.Tenant): z.output<typeof TenantObject> {
  return {
    id: tenant.id,
    name: tenant.name,
    domain: tenant.domain,
    logo: tenant.logo,
    country_code: tenant.countryCode || null,
    country_name: tenant.countryName || null,
    colors: { primary: tenant.colors?.primary ?? '', secondary: tenant.colors?.secondary ?? '' },
  };
}

export function userToWire(user: identity.User): z.output<typeof UserObject> {
  return { id: user.id, admin: user.admin, email: user.email, picture: user.picture, tenants: user.tenants.map(tenantToWire) };
}

export function tokensToWire(tokens: identity.TokenPair | undefined): z.output<typeof TokenResponse> {
  // A success without tokens is a contract breach upstream, not the client's fault.
  if (!tokens) throw new DomainError('INTERNAL', 'identity answered without tokens');
  return {
    access_token: tokens.accessToken,
    token_type: 'bearer',
    expires_in: tokens.expiresIn,
    refresh_token: tokens.refreshToken,
  };
}
