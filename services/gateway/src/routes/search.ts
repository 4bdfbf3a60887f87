// Store search (one tenant) and global search (every tenant of the user): answered by catalog.
import { writtenWithoutSpaces } from '@folio/text';
import { z } from 'zod';
import { route } from '../http/route.js';
import { pagedSectionToWire } from '../render/v2/catalog.js';
import { PagedSection, queryInt, scopeSchema } from './schemas.js';
import { tenantIdsOf } from './user.js';
import { catalogScope } from './requests.js';

const QUERY_MIN = 2;
const QUERY_MAX = 128;

/**
 * `query`: 2-128 characters counted as catalog counts them (code points after
 * NFC normalization and trimming), so a decomposed `Cro\u0301nicas` or an
 * emoji is not longer here than there; 1 is enough in Chinese, Japanese or
 * Thai, where one character can be a word (catalog's rule, @folio/text).
 * Sent to catalog as it came.
 */
export const searchQuery = z
  .string()
  .superRefine((value, context) => {
    const text = value.normalize('NFC').trim();
    const length = [...text].length;
    if (length < (writtenWithoutSpaces(text) ? 1 : QUERY_MIN))
      context.addIssue({ code: 'too_small', origin: 'string', minimum: QUERY_MIN, inclusive: true, input: value });
    if (length > QUERY_MAX) context.addIssue({ code: 'too_big', origin: 'string', maximum: QUERY_MAX, inclusive: true, input: value });
  })
  .meta({
    description:
      `${QUERY_MIN}-${QUERY_MAX} characters after NFC normalization and trimming (from 1 in Chinese, Japanese or Thai, where words ` +
      'are not separated by spaces and one character can be a word); case- and accent-insensitive',
    minLength: 1,
    maxLength: QUERY_MAX,
    example: 'cafe',
  });
const page = queryInt({ min: 1, max: 10_000, fallback: 1, description: 'Results page (8 per page)' });
const noContent = { 204: { description: 'The `storefront_search` feature is disabled for the tenant; no body' } };
const searchDescription =
  'Matches title, author, publisher, keywords and description; ranked by relevance, then recency. No match gives empty ' +
  '`data`, `from`/`to` null, `last_page` 1, `total` 0.';

export const searchRoutes = [
  route({
    method: 'get',
    path: '/api/v2/search/store',
    tag: 'Search',
    summary: "Search the tenant's publications",
    description: `${searchDescription} \`scope=all\`: the storefront, with the commerce fields. 204 when the tenant's \`storefront_search\` flag is off.`,
    auth: 'jwt',
    tenant: 'single',
    cachePerUser: true,
    query: z.object({ query: searchQuery, page, scope: scopeSchema.default('owned') }),
    responses: { 200: { description: 'Section `search` with page meta (per_page 8)', schema: PagedSection }, ...noContent },
    handler: async ({ query, user, tenant, lang, services }) => {
      const response = await services.catalog.searchStore({
        tenantId: tenant.id,
        userId: user.id,
        query: query.query,
        page: query.page,
        scope: catalogScope(query.scope),
      });
      if (response.searchDisabled) return { status: 204 };
      return { status: 200, body: pagedSectionToWire(response.section, { lang, filterKeys: 'pair' }, 'SearchStore') };
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/search/global',
    tag: 'Search',
    summary: "Search the publications of all the user's tenants",
    description:
      `${searchDescription} What the user can read in each of their tenants, in one ranking; items carry \`tenant_id\`, never ` +
      "commerce fields; `scope` is ignored. 204 when the app tenant's (X-CustomApp-Tenant-Id, default 1) `storefront_search` flag is off.",
    auth: 'jwt',
    tenant: 'multi',
    cachePerUser: true,
    uses: ['app-tenant'],
    query: z.object({ query: searchQuery, page }),
    responses: { 200: { description: 'Section `search` with page meta (per_page 8)', schema: PagedSection }, ...noContent },
    errors: { 404: 'No tenant has the id given in X-CustomApp-Tenant-Id' },
    handler: async ({ query, user, lang, appTenantId, services }) => {
      const response = await services.catalog.searchGlobal({
        tenantIds: await tenantIdsOf(services, user.id),
        userId: user.id,
        query: query.query,
        page: query.page,
        appTenantId,
      });
      if (response.searchDisabled) return { status: 204 };
      return { status: 200, body: pagedSectionToWire(response.section, { lang, filterKeys: 'pair' }, 'SearchGlobal') };
    },
  }),
];
