// The user's profile and cross-tenant shelves (multi-tenant endpoints).
import { z } from 'zod';
import { DomainError } from '@folio/errors';
import { later, route } from '../http/route.js';
import { CursorSection, queryInt, Section, UserObject } from './schemas.js';
import { userToWire } from './wire.js';

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
    auth: 'jwt',
    tenant: 'multi',
    query: z.object({ per_page: queryInt({ min: 1, max: 100, fallback: 6 }) }),
    responses: { 200: { description: 'Section `continue_reading` with page meta', schema: Section } },
    handler: later('continue reading', 'the catalog and reader releases'),
  }),
  route({
    method: 'get',
    path: '/api/v2/user/my-content',
    tag: 'User',
    summary: 'Every publication the user can read, across tenants',
    description: 'Excludes physical and revoked items; never has commerce fields; `scope` is ignored.',
    auth: 'jwt',
    tenant: 'multi',
    query: z.object({
      per_page: queryInt({ min: 1, max: 100, fallback: 6 }),
      cursor: z.string().max(512).optional(),
    }),
    responses: { 200: { description: 'Section `my_content` with cursor meta', schema: CursorSection } },
    handler: later('my content', 'the catalog and commerce releases'),
  }),
];
