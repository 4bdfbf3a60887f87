// Tenant discovery: stores the user could join.
import { z } from 'zod';
import { route } from '../http/route.js';
import { CursorMeta, queryInt, TenantObject } from './schemas.js';
import { tenantToWire } from '../render/identity.js';

export const tenantRoutes = [
  route({
    method: 'get',
    path: '/api/v2/tenants',
    tag: 'Tenants',
    summary: 'Tenants the user has no account in and that have an active plan',
    description:
      'Ordered by number of users, descending. With X-CustomApp-Tenant-Id other than 1 the list is restricted to that tenant and ' +
      'the tenants it aggregates. Pass `meta.next_cursor` back as `cursor` with the same filters.',
    auth: 'jwt',
    tenant: 'multi',
    uses: ['app-tenant'],
    query: z.object({
      country_code: z.string().length(2).optional().meta({ description: 'Sign-up country, ISO 3166-1 alpha-2' }),
      query: z.string().min(2).max(128).optional().meta({ description: 'Case-insensitive substring of the name' }),
      per_page: queryInt({ min: 1, max: 100, fallback: 20 }),
      cursor: z.string().min(1).max(512).optional(),
    }),
    responses: {
      200: { description: 'A page of tenants', schema: z.object({ data: z.array(TenantObject), meta: CursorMeta }) },
    },
    handler: async ({ query, user, appTenantId, services }) => {
      const response = await services.identity.listDiscoverableTenants({
        userId: user.id,
        countryCode: query.country_code,
        query: query.query,
        perPage: query.per_page,
        cursor: query.cursor,
        appTenantId,
      });
      return {
        status: 200,
        body: {
          data: response.tenants.map(tenantToWire),
          meta: {
            per_page: response.meta?.perPage ?? query.per_page,
            next_cursor: response.meta?.nextCursor ?? null,
            prev_cursor: response.meta?.prevCursor ?? null,
          },
        },
      };
    },
  }),
];
