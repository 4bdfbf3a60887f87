// The publisher API's issues (single-tenant, staff or API key): create a
// draft, edit it, and put it on sale. Catalog owns the issue and its state;
// publishing also needs reader (the file must be ready) and commerce (an
// offer, switched on sale), so the gateway orders the steps: on publish
// commerce first (an issue on sale but not yet listed harms nobody), on
// withdraw catalog first (unlisted before it stops being sold). Shapes are
// checked here; the catalog's rules (collections that exist, ISBN checksums,
// an external id unique in the store) come back as its field errors.
import { conflict, notFound } from '@folio/errors';
import { catalog, reader } from '@folio/proto';
import { z } from 'zod';
import { route, type RouteContext } from '../../http/route.js';
import { isDomainError } from '../../peers/breaker.js';
import { issueIdParams, queryInt } from '../schemas.js';
import { audit, PUBLISHER_TAG } from './common.js';

const STATES = {
  draft: catalog.IssueState.ISSUE_STATE_DRAFT,
  published: catalog.IssueState.ISSUE_STATE_PUBLISHED,
  withdrawn: catalog.IssueState.ISSUE_STATE_WITHDRAWN,
} as const;
type StateName = keyof typeof STATES;

const stateName = (state: catalog.IssueState): StateName | 'unknown' =>
  (Object.keys(STATES) as StateName[]).find((name) => STATES[name] === state) ?? 'unknown';

const text = (max: number, description: string) => z.string().trim().max(max).meta({ description });

export const Accessibility = z
  .object({
    conforms_to: z.array(z.string()).meta({ description: '`dcterms:conformsTo`: the accessibility standards met' }),
    access_modes: z.array(z.string()).meta({ description: '`schema:accessMode`: `textual`, `visual`, `auditory`, ...' }),
    access_modes_sufficient: z.array(z.string()).meta({ description: '`schema:accessModeSufficient`: comma-separated sets' }),
    features: z.array(z.string()).meta({ description: '`schema:accessibilityFeature`' }),
    hazards: z.array(z.string()).meta({ description: '`schema:accessibilityHazard`' }),
    summary: z.string().nullable().meta({ description: '`schema:accessibilitySummary`' }),
    certified_by: z.string().nullable().meta({ description: '`a11y:certifiedBy`' }),
  })
  .meta({ id: 'Accessibility', description: 'What the file declares of its accessibility (EPUB Accessibility 1.1 terms)' });

export const PublisherIssue = z
  .object({
    id: z.number().int(),
    tenant_id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    type: z.enum(['epub', 'pdf', 'audio']),
    author: z.string().meta({ description: 'The first of `authors`: what the store lists' }),
    authors: z.array(z.string()),
    publisher: z.string(),
    lang: z.string(),
    description: z.string(),
    bisac: z.string(),
    external_id: z.string(),
    isbn: z.string().nullable().meta({ description: 'ISBN-13 digits' }),
    published_at: z.string().meta({ description: 'ISO 8601 UTC' }),
    collections: z.array(z.string()).meta({ description: "Slugs of the store's collections" }),
    state: z.enum(['draft', 'published', 'withdrawn']),
    first_published_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    number_of_pages: z.number().int().nullable().meta({ description: 'PDF pages, once the file is ingested' }),
    accessibility: Accessibility.nullable(),
  })
  .meta({ id: 'PublisherIssue' });

const issueToWire = (issue: catalog.PublisherIssue | undefined): z.infer<typeof PublisherIssue> => {
  if (!issue) throw new Error('catalog answered without the issue');
  const a11y = issue.accessibility;
  return {
    id: issue.id,
    tenant_id: issue.tenantId,
    name: issue.name,
    slug: issue.slug,
    type: issue.type as 'epub' | 'pdf' | 'audio',
    author: issue.authors[0] ?? '',
    authors: issue.authors,
    publisher: issue.publisher,
    lang: issue.lang,
    description: issue.description,
    bisac: issue.bisac,
    external_id: issue.externalId,
    isbn: issue.isbn ?? null,
    published_at: issue.publishedAt,
    collections: issue.collections,
    state: stateName(issue.state) as 'draft' | 'published' | 'withdrawn',
    first_published_at: issue.firstPublishedAt ?? null,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    number_of_pages: issue.numberOfPages ?? null,
    accessibility: accessibilityToWire(a11y),
  };
};

