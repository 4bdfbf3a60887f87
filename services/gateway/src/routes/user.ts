// The user's profile, cross-tenant shelves and annotation export (multi-tenant endpoints).
import { z } from 'zod';
import { DomainError } from '@folio/errors';
import { RATE_RULES } from '../http/rate-limit.js';
import { route, type Services } from '../http/route.js';
import { myContentToWire, pagedSectionToWire } from '../render/v2/catalog.js';
import { EXPORT_FORMATS, loadExport, MARKDOWN_CONTENT_TYPE, toMarkdown, toW3c, W3C_CONTENT_TYPE, W3cAnnotationCollection } from './annotation-export.js';
import { CursorSection, PagedSection, queryInt, UserObject } from './schemas.js';
import { userToWire } from '../render/identity.js';

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
    cachePerUser: true,
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
    cachePerUser: true,
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
      });
      return { status: 200, body: pagedSectionToWire(response.section, { lang, filterKeys: 'pair' }, 'ListContinueReading') };
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
    cachePerUser: true,
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
      });
      return { status: 200, body: myContentToWire(response, lang) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/user/annotations/export',
    tag: 'User',
    summary: 'Export every note of the user, across stores and issues',
    description:
      '`format=w3c`: a W3C Web Annotation collection (JSON-LD, `' +
      W3C_CONTENT_TYPE +
      '`): one Annotation per note, its target a TextQuoteSelector with the highlighted text plus an EPUB CFI ' +
      '(FragmentSelector conforming to EPUB CFI) or a PDF page (RFC 3778 `page=N`), the comment as a TextualBody, created and modified. ' +
      '`format=markdown`: Markdown grouped by store and issue. The highlighted text is plain text only in this export. ' +
      `At most ${RATE_RULES.annotationExport.limit} exports per minute per IP.`,
    auth: 'jwt',
    tenant: 'multi',
    rateLimit: RATE_RULES.annotationExport,
    query: z.object({ format: z.enum(EXPORT_FORMATS).meta({ description: '`w3c` (JSON-LD) or `markdown`' }) }),
    responses: {
      200: {
        description: 'The export: JSON-LD for `w3c` (profile `http://www.w3.org/ns/anno.jsonld`), Markdown (UTF-8) for `markdown`',
        content: { 'application/ld+json': W3cAnnotationCollection, 'text/markdown': z.string() },
        headers: { 'Content-Disposition': { description: 'attachment; filename="annotations.jsonld" or "annotations.md"', schema: { type: 'string' } } },
      },
    },
    handler: async ({ query, user, services }) => {
      const { notes, context } = await loadExport(services, user.id);
      const w3c = query.format === 'w3c';
      const data = w3c ? JSON.stringify(toW3c(notes, context, user.email), null, 2) : toMarkdown(notes, context, user.email);
      return {
        status: 200,
        binary: { contentType: w3c ? W3C_CONTENT_TYPE : MARKDOWN_CONTENT_TYPE, data: Buffer.from(data, 'utf8') },
        headers: {
          'Content-Disposition': `attachment; filename="annotations.${w3c ? 'jsonld' : 'md'}"`,
          'Cache-Control': 'no-store',
        },
      };
    },
  }),
];
