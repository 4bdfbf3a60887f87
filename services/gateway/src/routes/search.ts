// Store search (one tenant) and global search (every tenant of the user).
import { z } from 'zod';
import { later, route } from '../http/route.js';
import { scopeSchema, Section } from './schemas.js';

const CATALOG = 'the catalog and storefront release';
const query = z.string().min(2).max(128).meta({ description: 'NFC-normalized' });
const noContent = { 204: { description: 'The `storefront_search` feature is disabled for the tenant' } };

export const searchRoutes = [
  route({
    method: 'get',
    path: '/api/v2/search/store',
    tag: 'Search',
    summary: "Search the tenant's publications",
    auth: 'jwt',
    tenant: 'single',
    query: z.object({ query, scope: scopeSchema.default('owned') }),
    responses: { 200: { description: 'Section `search` with page meta (per_page 8)', schema: Section }, ...noContent },
    handler: later('store search', CATALOG),
  }),
  route({
    method: 'get',
    path: '/api/v2/search/global',
    tag: 'Search',
    summary: "Search the publications of all the user's tenants",
    description: 'Items carry `tenant_id`; never commerce fields; `scope` is ignored.',
    auth: 'jwt',
    tenant: 'multi',
    query: z.object({ query }),
    responses: { 200: { description: 'Section `search`', schema: Section }, ...noContent },
    handler: later('global search', CATALOG),
  }),
];
