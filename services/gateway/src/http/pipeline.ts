// Turns the route table into each route's handlers (http/dispatch.ts finds
// a request's route). Each request of a route runs the same steps in the same
// order, so a handler only ever sees a request that passed all of them:
//   admission (one Redis round trip: global limit, route limit, session and
//   reader session keys, response version; token verification alongside) →
//   body parsing → store Host → route limit → access token and session →
//   tenant mode → reader-token presence → headers/params/query/body
//   validation → a raw body's type and length (http/raw-body.ts) → reader-token verified (its scope) →
//   the user's cached answer (http/response-cache.ts), else the handler.
// A successful write of a known user gives that user a new response version.
import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { httpStatusOf, permissionDenied } from '@folio/errors';
import { runWithContext } from '@folio/logger';
import { authenticate, bearerTokenOf } from './auth.js';
import { authorizePublisher } from './publisher-auth.js';
import { stateOf } from './context.js';
import { routeDispatcher } from './dispatch.js';
import { httpError, VALIDATION_MESSAGE } from './errors.js';
import { appTenantOf, clientHeadersOf, HEADER } from './headers.js';
import { admissionGate, type Admitted, type GateDeps } from './request-gate.js';
import { ANY_TENANT, type CacheScope } from './response-cache.js';
import {
  expressPath,
  requiresJwt,
  requiresReaderToken,
  type AuthUser,
  type RawUpload,
  type ReaderScope,
  type Reply,
  type Route,
  type RouteContext,
  type Services,
  type StaffPrincipal,
  type Tenant,
} from './route.js';
import { isDomainError } from '../peers/breaker.js';
import { checkTenantMode, resolveStoreTenant } from './tenant.js';
import { parsePart, rejectNulCharacters, type FieldErrors } from './validation.js';
import { rawUploadOf } from './raw-body.js';

export interface PipelineDeps extends GateDeps {
  services: Services;
  /** JSON and form body parsers: they run after the admission, so a request over the limit is not parsed. */
  bodyParsers: RequestHandler[];
  /** The largest raw body (a publisher's file) a `rawBody` route takes; PUBLISHER_UPLOAD_MAX_MB's default (500 MB) when unset. */
  uploadMaxBytes?: number;
}

const EMPTY = z.object({});

