// The publisher API's staff, API keys and audit log (owners only, by their
// own access token: an API key acts as an editor and may not make keys or
// read the log). Identity keeps all three; an API key is in the 201 answer
// that made it and nowhere else.
import { identity } from '@folio/proto';
import { z } from 'zod';
import { route } from '../../http/route.js';
import { deliverableEmail, queryInt } from '../schemas.js';
import { audit, PUBLISHER_TAG, requireOwner } from './common.js';

const ROLE_NAMES: Partial<Record<identity.StaffRole, 'editor' | 'owner'>> = {
  [identity.StaffRole.STAFF_ROLE_EDITOR]: 'editor',
  [identity.StaffRole.STAFF_ROLE_OWNER]: 'owner',
};
const ROLES = { editor: identity.StaffRole.STAFF_ROLE_EDITOR, owner: identity.StaffRole.STAFF_ROLE_OWNER, none: identity.StaffRole.STAFF_ROLE_UNSPECIFIED };

const roleName = (role: identity.StaffRole) => ROLE_NAMES[role] ?? null;

export const PublisherApiKey = z
  .object({
    id: z.string().meta({ description: 'Opaque id (for DELETE)' }),
    name: z.string(),
    prefix: z.string().meta({ description: 'The first 8 characters of the key (`fpk_` and 4 more), to recognise it' }),
    role: z.enum(['editor']).meta({ description: 'What the key may do: an editor creates, uploads, prices, publishes and withdraws issues' }),
    created_at: z.string().meta({ description: 'ISO 8601 UTC' }),
    created_by_user_id: z.number().int().nullable().meta({ description: 'The owner who made it (the key belongs to the store and outlives his account)' }),
    last_used_at: z.string().nullable().meta({ description: 'ISO 8601 UTC of the last use (updated at most once a minute); null when never used' }),
    revoked_at: z.string().nullable().meta({ description: 'ISO 8601 UTC; a revoked key is refused with 401' }),
  })
  .meta({ id: 'PublisherApiKey' });

const CreatedPublisherApiKey = PublisherApiKey.extend({
  key: z.string().meta({ description: 'The key: shown only in this answer (stored hashed). Send it as `Authorization: Bearer <key>` with X-Svc-Tenant-Id' }),
}).meta({ id: 'CreatedPublisherApiKey' });

const StaffMember = z
  .object({
    user_id: z.number().int(),
    email: z.string(),
    role: z.enum(['editor', 'owner']).nullable().meta({ description: 'Null once the role was taken away' }),
  })
  .meta({ id: 'StaffMember' });

const AuditEntry = z
  .object({
    id: z.string(),
    at: z.string().meta({ description: 'ISO 8601 UTC' }),
    actor: z.string().meta({ description: '`user:<id>` or `api-key:<id>`' }),
    action: z.string().meta({
      description:
        '`issue.create`, `issue.update`, `issue.delete`, `issue.publish`, `issue.withdraw`, `content.upload`, `offer.put`, `grant.create`, `api-key.create`, `api-key.revoke`, `staff.set`',
    }),
    target: z.string().meta({ description: '`issue:<id>`, `api-key:<id>`, `user:<id>`' }),
    details: z.record(z.string(), z.unknown()).meta({ description: 'What changed: field names to new values' }),
    request_id: z.string().meta({ description: 'The X-Request-Id of the change' }),
  })
  .meta({ id: 'AuditEntry' });

const AuditLogPage = z
  .object({
    data: z.array(AuditEntry),
    meta: z.object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() }),
  })
  .meta({ id: 'AuditLogPage' });

const apiKeyToWire = (key: identity.PublisherApiKey | undefined): z.infer<typeof PublisherApiKey> => {
  if (!key) throw new Error('identity answered without the API key');
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    role: 'editor',
    created_at: key.createdAt,
    created_by_user_id: key.createdByUserId ?? null,
    last_used_at: key.lastUsedAt ?? null,
    revoked_at: key.revokedAt ?? null,
  };
};

const memberToWire = (member: identity.StaffMember | undefined): z.infer<typeof StaffMember> => {
  if (!member) throw new Error('identity answered without the staff member');
  return { user_id: member.userId, email: member.email, role: roleName(member.role) };
};

