// The user's profile and cross-tenant shelves (multi-tenant endpoints).
import { z } from 'zod';
import { DomainError } from '@folio/errors';
import { route, type Services } from '../http/route.js';
import { CursorSection, PagedSection, queryInt, UserObject } from './schemas.js';
import { myContentToWire, pagedSectionToWire, userToWire } from './wire.js';

/** The ids of the user's tenants (identity's memberships): the scope of the multi-tenant listings. */
export async function tenantIdsOf(services: Pick<Services, 'identity'>, userId: number): Promise<number[]> {
  const response = await services.identity.getUser({ userId });
  if (!response.user) throw new DomainError('INTERNAL', 'identity answered without a user');
  return response.user.tenants.map((tenant) => tenant.id);
}

export const userRoutes = [
  route({
    method: 'get',
    path: '/api/v2/user',
    tag: 'User',
    summary: 'The user with the tenants they belong to',
    auth: 'jwt',
    tenant: 'multi',
    responses: { 200: { description: 'User', schema: UserObject } },
    handler: async ({ user, services }) => {
      const response = await services.identity.getUser({ userId: user.id });
      if (!response.user) throw new DomainError('INTERNAL', 'identity answered without a user');
      return { status: 200, body: userToWire(response.user) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/user/continue-reading',
    tag: 'User',
    summary: 'Issues with a saved reading position, most recently read first, across tenants',
    description: 'Only issues with a saved reading position (PUT /api/v2/reader/{issue_id}/last-location) in the tenants the user belongs to.',
    auth: 'jwt',
    tenant: 'multi',
    query: z.object({
      page: queryInt({ min: 1, max: 10_000, fallback: 1 }),
      per_page: queryInt({ min: 1, max: 100, fallback: 6 }),
    }),
    responses: { 200: { description: 'Section `continue_reading` with page meta', schema: PagedSection } },
    handler: async ({ query, user, lang, services }) => {
      const response = await services.catalog.listContinueReading({
        tenantIds: await tenantIdsOf(services, user.id),
        userId: user.id,
        page: query.page,
        perPage: query.per_page,
        lang,
      });
      return { status: 200, body: pagedSectionToWire(response.section, 'ListContinueReading') };
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/user/my-content',
    tag: 'User',
    summary: 'Every publication the user can read, across tenants',
    description:
      'Including never-opened ones; excludes physical and revoked items; never has commerce fields; `scope` is ignored. ' +
      'Newest first. Pass `meta.next_cursor` / `meta.prev_cursor` back as `cursor`; a cursor that was not issued to this user is 422.',
    auth: 'jwt',
    tenant: 'multi',
    query: z.object({
      per_page: queryInt({ min: 1, max: 100, fallback: 6 }),
      cursor: z.string().max(512).optional().meta({ description: 'Opaque: meta.next_cursor or meta.prev_cursor of an earlier page' }),
    }),
    responses: { 200: { description: 'Section `my_content` with cursor meta', schema: CursorSection } },
    handler: async ({ query, user, lang, services }) => {
      const response = await services.catalog.listMyContent({
        tenantIds: await tenantIdsOf(services, user.id),
        userId: user.id,
        perPage: query.per_page,
        cursor: query.cursor ?? '',
        lang,
      });
      return { status: 200, body: myContentToWire(response) };
    },
  }),
];
