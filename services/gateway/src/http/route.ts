// The route table's vocabulary. Each endpoint of the spec is declared once,
// with everything the gateway enforces before a handler runs (auth kind,
// tenant mode, rate limit, request schemas) and what it documents (summary,
// responses). The same declarations register the express routes and
// generate the OpenAPI document, so the two cannot drift apart.
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { catalog, commerce, identity, integrations, notes, reader, readerSync } from '@folio/proto';
import type { DomainError } from '@folio/errors';
import type { RateRule } from '@folio/rate-limit';
import type { GuardedClient } from '../peers/index.js';
import type { AuditLog } from '../peers/audit-log.js';
import type { TenantDirectory } from '../peers/tenants.js';
import type { Lang } from '../render/lang.js';
import type { AppVersion } from '@folio/app-version';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * - `jwt`: Authorization: Bearer access token, verified and session-checked.
 * - `jwt-query`: the access token in the `token` query parameter (purchase redirect, opened in a browser).
 * - `reader-token`: the `reader-token` header (v1 reader API), verified for the route's tenant.
 * - `jwt+reader-token`: both (v2 notes, text search, integrations); the reader-token must be the user's.
 * - `device-key`: HTTP Basic (e-mail and device key) or Bearer access token, checked by the handler,
 *   which answers the protocol's own 401 (OPDS, KOReader sync); a Bearer token is verified up front like `jwt`.
 * - `publisher`: Bearer access token of a staff member or a publisher API key, for the route's tenant
 *   (X-Svc-Tenant-Id): identity's AuthorizeStaff decides (http/publisher-auth.ts); the handler gets `staff`.
 * - `none`: public.
 */
export type AuthKind = 'jwt' | 'jwt-query' | 'reader-token' | 'jwt+reader-token' | 'device-key' | 'publisher' | 'none';

/**
 * - `single`: X-Svc-Tenant-Id required and must name a known tenant (412 otherwise).
 * - `multi`: X-Svc-Tenant-Id must be absent (412 otherwise).
 * - `store`: the tenant whose domain is the Host header (404 otherwise).
 * - `none`: tenant headers are not looked at (login, refresh, logout).
 */
export type TenantMode = 'single' | 'multi' | 'store' | 'none';

/** Optional headers a route reads, documented and (where strict) validated. */
export type HeaderUse = 'app-tenant' | 'app-version' | 'optional-reader-token' | 'if-match';

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** Default application/json when a schema is given. */
  contentType?: string;
  /** Several media types (one answer per request, chosen by a parameter): each with its schema. */
  content?: Record<string, z.ZodType>;
  headers?: Record<string, { description: string; schema: { type: 'string' | 'integer' } }>;
}

export type AnyObject = z.ZodObject<z.ZodRawShape>;

/** A request body that is a file: streamed to the handler unparsed (http/raw-body.ts). */
export interface RawBodySpec {
  /** The Content-Types it takes (any other: 415), each documented as a binary request body. */
  mediaTypes: readonly string[];
  /** What the body is, for the OpenAPI document (say the size limit). */
  description: string;
}

/** The raw body of a `rawBody` route, checked against its declared type and length. */
export interface RawUpload {
  /** Content-Type without parameters, lower case: one of the route's media types. */
  mediaType: string;
  /** Content-Length as sent; 0 when the body came without one (chunked). */
  declaredBytes: number;
  maxBytes: number;
  /** The body in chunks of at most 1 MiB, read as they are taken; past `maxBytes` it fails with 413. Once only. */
  chunks(): AsyncIterable<Buffer>;
}

export interface AuthUser {
  id: number;
  email: string;
  admin: boolean;
  /** The session id of the access token (logout, session checks). */
  jti: string;
}

export type Tenant = identity.Tenant;

/** Who acts on a publisher route: a staff member (by access token) or an API key, with their role in the tenant. */
export interface StaffPrincipal {
  role: 'editor' | 'owner';
  /** `user:<id>` or `api-key:<id>`: how the audit log names them. */
  actor: string;
  userId?: number;
  apiKeyId?: string;
}

/** The reader session a verified reader-token stands for (http/reader-token.ts). */
export interface ReaderScope {
  /** The internal session id (decimal string), as VerifyReaderToken names it. */
  sessionId: string;
  tenantId: number;
  userId: number;
  issueId: number;
  /** The session shows only the tenant's preview share. */
  preview: boolean;
  /** A preview's last page, chapter or track. */
  previewLimit: number | undefined;
  /** When the token expires, Unix seconds. */
  expiresAt: number;
  /** The token itself: notes and integrations derive the session's text key from it. */
  readerToken: string;
}

