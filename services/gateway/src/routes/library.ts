// Library shelves, shelf filter and favorites of one tenant: answered by catalog.
import { z } from 'zod';
import { invalidArgument, permissionDenied } from '@folio/errors';
import { route } from '../http/route.js';
import { libraryFilterKeys } from '../render/app-version.js';
import { pagedSectionToWire, shelvesToWire } from '../render/v2/catalog.js';
import { FavoriteState, issueIdParams, LibraryShelves, PagedSection, queryInt, scopeSchema } from './schemas.js';
import { searchQuery } from './search.js';
import { tenantIdsOf } from './user.js';
import { catalogScope } from './requests.js';

const paging = {
  page: queryInt({ min: 1, max: 10_000, fallback: 1, description: 'Shelves page' }),
  per_page: queryInt({ min: 1, max: 100, fallback: 8, description: 'Items per shelf' }),
  scope: scopeSchema.default('owned'),
};
const PAGING_KEYS = new Set(Object.keys(paging));

/**
 * The one dynamic filter `{filter_name}={filter_value}` among the query keys.
 * None is passed on as empty (catalog names what is missing); more than one is 422 here.
 */
function dynamicFilterOf(query: Record<string, unknown>): { filterName: string; filterValue: string } {
  const filters = Object.entries(query).filter(([key]) => !PAGING_KEYS.has(key));
  if (filters.length > 1) {
    const message = 'Only one filter may be sent.';
    throw invalidArgument('The given data was invalid.', Object.fromEntries(filters.map(([key]) => [key, [message]])));
  }
  const [filter] = filters;
  return filter ? { filterName: filter[0], filterValue: String(filter[1]) } : { filterName: '', filterValue: '' };
}

export const libraryRoutes = [
  route({
    method: 'get',
    path: '/api/v2/library',
    tag: 'Library',
    summary: 'Shelves of the tenant: continue reading, latest issues, taxonomy sections',
    description:
      'Paged by shelf (`meta.per_page` is the number of shelves per page); `per_page` is the number of items per shelf. ' +
      'Empty shelves keep their place with empty `data`. `scope=all` is the storefront: owned and unowned individually ' +
      'acquirable issues with the commerce fields. Titles follow X-App-Lang. ' +
      'X-AppBase-Version >= 1.28.0 receives `filter_params` instead of `filter_name`/`filter_value`.',
    auth: 'jwt',
    tenant: 'single',
    cachePerUser: true,
    query: z.object(paging),
    responses: { 200: { description: 'Shelves', schema: LibraryShelves } },
    handler: async ({ query, user, tenant, lang, services, appBaseVersion }) => {
      const response = await services.catalog.listLibrarySections({
        tenantId: tenant.id,
        userId: user.id,
        page: query.page,
        perPage: query.per_page,
        scope: catalogScope(query.scope),
      });
      return { status: 200, body: shelvesToWire(response, { lang, filterKeys: libraryFilterKeys(appBaseVersion) }) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/library/filter',
    tag: 'Library',
    summary: 'One shelf with full page meta',
    description:
      'Besides the paging keys, exactly one dynamic filter `{filter_name}={filter_value}` taken from a section, e.g. ' +
      '`section=latest_issues`, `section=continue_reading` or `section=<collection slug>`, or `search=<query>` (the filter of a ' +
      "search section: pages the store search, 8 per page, 204 when the tenant's storefront_search flag is off). A missing " +
      'filter, more than one, or another name is 422; an unknown section is 404.',
    auth: 'jwt',
    tenant: 'single',
    cachePerUser: true,
    // The dynamic filter: `section` (the only name catalog knows, documented) or any other key, kept as a string.
    query: z
      .object({
        ...paging,
        section: z.string().max(256).optional().meta({ description: 'The filter_value of a section with filter_name `section`', example: 'latest_issues' }),
        search: z.string().max(512).optional().meta({ description: 'The filter_value of a section with filter_name `search` (2-128 characters)' }),
      })
      .catchall(z.string().max(256)),
    responses: { 200: { description: 'The section with page meta', schema: PagedSection } },
    errors: { 404: 'Unknown section' },
    handler: async ({ query, user, tenant, lang, services, appBaseVersion }) => {
      const filter = dynamicFilterOf(query);
      // A search section's filter pages the store search itself (same query rules, same 204).
      if (filter.filterName === 'search') {
        const parsed = searchQuery.safeParse(filter.filterValue);
        if (!parsed.success) throw invalidArgument('The given data was invalid.', { search: ['The search must be 2 to 128 characters.'] });
        const found = await services.catalog.searchStore({
          tenantId: tenant.id,
          userId: user.id,
          query: parsed.data,
          page: query.page,
          scope: catalogScope(query.scope),
        });
        if (found.searchDisabled) return { status: 204 };
        return { status: 200, body: pagedSectionToWire(found.section, { lang, filterKeys: 'pair' }, 'SearchStore') };
      }
      const response = await services.catalog.filterLibrary({
        tenantId: tenant.id,
        userId: user.id,
        ...filter,
        page: query.page,
        perPage: query.per_page,
        scope: catalogScope(query.scope),
      });
      return { status: 200, body: pagedSectionToWire(response.section, { lang, filterKeys: libraryFilterKeys(appBaseVersion) }, 'FilterLibrary') };
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/library/{issue_id}/favorite-issues',
    tag: 'Library',
    summary: 'Whether the issue is a favorite',
    auth: 'jwt',
    tenant: 'single',
    params: issueIdParams,
    responses: { 200: { description: 'Favorite flag', schema: FavoriteState } },
    errors: { 404: 'The issue is not in this tenant' },
    handler: async ({ params, user, tenant, services }) => {
      const response = await services.catalog.getFavorite({ tenantId: tenant.id, userId: user.id, issueId: params.issue_id });
      return { status: 200, body: { is_favorite: response.isFavorite } };
    },
  }),
  route({
    method: 'post',
    path: '/api/v2/library/{issue_id}/favorite-issues',
    tag: 'Library',
    summary: 'Toggle the favorite flag',
    description: 'No body. Answers the flag after the toggle. Only in a store the user is a member of (403 otherwise).',
    auth: 'jwt',
    tenant: 'single',
    params: issueIdParams,
    responses: { 200: { description: 'The new flag', schema: FavoriteState } },
    errors: { 403: 'The user is not a member of this store', 404: 'The issue is not in this tenant' },
    handler: async ({ params, user, tenant, services }) => {
      // Membership is identity's (the user's tenants), as for the multi-tenant listings:
      // a favorite written in a foreign store would be data the user can never list.
      if (!(await tenantIdsOf(services, user.id)).includes(tenant.id)) throw permissionDenied('You are not a member of this store.');
      const response = await services.catalog.toggleFavorite({ tenantId: tenant.id, userId: user.id, issueId: params.issue_id });
      return { status: 200, body: { is_favorite: response.isFavorite } };
    },
  }),
];
