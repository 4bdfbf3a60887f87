// What the use cases need from other services, as plain interfaces: the
// adapters in peers/ call identity and catalog over gRPC.

/** The tenant settings commerce decides with (owned by identity). */
export interface TenantInfo {
  id: number;
  name: string;
  /** The tenant's main currency (ISO 4217): the only one prices are shown in. */
  currency: string;
  /** Every issue of the tenant is free to read. */
  freeAccess: boolean;
  aggregatorId: number | null;
  mobileAppScheme: string | null;
  lang: string;
  countryCode: string | null;
}

export interface Tenants {
  /** The tenant, or null when identity does not know it. */
  find(tenantId: number): Promise<TenantInfo | null>;
}

export interface Users {
  /** The user's e-mail (lower-cased), or null when identity does not know the user. */
  emailOf(userId: number): Promise<string | null>;
  /** Finds or creates the user's account in the tenant; throws when the user does not exist. */
  ensureMembership(userId: number, tenantId: number): Promise<void>;
}

export interface IssueNames {
  /** The issue's current name in catalog, or null when catalog cannot say (down, slow, unknown). */
  nameOf(tenantId: number, issueId: number): Promise<string | null>;
}

export interface EventSink {
  publish<P>(type: string, payload: P, options: { id: string; tenantId?: number }): Promise<void>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