/** Catalog's Accessibility and reader's ContentAccessibility alike (the same fields), as the wire's snake_case. */
export function accessibilityToWire(
  a11y: (Omit<catalog.Accessibility, 'summary' | 'certifiedBy'> & { summary?: string; certifiedBy?: string }) | undefined,
): z.infer<typeof Accessibility> | null {
  if (!a11y) return null;
  return {
    conforms_to: a11y.conformsTo,
    access_modes: a11y.accessModes,
    access_modes_sufficient: a11y.accessModesSufficient,
    features: a11y.features,
    hazards: a11y.hazards,
    summary: a11y.summary ?? null,
    certified_by: a11y.certifiedBy ?? null,
  };
}

const issueFields = {
  name: text(300, 'Title').min(1, 'The name field is required.'),
  type: z.enum(['epub', 'pdf', 'audio']).meta({ description: 'What the file will be: fixed once created' }),
  authors: z.array(text(200, 'A creator').min(1)).max(50).meta({ description: 'Creators in order; the first is listed as `author`' }),
  publisher: text(200, 'Publisher (imprint)'),
  lang: text(35, 'BCP 47 language tag, e.g. `en`, `pt-BR`'),
  description: text(10_000, 'Description shown in the store'),
  bisac: text(200, 'BISAC subject'),
  external_id: text(100, "The publisher's own id (unique in the store)"),
  isbn: text(17, 'ISBN-10 or ISBN-13, hyphens allowed'),
  published_at: z.iso.datetime({ offset: true }).or(z.iso.date()).meta({ description: 'ISO 8601 date or date-time' }),
  collections: z.array(z.string().min(1).max(100)).max(50).meta({ description: "Slugs of the store's collections" }),
};

const CreateIssueBody = z
  .object({
    ...issueFields,
    authors: issueFields.authors.optional(),
    publisher: issueFields.publisher.optional(),
    lang: issueFields.lang.optional(),
    description: issueFields.description.optional(),
    bisac: issueFields.bisac.optional(),
    external_id: issueFields.external_id.optional(),
    isbn: issueFields.isbn.optional(),
    published_at: issueFields.published_at.optional(),
    collections: issueFields.collections.optional(),
  })
  .strict()
  .meta({ id: 'CreateIssue' });

const { type: _fixedType, ...editable } = issueFields;
const UpdateIssueBody = z
  .object(
    Object.fromEntries(Object.entries(editable).map(([key, schema]) => [key, schema.optional()])) as {
      [K in keyof typeof editable]: z.ZodOptional<(typeof editable)[K]>;
    },
  )
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'Send at least one field to change.')
  .meta({ id: 'UpdateIssue' });

type IssueBody = Partial<z.infer<typeof CreateIssueBody>>;

function fieldsOf(body: IssueBody): catalog.IssueFields {
  return {
    name: body.name,
    type: body.type,
    authors: body.authors ? { values: body.authors } : undefined,
    publisher: body.publisher,
    lang: body.lang,
    description: body.description,
    bisac: body.bisac,
    externalId: body.external_id,
    isbn: body.isbn,
    publishedAt: body.published_at,
    collections: body.collections ? { values: body.collections } : undefined,
  };
}

const IssuePage = z
  .object({
    data: z.array(PublisherIssue),
    meta: z.object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() }),
  })
  .meta({ id: 'PublisherIssuePage' });

const publisher = { tag: PUBLISHER_TAG, auth: 'publisher', tenant: 'single' } as const;
const NOT_FOUND = 'No such issue in this store';

type Ctx = Pick<RouteContext<unknown, unknown, unknown>, 'services' | 'tenant'>;

