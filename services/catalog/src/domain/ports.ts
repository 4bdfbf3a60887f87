// What the catalog's use cases need from other services, as plain
// interfaces; the adapters in peers/ speak gRPC to identity, commerce
// and reader.

export type AccessReason = 'free' | 'purchased' | 'subscription';

export interface PriceView {
  currency: string;
  amount: number;
  /** Only while a promotion is active. */
  discount?: { amount: number; percentage: number | null; endsAt: string | null };
}

/** Commerce's decision for one user and one issue. */
export interface Offer {
  issueId: number;
  /** Null: no access. */
  reason: AccessReason | null;
  canBeBought: boolean;
  free: boolean;
  prices: PriceView[];
  /** Free or sold individually: the storefront lists only these. */
  individuallyAcquirable: boolean;
}

/** What a user can read in a set of tenants. */
export interface AccessibleContent {
  /** Tenants where every issue is readable (free access, a plan covering everything). */
  wholeTenants: ReadonlyMap<number, AccessReason>;
  /** Issues readable one by one: issue id -> its tenant and reason. */
  issues: ReadonlyMap<number, { tenantId: number; reason: AccessReason }>;
}

export function canRead(content: AccessibleContent, issue: { id: number; tenantId: number }): boolean {
  return content.wholeTenants.has(issue.tenantId) || content.issues.get(issue.id)?.tenantId === issue.tenantId;
}

export interface AccessPort {
  /** One call for every issue of a request; issues commerce does not know are absent. */
  offers(tenantId: number, userId: number, issueIds: readonly number[]): Promise<Map<number, Offer>>;
  accessible(tenantIds: readonly number[], userId: number): Promise<AccessibleContent>;
}

export interface TenantSettings {
  id: number;
  domain: string;
  lang: string;
  currency: string;
  storefrontSearch: boolean;
}

export interface TenantSettingsPort {
  /** NOT_FOUND when the tenant does not exist. */
  get(tenantId: number): Promise<TenantSettings>;
}

export interface ReadingPosition {
  tenantId: number;
  issueId: number;
  readAt: string;
}

export interface ReadingPositionsPort {
  /** Most recently read first. Never fails: while reader is unavailable the answer is empty. */
  list(userId: number, tenantIds: readonly number[], page: number, perPage: number): Promise<{ positions: ReadingPosition[]; total: number }>;
}