async function runRoute(route: Route, deps: PipelineDeps, req: Request, res: Response): Promise<Reply> {
  const state = stateOf(res);
  state.route = `${route.method.toUpperCase()} ${route.path}`;
  // Before any upstream call: an answer is not kept if its scope was dropped meanwhile.
  const cacheTicket = deps.responses.ticket();

  let tenant: Tenant | undefined;
  if (route.tenant === 'store') {
    tenant = await resolveStoreTenant(req, deps.services.tenants);
    state.context.tenantId = tenant.id;
  }

  const admitted = state.admitted;
  if (!admitted) throw new Error(`${route.path}: the route ran without its admission`);
  deps.limits.enforceRoute(admitted);

  let user: AuthUser | undefined;
  if (requiresJwt(route.auth)) {
    user = await authenticate(admitted, deps.services, {
      enforceLimit: route.enforceSessionLimit === true,
    });
    state.context.userId = user.id;
  }

  if (route.tenant === 'single' || route.tenant === 'multi') {
    tenant = await checkTenantMode(req, route.tenant, deps.services.tenants);
    if (tenant) state.context.tenantId = tenant.id;
  }

  let staff: StaffPrincipal | undefined;
  if (route.auth === 'publisher') {
    if (!tenant) throw new Error(`${route.path}: a publisher route without a tenant`);
    const authorized = await authorizePublisher(admitted, bearerTokenOf(req), deps.services, tenant.id, state.clientIp);
    staff = authorized.staff;
    user = authorized.user;
    if (user) state.context.userId = user.id;
  }

  const readerToken = req.get(HEADER.readerToken)?.trim() || undefined;
  if (requiresReaderToken(route.auth) && !readerToken) throw permissionDenied('The reader-token header is missing.');

  const errors: FieldErrors = {};
  let appTenantId = 1;
  if (route.uses?.includes('app-tenant')) {
    const parsed = appTenantOf(req);
    if (parsed === 'invalid') errors[HEADER.appTenant] = [`The ${HEADER.appTenant} header must be a positive integer.`];
    else appTenantId = parsed;
  }
  const params = parsePart(route.params ?? EMPTY, req.params, errors, 'params');
  const query = parsePart(route.query ?? EMPTY, req.query, errors, 'query');
  const body = route.body ? parsePart(route.body, req.body ?? {}, errors, 'body') : undefined;
  // What the route declared and will use (its OpenAPI operation documents the 422), not keys its schema dropped.
  if (route.params && params) rejectNulCharacters(params, errors, 'params');
  if (route.query && query) rejectNulCharacters(query, errors, 'query');
  if (route.body && body) rejectNulCharacters(body, errors, 'body');
  if (Object.keys(errors).length > 0) {
    const status = route.invalidStatus ?? 422;
    throw httpError(status, status === 400 ? 'Bad request.' : VALIDATION_MESSAGE, errors);
  }

  // Before anything of the body is read: a type the route does not take (415), a length over the limit (413).
  const upload: RawUpload | undefined = route.rawBody ? rawUploadOf(req, route.rawBody, deps.uploadMaxBytes ?? 500 * 1024 * 1024) : undefined;

  // Verified once here, after the cheap checks, like the JWT: handlers get the scope, never the raw token to check.
  let readerScope: ReaderScope | undefined;
  if (requiresReaderToken(route.auth)) {
    if (!tenant) throw new Error(`${route.path}: a reader-token route without a tenant`);
    readerScope = await deps.readerTokens.verify(readerToken, tenant.id, user?.id, admitted.readerSession);
    state.context.userId ??= readerScope.userId;
  }

  const headers = clientHeadersOf(req);
  const slot = route.cachePerUser ? cacheSlotOf(deps, admitted, req, state.context.userId, tenant, [appTenantId, headers.lang, readerToken]) : undefined;
  if (slot) {
    const cached = deps.responses.lookup(slot.key, slot.scope);
    if (cached) return cached;
  }
  const context: RouteContext<unknown, unknown, unknown> = {
    params,
    query,
    body,
    get user(): AuthUser {
      if (!user) throw new Error(`${route.path}: handler asked for a user on a route without a JWT`);
      return user;
    },
    get tenant(): Tenant {
      if (!tenant) throw new Error(`${route.path}: handler asked for a tenant on a route without one`);
      return tenant;
    },
    appTenantId,
    ...headers,
    readerToken,
    get staff(): StaffPrincipal {
      if (!staff) throw new Error(`${route.path}: handler asked for staff on a route that is not a publisher route`);
      return staff;
    },
    get upload(): RawUpload {
      if (!upload) throw new Error(`${route.path}: handler asked for a raw body on a route without one`);
      return upload;
    },
    get readerScope(): ReaderScope {
      if (!readerScope) throw new Error(`${route.path}: handler asked for a reader scope on a route without a reader-token`);
      return readerScope;
    },
    clientIp: state.clientIp,
    requestId: state.context.requestId,
    services: deps.services,
    req,
    res,
  };
  const reply = await route.handler(context as never);
  if (!slot || reply.status !== 200 || reply.body === undefined || reply.html !== undefined || reply.binary) return reply;
  const cached = {
    status: reply.status,
    // Encoded once: a string would be measured and encoded to UTF-8 on every answer it serves
    // (~10 % of the gateway's CPU per cached 12 KB library page).
    json: Buffer.from(JSON.stringify(reply.body), 'utf8'),
    ...(reply.headers && { headers: reply.headers }),
    ...(reply.unconditional && { unconditional: true }),
  };
  deps.responses.store(slot.key, slot.scope, cacheTicket, cached);
  return cached;
}