/** Reader's word on the issue's file: publishing needs one that is ready. */
async function assertContentReady(ctx: Ctx, issueId: number): Promise<void> {
  let status;
  try {
    status = (await ctx.services.reader.getContentStatus({ tenantId: ctx.tenant.id, issueId })).status;
  } catch (error) {
    if (isDomainError(error) && error.code === 'NOT_FOUND') throw conflict('Upload the file first: PUT /api/v2/publisher/issues/{id}/content.');
    throw error;
  }
  // A live version is enough: a newer upload still in ingest replaces it when it is ready.
  if (!status?.liveContentHash && status?.state !== reader.ContentState.CONTENT_STATE_READY) {
    throw conflict('The file is not ready yet: GET /api/v2/publisher/issues/{id}/content says how its ingest goes.');
  }
}

async function assertOffer(ctx: Ctx, issueId: number): Promise<void> {
  const { offer } = await ctx.services.commerce.getOffer({ tenantId: ctx.tenant.id, issueId });
  if (!offer) throw conflict('Set how it is sold first: PUT /api/v2/publisher/issues/{id}/offer.');
}

export const publisherIssueRoutes = [
  route({
    ...publisher,
    method: 'post',
    path: '/api/v2/publisher/issues',
    summary: 'Create an issue (a draft: nothing shows it until it is published)',
    body: CreateIssueBody,
    responses: { 201: { description: 'The new draft, with its id', schema: PublisherIssue } },
    errors: { 409: 'The store already has an issue with this external_id' },
    handler: async (ctx) => {
      const { issue } = await ctx.services.catalog.createIssue({ tenantId: ctx.tenant.id, fields: fieldsOf(ctx.body) });
      const wire = issueToWire(issue);
      await audit(ctx, 'issue.create', `issue:${wire.id}`, ctx.body);
      return { status: 201, body: wire };
    },
  }),
  route({
    ...publisher,
    method: 'get',
    path: '/api/v2/publisher/issues',
    summary: "The store's issues in every state, newest first",
    query: z.object({
      state: z.enum(['draft', 'published', 'withdrawn']).optional().meta({ description: 'Only issues in this state' }),
      page: queryInt({ min: 1, max: 100_000, fallback: 1 }),
      per_page: queryInt({ min: 1, max: 100, fallback: 20 }),
    }),
    responses: { 200: { description: 'One page of issues', schema: IssuePage } },
    handler: async ({ query, tenant, services }) => {
      const listed = await services.catalog.listPublisherIssues({
        tenantId: tenant.id,
        state: query.state ? STATES[query.state] : catalog.IssueState.ISSUE_STATE_UNSPECIFIED,
        page: query.page,
        perPage: query.per_page,
      });
      return {
        status: 200,
        body: {
          data: listed.issues.map(issueToWire),
          meta: { current_page: query.page, per_page: query.per_page, total: listed.total, last_page: Math.max(1, Math.ceil(listed.total / query.per_page)) },
        },
      };
    },
  }),
  route({
    ...publisher,
    method: 'get',
    path: '/api/v2/publisher/issues/{issue_id}',
    summary: 'One issue of the store, in any state',
    params: issueIdParams,
    responses: { 200: { description: 'The issue', schema: PublisherIssue } },
    errors: { 404: NOT_FOUND },
    handler: async ({ params, tenant, services }) => {
      const { issue } = await services.catalog.getPublisherIssue({ tenantId: tenant.id, issueId: params.issue_id });
      return { status: 200, body: issueToWire(issue) };
    },
  }),
  route({
    ...publisher,
    method: 'patch',
    path: '/api/v2/publisher/issues/{issue_id}',
    summary: 'Change the fields sent; the others stay',
    description: 'A published issue shows the change in the store within the catalog visibility bound (docs/publishing.md).',
    params: issueIdParams,
    body: UpdateIssueBody,
    responses: { 200: { description: 'The issue as changed', schema: PublisherIssue } },
    errors: { 404: NOT_FOUND, 409: 'The store already has an issue with this external_id' },
    handler: async (ctx) => {
      const { issue } = await ctx.services.catalog.updateIssue({ tenantId: ctx.tenant.id, issueId: ctx.params.issue_id, fields: fieldsOf(ctx.body) });
      await audit(ctx, 'issue.update', `issue:${ctx.params.issue_id}`, ctx.body);
      return { status: 200, body: issueToWire(issue) };
    },
  }),
  route({
    ...publisher,
    method: 'delete',
    path: '/api/v2/publisher/issues/{issue_id}',
    summary: 'Delete a draft that was never published (a published issue can only be withdrawn)',
    params: issueIdParams,
    responses: { 204: { description: 'Deleted; empty body' } },
    errors: { 404: NOT_FOUND, 409: 'The issue was published once: withdraw it instead' },
    handler: async (ctx) => {
      try {
        await ctx.services.catalog.deleteIssue({ tenantId: ctx.tenant.id, issueId: ctx.params.issue_id });
      } catch (error) {
        if (isDomainError(error) && error.code === 'FAILED_PRECONDITION') throw conflict(error.message);
        throw error;
      }
      await audit(ctx, 'issue.delete', `issue:${ctx.params.issue_id}`);
      return { status: 204 };
    },
  }),
  route({
    ...publisher,
    method: 'post',
    path: '/api/v2/publisher/issues/{issue_id}/publish',
    summary: 'Put the issue on sale: listed in the library, store and global search, OPDS and its collections',
    description: 'Needs a ready file (PUT …/content) and an offer (PUT …/offer). Idempotent. Every replica lists it within the bound of docs/publishing.md.',
    params: issueIdParams,
    responses: { 200: { description: 'The issue, published', schema: PublisherIssue } },
    errors: { 404: NOT_FOUND, 409: 'No ready file or no offer yet' },
    handler: async (ctx) => {
      const issueId = ctx.params.issue_id;
      const tenantId = ctx.tenant.id;
      await ctx.services.catalog.getPublisherIssue({ tenantId, issueId });
      await assertContentReady(ctx, issueId);
      await assertOffer(ctx, issueId);
      await ctx.services.commerce.setOfferOnSale({ tenantId, issueId, onSale: true });
      const { issue, changed } = await ctx.services.catalog.setIssueState({ tenantId, issueId, state: catalog.IssueState.ISSUE_STATE_PUBLISHED });
      if (changed) await audit(ctx, 'issue.publish', `issue:${issueId}`);
      return { status: 200, body: issueToWire(issue) };
    },
  }),
  route({
    ...publisher,
    method: 'post',
    path: '/api/v2/publisher/issues/{issue_id}/withdraw',
    summary: 'Take the issue off sale: it leaves every listing; everyone who has it keeps reading it',
    description: 'Shelves, downloads, reader sessions and notes of those with access stay. Idempotent.',
    params: issueIdParams,
    responses: { 200: { description: 'The issue, withdrawn', schema: PublisherIssue } },
    errors: { 404: NOT_FOUND, 409: 'A draft was never published: delete it instead' },
    handler: async (ctx) => {
      const issueId = ctx.params.issue_id;
      const tenantId = ctx.tenant.id;
      const { issue: current } = await ctx.services.catalog.getPublisherIssue({ tenantId, issueId });
      if (current?.state === catalog.IssueState.ISSUE_STATE_DRAFT)
        throw conflict('A draft is not on sale: delete it instead (DELETE /api/v2/publisher/issues/{id}).');
      const { issue, changed } = await ctx.services.catalog.setIssueState({ tenantId, issueId, state: catalog.IssueState.ISSUE_STATE_WITHDRAWN });
      await ctx.services.commerce.setOfferOnSale({ tenantId, issueId, onSale: false });
      if (changed) await audit(ctx, 'issue.withdraw', `issue:${issueId}`);
      return { status: 200, body: issueToWire(issue) };
    },
  }),
];

/** For the other publisher routes: the issue of the store, or the publisher's 404. */
export async function publisherIssueOf(ctx: Ctx, issueId: number): Promise<catalog.PublisherIssue> {
  try {
    const { issue } = await ctx.services.catalog.getPublisherIssue({ tenantId: ctx.tenant.id, issueId });
    if (!issue) throw notFound(NOT_FOUND);
    return issue;
  } catch (error) {
    if (isDomainError(error) && error.code === 'NOT_FOUND') throw notFound(NOT_FOUND);
    throw error;
  }
}