/** Identity checked it is a JSON object when it was recorded; anything else reads as empty rather than failing the page. */
function detailsOf(detailsJson: string): Record<string, unknown> {
  try {
    const details: unknown = JSON.parse(detailsJson || '{}');
    return typeof details === 'object' && details !== null && !Array.isArray(details) ? (details as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const entryToWire = (entry: identity.AuditEntry): z.infer<typeof AuditEntry> => ({
  id: entry.id,
  at: entry.at,
  actor: entry.actor,
  action: entry.action,
  target: entry.target,
  details: detailsOf(entry.detailsJson),
  request_id: entry.requestId,
});

const publisher = { tag: PUBLISHER_TAG, auth: 'publisher', tenant: 'single' } as const;
const OWNERS_ONLY = 'Owners only, by their own access token (an API key or an editor is 403).';

export const publisherStaffRoutes = [
  route({
    ...publisher,
    method: 'post',
    path: '/api/v2/publisher/api-keys',
    summary: 'Create an API key for a machine client of this store',
    description: `The key is in this answer only (stored hashed); it acts as an editor of this store and no other. ${OWNERS_ONLY} At most 100 live keys.`,
    body: z.object({
      name: z.string().trim().min(1, 'The name field is required.').max(100, 'The name may not be greater than 100 characters.').meta({
        description: 'What the key is for, e.g. "CMS export"',
      }),
    }),
    responses: { 201: { description: 'The new key, with the key itself', schema: CreatedPublisherApiKey } },
    errors: { 409: 'The store already has 100 live API keys' },
    handler: async (ctx) => {
      requireOwner(ctx);
      const created = await ctx.services.identity.createPublisherApiKey({
        tenantId: ctx.tenant.id,
        name: ctx.body.name,
        createdByUserId: ctx.staff.userId ?? 0,
      });
      const wire = apiKeyToWire(created.apiKey);
      await audit(ctx, 'api-key.create', `api-key:${wire.id}`, { name: wire.name });
      return { status: 201, body: { ...wire, key: created.key } };
    },
  }),
  route({
    ...publisher,
    method: 'get',
    path: '/api/v2/publisher/api-keys',
    summary: "The store's API keys, newest first, revoked ones included (without the keys)",
    description: OWNERS_ONLY,
    responses: { 200: { description: 'API keys', schema: z.object({ data: z.array(PublisherApiKey) }).meta({ id: 'PublisherApiKeyList' }) } },
    handler: async (ctx) => {
      requireOwner(ctx);
      const listed = await ctx.services.identity.listPublisherApiKeys({ tenantId: ctx.tenant.id });
      return { status: 200, body: { data: listed.apiKeys.map(apiKeyToWire) } };
    },
  }),
  route({
    ...publisher,
    method: 'delete',
    path: '/api/v2/publisher/api-keys/{key_id}',
    summary: 'Revoke an API key: it is refused (401) from the next request on',
    description: `Idempotent: revoking a revoked key is 204 again. ${OWNERS_ONLY}`,
    params: z.object({ key_id: z.string().trim().min(1).max(64).meta({ description: 'The `id` of the key' }) }),
    responses: { 204: { description: 'Revoked; empty body' } },
    errors: { 404: 'No such API key in this store' },
    handler: async (ctx) => {
      requireOwner(ctx);
      const { apiKey } = await ctx.services.identity.revokePublisherApiKey({ tenantId: ctx.tenant.id, id: ctx.params.key_id });
      await audit(ctx, 'api-key.revoke', `api-key:${apiKey?.id ?? ctx.params.key_id}`, { name: apiKey?.name });
      return { status: 204 };
    },
  }),
  route({
    ...publisher,
    method: 'get',
    path: '/api/v2/publisher/staff',
    summary: "The store's staff: owners first, then editors, by e-mail",
    description: OWNERS_ONLY,
    responses: { 200: { description: 'Staff members', schema: z.object({ data: z.array(StaffMember) }).meta({ id: 'StaffList' }) } },
    handler: async (ctx) => {
      requireOwner(ctx);
      const { staff } = await ctx.services.identity.listStaff({ tenantId: ctx.tenant.id });
      return { status: 200, body: { data: staff.map(memberToWire) } };
    },
  }),
  route({
    ...publisher,
    method: 'put',
    path: '/api/v2/publisher/staff',
    summary: 'Give a user a role in this store by e-mail, or take it away (`none`)',
    description:
      `The user must have signed in once (an account on the platform); he gets an account in this store if he has none. ` +
      `An owner also manages staff and API keys and reads the audit log. ${OWNERS_ONLY}`,
    body: z.object({
      email: deliverableEmail.meta({ description: "The user's e-mail" }),
      role: z.enum(['editor', 'owner', 'none']).meta({ description: '`none` takes the role away' }),
    }),
    responses: { 200: { description: 'The member as he is now (role null for `none`)', schema: StaffMember } },
    errors: { 404: 'No user has this e-mail', 409: 'It would leave the store without an owner' },
    handler: async (ctx) => {
      requireOwner(ctx);
      const { member } = await ctx.services.identity.setStaffRole({ tenantId: ctx.tenant.id, email: ctx.body.email, role: ROLES[ctx.body.role] });
      const wire = memberToWire(member);
      await audit(ctx, 'staff.set', `user:${wire.user_id}`, { email: wire.email, role: wire.role });
      return { status: 200, body: wire };
    },
  }),
  route({
    ...publisher,
    method: 'get',
    path: '/api/v2/publisher/audit-log',
    summary: 'Who changed what in this store, newest first',
    description: OWNERS_ONLY,
    query: z.object({
      page: queryInt({ min: 1, max: 100_000, fallback: 1 }),
      per_page: queryInt({ min: 1, max: 100, fallback: 50 }),
    }),
    responses: { 200: { description: 'One page of entries', schema: AuditLogPage } },
    handler: async (ctx) => {
      requireOwner(ctx);
      const { query } = ctx;
      const listed = await ctx.services.identity.listAuditEntries({ tenantId: ctx.tenant.id, page: query.page, perPage: query.per_page });
      return {
        status: 200,
        body: {
          data: listed.entries.map(entryToWire),
          meta: { current_page: query.page, per_page: query.per_page, total: listed.total, last_page: Math.max(1, Math.ceil(listed.total / query.per_page)) },
        },
      };
    },
  }),
];