/** What handlers call: each service's client (deadline + breaker), plus the tenant cache. */
export interface Services {
  identity: GuardedClient<identity.IdentityServiceClient>;
  catalog: GuardedClient<catalog.CatalogServiceClient>;
  commerce: GuardedClient<commerce.CommerceServiceClient>;
  reader: GuardedClient<reader.ReaderServiceClient>;
  /** Reader's open-ecosystem RPCs: files for e-readers, KOReader progress sync. */
  readerSync: GuardedClient<readerSync.ReaderSyncServiceClient>;
  notes: GuardedClient<notes.NotesServiceClient>;
  integrations: GuardedClient<integrations.IntegrationsServiceClient>;
  tenants: TenantDirectory;
  /** The publisher API's audit log (identity), recorded after each change. */
  audit: AuditLog;
}

export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The verified user; only on routes with a JWT auth kind. */
  readonly user: AuthUser;
  /** The tenant of X-Svc-Tenant-Id or of the store Host; only on single/store routes. */
  readonly tenant: Tenant;
  /** X-CustomApp-Tenant-Id, default 1. */
  appTenantId: number;
  lang: Lang;
  appBaseVersion: AppVersion | undefined;
  appVersion: string | undefined;
  /** The `reader-token` header as sent (routes that resume a session with it pass it on). */
  readerToken: string | undefined;
  /** The verified reader-token's scope; only on routes with a reader-token auth kind. */
  readonly readerScope: ReaderScope;
  /** Who acts; only on `publisher` routes. */
  readonly staff: StaffPrincipal;
  /** The streamed file; only on `rawBody` routes. */
  readonly upload: RawUpload;
  clientIp: string;
  requestId: string;
  services: Services;
  req: Request;
  res: Response;
}

/**
 * What a handler answers: `body` as JSON (undefined: an empty body), or `html`
 * (a server-rendered page), or `binary` bytes (audio).
 */
export interface Reply {
  status: number;
  body?: unknown;
  /** The JSON body already serialized, as UTF-8 (a cached answer: sent as it is, however often). */
  json?: Buffer;
  html?: string;
  binary?: { contentType: string; data: Buffer };
  headers?: Record<string, string>;
  /** The answer is never a 304, whatever If-None-Match says (an ETag that names a stored state, not this body). */
  unconditional?: boolean;
}

export type Handler<P, Q, B> = (context: RouteContext<P, Q, B>) => Promise<Reply>;

export interface RouteSpec<P extends AnyObject, Q extends AnyObject, B extends z.ZodType> {
  method: HttpMethod;
  /** OpenAPI form: `/api/v2/library/{issue_id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: AuthKind;
  tenant: TenantMode;
  uses?: HeaderUse[];
  /** Checked with CheckSession(enforce_limit) instead of the plain session check (session validate: 409). */
  enforceSessionLimit?: boolean;
  rateLimit?: RateRule;
  /**
   * A user's read whose 200 answers the gateway may keep (http/response-cache.ts):
   * only GET routes of one user (JWT or reader-token) whose answer depends on
   * nothing but the request, that user's data and the tenant's.
   */
  cachePerUser?: boolean;
  /**
   * A write that changes nothing a `cachePerUser` read answers (a reader
   * session opened, a translation asked for): the user's cached reads stay,
   * and the answer does not wait for a new response version (a Redis round
   * trip). Every other successful write of a user outdates their cached reads.
   */
  leavesCachedReads?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** The body is a file, streamed to the handler as `upload` instead of parsed (no `body` then). */
  rawBody?: RawBodySpec;
  /** Status of a request that fails validation: 422, or 400 where the spec says "bad request". */
  invalidStatus?: 400 | 422;
  /** Success responses (errors are documented from the other fields). */
  responses: Record<number, ResponseDoc>;
  /** Extra error responses this route can give besides the derived ones. */
  errors?: Record<number, string>;
  /** The media type of the `errors` answers when they are not the JSON error body (the checkout's HTML pages). */
  errorContentType?: string;
  /**
   * Every 4xx answer of the route (its own and the pipeline's: validation, store Host, route limits)
   * in the protocol's own form (OPDS): `errorReply` renders a domain error, `errorContent` documents
   * it. Without them, and for 5xx (logged by the error handler), errors are the JSON error body.
   */
  errorContent?: { contentType: string; schema: z.ZodType };
  errorReply?: (error: DomainError, req: Request) => Reply;
  handler: Handler<z.output<P>, z.output<Q>, z.output<B>>;
}

/** A route with its types erased, as the table holds it. */
export type Route = RouteSpec<AnyObject, AnyObject, z.ZodType>;

/** Declares one route; the generic parameters give its handler typed params, query and body. */
export function route<P extends AnyObject = AnyObject, Q extends AnyObject = AnyObject, B extends z.ZodType = z.ZodType>(spec: RouteSpec<P, Q, B>): Route {
  return spec as unknown as Route;
}

/** `/api/v2/library/{issue_id}` → `/api/v2/library/:issue_id` (express 5 / path-to-regexp 8). */
export function expressPath(path: string): string {
  return path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');
}

export function requiresJwt(auth: AuthKind): boolean {
  return auth === 'jwt' || auth === 'jwt-query' || auth === 'jwt+reader-token';
}

export function requiresReaderToken(auth: AuthKind): boolean {
  return auth === 'reader-token' || auth === 'jwt+reader-token';
}
