// Tenant discovery (GET /api/v2/tenants): tenants the user could join.
// Rules from the spec: only tenants where the user has no account and whose
// plan is active; most members first, then by id; optional country filter on
// the signup country (exactly 2 characters), optional name query (2-128
// characters, NFC-normalized, case-insensitive substring); a custom app
// (app tenant other than 1) only sees its family: itself and the tenants it
// aggregates. Pagination is by signed offset cursors.
import type { CursorCodec } from './cursor.js';
import { invalidFields } from './errors.js';
import type { DiscoveryCriteria, IdentityRepositories, TenantRecord } from './repositories.js';
import { appTenantIdOf, DEFAULT_TENANT_ID } from './tenants.js';

export interface DiscoveryRequest {
  userId: number;
  countryCode?: string | undefined;
  query?: string | undefined;
  perPage: number;
  cursor?: string | undefined;
  appTenantId: number;
}

export interface DiscoveryPage {
  tenants: TenantRecord[];
  meta: { perPage: number; nextCursor: string | null; prevCursor: string | null };
}

export const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;

/** What discovery's `query` is matched against: NFC, lower case. */
export function searchable(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

export class TenantDiscovery {
  constructor(
    private readonly store: Pick<IdentityRepositories, 'memberships' | 'tenants'>,
    private readonly cursors: CursorCodec,
  ) {}

  async list(request: DiscoveryRequest): Promise<DiscoveryPage> {
    const errors: Record<string, string[]> = {};
    const perPage = request.perPage === 0 ? DEFAULT_PER_PAGE : request.perPage;
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
      errors.per_page = [`The per page must be between 1 and ${MAX_PER_PAGE}.`];
    }
    let country: string | undefined;
    if (request.countryCode !== undefined) {
      country = request.countryCode.trim().toUpperCase();
      if ([...country].length !== 2) errors.country_code = ['The country code must be 2 characters.'];
    }
    let query: string | undefined;
    if (request.query !== undefined) {
      query = searchable(request.query.trim());
      const length = [...query].length;
      if (length < 2 || length > 128) errors.query = ['The query must be between 2 and 128 characters.'];
    }
    const appTenantId = appTenantIdOf(request.appTenantId);
    const digest = this.cursors.filtersDigest({ user: request.userId, country, query, app: appTenantId });
    let offset = 0;
    if (request.cursor !== undefined && request.cursor !== '') {
      const decoded = this.cursors.decode(request.cursor, digest);
      if (decoded === null) errors.cursor = ['The cursor is invalid.'];
      else offset = decoded;
    }
    if (Object.keys(errors).length) throw invalidFields(errors);

    const memberOf = await this.store.memberships.tenantIdsOf(request.userId);
    const criteria: DiscoveryCriteria = {
      excludeIds: memberOf,
      countryCode: country,
      nameContains: query,
      familyOf: appTenantId !== DEFAULT_TENANT_ID ? appTenantId : undefined,
    };
    const rows = await this.store.tenants.discoverable(criteria, offset, perPage + 1);
    const hasMore = rows.length > perPage;
    return {
      tenants: rows.slice(0, perPage),
      meta: {
        perPage,
        nextCursor: hasMore ? this.cursors.encode(offset + perPage, digest) : null,
        prevCursor: offset > 0 ? this.cursors.encode(Math.max(0, offset - perPage), digest) : null,
      },
    };
  }
}
