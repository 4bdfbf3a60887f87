// The purchase redirect (GET {store}/app/purchase/{issue_id}): the gateway has
// resolved the store's tenant and verified the JWT; this use case checks the
// offer, gives the user an account in the store's tenant, and opens a web
// session holding the return deeplink and a cart with the issue alone in it.
import { randomBytes, randomUUID } from 'node:crypto';
import { DomainError, failedPrecondition, notFound, unauthenticated } from '@folio/errors';
import { offerView, type SaleRefusal } from './access.js';
import type { Clock, TenantInfo, Tenants, Users } from './ports.js';
import { hashSessionId, type CommerceRepositories } from './repositories.js';

/** The generic app's tenant: `app_tenant_id` 1 means the generic app (scheme rule 1). */
export const GENERIC_APP_TENANT_ID = 1;

export interface PurchaseSettings {
  defaultAppScheme: string;
  sessionTtlMinutes: number;
  checkoutPath: string;
}

export interface StartedPurchase {
  checkoutUrl: string;
  webSessionId: string;
  maxAgeSeconds: number;
}

const REFUSALS: Record<SaleRefusal, string> = {
  not_on_sale: 'This issue is not for sale.',
  free: 'This issue is free: there is nothing to buy.',
  pay_per_use: 'This issue uses pay-per-use licensing and cannot be bought.',
  no_price: 'This issue has no prices.',
};

/** The deeplink the app gets back after a successful payment. */
export function returnUrl(scheme: string, issueId: number): string {
  return `${scheme}purchase-complete?issue_id=${issueId}&status=success`;
}

/**
 * The spec's scheme resolution:
 * 1. no app_tenant_id, or app_tenant_id = 1: the default app scheme;
 * 2. app_tenant_id is the current tenant or the current tenant's aggregator:
 *    the mobile app scheme of the tenant with id app_tenant_id (the default
 *    when that tenant has none);
 * 3. otherwise: the default app scheme.
 */
export async function resolveReturnScheme(current: TenantInfo, appTenantId: number | undefined, tenants: Tenants, defaultScheme: string): Promise<string> {
  if (!appTenantId || appTenantId === GENERIC_APP_TENANT_ID) return defaultScheme;
  if (appTenantId !== current.id && appTenantId !== current.aggregatorId) return defaultScheme;
  const appTenant = appTenantId === current.id ? current : await tenants.find(appTenantId);
  return appTenant?.mobileAppScheme || defaultScheme;
}

export class Purchases {
  constructor(
    private readonly deps: { store: CommerceRepositories; tenants: Tenants; users: Users; clock: Clock },
    private readonly settings: PurchaseSettings,
  ) {}

  async start(request: { tenantId: number; userId: number; issueId: number; appTenantId?: number }): Promise<StartedPurchase> {
    const { store, tenants, users, clock } = this.deps;
    if (!Number.isInteger(request.userId) || request.userId <= 0) throw unauthenticated('The given data was invalid.');
    const tenant = request.tenantId > 0 ? await tenants.find(request.tenantId) : null;
    if (!tenant) throw notFound('Store not found.');
    const offer = request.issueId > 0 ? await store.offers.findInTenant(tenant.id, request.issueId) : null;
    if (!offer) throw notFound('Issue not found.');
    const now = clock.now();
    const refusal = offerView(offer, tenant, now).saleRefusal;
    if (refusal) throw failedPrecondition(REFUSALS[refusal], 'NOT_FOR_SALE');

    try {
      await users.ensureMembership(request.userId, tenant.id);
    } catch (error) {
      // A valid token of a user identity no longer has (account deleted meanwhile).
      if (error instanceof DomainError && error.code === 'NOT_FOUND') throw unauthenticated('The given data was invalid.');
      throw error;
    }

    const returnScheme = await resolveReturnScheme(tenant, request.appTenantId, tenants, this.settings.defaultAppScheme);
    // One draw for both secrets: each synchronous randomBytes call showed as ~3 % of commerce's CPU profile on the redirect.
    const secrets = randomBytes(64);
    const webSessionId = secrets.subarray(0, 32).toString('base64url');
    const maxAgeSeconds = this.settings.sessionTtlMinutes * 60;
    // One insert, batched with the redirects of the same moment (InsertBatcher): the cart is the session's.
    await store.webSessions.create({
      _id: hashSessionId(webSessionId),
      tenant_id: tenant.id,
      user_id: request.userId,
      issue_id: offer._id,
      app_tenant_id: request.appTenantId ?? null,
      return_scheme: returnScheme,
      csrf_token: secrets.subarray(32).toString('base64url'),
      cart: { items: [{ issue_id: offer._id, added_at: now }], checkout_id: randomUUID() },
      created_at: now,
      expires_at: new Date(now.getTime() + maxAgeSeconds * 1000),
    });
    return {
      checkoutUrl: `${this.settings.checkoutPath}?automatically_open_checkout=true`,
      webSessionId,
      maxAgeSeconds,
    };
  }
}
