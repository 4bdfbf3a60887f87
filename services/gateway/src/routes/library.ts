// Library shelves, shelf filter and favorites of one tenant.
import { z } from 'zod';
import { later, route } from '../http/route.js';
import { issueIdParams, PageMeta, queryInt, scopeSchema, Section } from './schemas.js';

const CATALOG = 'the catalog and storefront release';
const paging = {
  page: queryInt({ min: 1, max: 10_000, fallback: 1, description: 'Shelves page' }),
  per_page: queryInt({ min: 1, max: 100, fallback: 8, description: 'Items per shelf' }),
  scope: scopeSchema.default('owned'),
};
const favorite = z.object({ is_favorite: z.boolean() });

export const libraryRoutes = [
  route({
    method: 'get',
    path: '/api/v2/library',
    tag: 'Library',
    summary: 'Shelves of the tenant: continue reading, latest issues, taxonomy sections',
    description: 'X-AppBase-Version >= 1.28.0 receives `filter_params` instead of `filter_name`/`filter_value`.',
    auth: 'jwt',
    tenant: 'single',
    query: z.object(paging),
    responses: { 200: { description: 'Shelves', schema: z.object({ meta: PageMeta, data: z.array(Section) }) } },
    handler: later('the library', CATALOG),
  }),
  route({
    method: 'get',
    path: '/api/v2/library/filter',
    tag: 'Library',
    summary: 'One shelf with full page meta',
    description: 'Besides the paging keys, one dynamic filter `{filter_name}={filter_value}` taken from a section, e.g. `section=continue_reading`.',
    auth: 'jwt',
    tenant: 'single',
    // Unknown keys are the dynamic filter: kept, as strings.
    query: z.object(paging).catchall(z.string().max(256)),
    responses: { 200: { description: 'Section', schema: Section } },
    handler: later('the library filter', CATALOG),
  }),
  route({
    method: 'get',
    path: '/api/v2/library/{issue_id}/favorite-issues',
    tag: 'Library',
    summary: 'Whether the issue is a favorite',
    auth: 'jwt',
    tenant: 'single',
    params: issueIdParams,
    responses: { 200: { description: 'Favorite flag', schema: favorite } },
    handler: later('favorites', CATALOG),
  }),
  route({
    method: 'post',
    path: '/api/v2/library/{issue_id}/favorite-issues',
    tag: 'Library',
    summary: 'Toggle the favorite flag',
    auth: 'jwt',
    tenant: 'single',
    params: issueIdParams,
    responses: { 200: { description: 'The new flag', schema: favorite } },
    handler: later('favorites', CATALOG),
  }),
];