/**
 * Where this request's answer is kept: only for the user whose version the
 * admission read (so never for another user's token), keyed by everything
 * the answer depends on besides that user's and tenant's data.
 */
function cacheSlotOf(
  deps: PipelineDeps,
  admitted: Admitted,
  req: Request,
  userId: number | undefined,
  tenant: Tenant | undefined,
  inputs: readonly unknown[],
): { key: string; scope: CacheScope } | undefined {
  if (userId === undefined || admitted.versionUserId !== userId || admitted.userVersion === undefined || !deps.responses.enabled) return undefined;
  const key = [req.method, req.originalUrl, userId, tenant?.id ?? '', req.get(HEADER.appBaseVersion) ?? '', req.get(HEADER.appVersion) ?? '', ...inputs].join(
    '\n',
  );
  return { key, scope: { userId, tenantId: tenant?.id ?? ANY_TENANT, version: admitted.userVersion } };
}

function send(req: Request, res: Response, reply: Reply): void {
  if (reply.headers) res.set(reply.headers);
  // express answers 304 when If-None-Match matches the ETag it is sending.
  if (reply.unconditional) delete req.headers['if-none-match'];
  res.status(reply.status);
  if (reply.json !== undefined) sendJson(res, reply.json);
  else if (reply.html !== undefined) res.type('html').send(reply.html);
  else if (reply.binary) res.type(reply.binary.contentType).send(reply.binary.data);
  else if (reply.body === undefined) res.end();
  // Encoded once, as a cached answer is: res.json would send a string, which express measures,
  // re-types (parsing and formatting its Content-Type) and encodes again.
  else sendJson(res, Buffer.from(JSON.stringify(reply.body), 'utf8'));
}

/** What res.json sends: application/json unless the route chose its type, with the charset that send adds to a string's type (a Buffer's it leaves alone). */
function sendJson(res: Response, json: Buffer): void {
  const type = res.get('Content-Type') ?? 'application/json';
  res.set('Content-Type', /;\s*charset=/i.test(type) ? type : `${type}; charset=utf-8`);
  res.send(json);
}

/** A route that speaks its protocol's errors (OPDS) answers its 4xx itself, the global per-IP limit's too; the rest go to the error handler. */
function ownErrors(route: Route, step: RequestHandler): RequestHandler {
  if (!route.errorReply) return step;
  const render = route.errorReply;
  return async (req, res, next) => {
    try {
      await step(req, res, next);
    } catch (error) {
      if (!isDomainError(error) || httpStatusOf(error) >= 500) throw error;
      send(req, res, render(error, req));
    }
  };
}

/** The route table as one express middleware (http/dispatch.ts); a request no route matches goes on to `next`. */
export function routedRequests(routes: readonly Route[], deps: PipelineDeps): RequestHandler {
  return routeDispatcher(
    routes.map((route) => {
      // A GET takes no body: its requests skip the parsers' content-type checks.
      // A raw body (a file) is the handler's to stream: never parsed.
      const parsers = (route.method === 'get' && !route.body) || route.rawBody ? [] : deps.bodyParsers;
      const handle: RequestHandler = async (req: Request, res: Response) => {
        // Body parsing ran in the socket's async context: re-enter the request's.
        const state = stateOf(res);
        const reply = await runWithContext(state.context, () => runRoute(route, deps, req, res));
        // A user's write is answered only once their cached reads are outdated, on every replica.
        if (route.method !== 'get' && !route.leavesCachedReads && reply.status < 400 && state.context.userId !== undefined) {
          await deps.responses.changed(state.context.userId);
        }
        send(req, res, reply);
      };
      return {
        method: route.method,
        path: expressPath(route.path),
        handlers: [ownErrors(route, admissionGate(route, deps)), ...parsers, ownErrors(route, handle)],
      };
    }),
  );
}
