// Turns the route table into express routes. Each request of a route runs
// the same steps in the same order, so a handler only ever sees a request
// that passed all of them:
//   admission (one Redis round trip: global limit, route limit, session key;
//   token verification alongside) → body parsing → store Host → route limit →
//   access token and session → tenant mode → reader-token presence →
//   headers/params/query/body validation → reader-token verified (its scope) → handler.
import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { permissionDenied } from '@folio/errors';
import { runWithContext } from '@folio/logger';
import { authenticate } from './auth.js';
import { stateOf } from './context.js';
import { httpError, VALIDATION_MESSAGE } from './errors.js';
import { appTenantOf, clientHeadersOf, HEADER } from './headers.js';
import { verifyReaderToken } from './reader-token.js';
import { admissionGate, type GateDeps } from './request-gate.js';
import {
  expressPath,
  requiresJwt,
  requiresReaderToken,
  type AuthUser,
  type ReaderScope,
  type Reply,
  type Route,
  type RouteContext,
  type Services,
  type Tenant,
} from './route.js';
import { checkTenantMode, resolveStoreTenant } from './tenant.js';
import { parsePart, type FieldErrors } from './validation.js';

export interface PipelineDeps extends GateDeps {
  services: Services;
  /** JSON and form body parsers: they run after the admission, so a request over the limit is not parsed. */
  bodyParsers: RequestHandler[];
}

const EMPTY = z.object({});

async function runRoute(route: Route, deps: PipelineDeps, req: Request, res: Response): Promise<Reply> {
  const state = stateOf(res);
  state.route = `${route.method.toUpperCase()} ${route.path}`;

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
  if (Object.keys(errors).length > 0) {
    const status = route.invalidStatus ?? 422;
    throw httpError(status, status === 400 ? 'Bad request.' : VALIDATION_MESSAGE, errors);
  }

  // Verified once here, after the cheap checks, like the JWT: handlers get the scope, never the raw token to check.
  let readerScope: ReaderScope | undefined;
  if (requiresReaderToken(route.auth)) {
    if (!tenant) throw new Error(`${route.path}: a reader-token route without a tenant`);
    readerScope = await verifyReaderToken(deps.services, readerToken, tenant.id, user?.id);
  }

  const headers = clientHeadersOf(req);
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
  return route.handler(context as never);
}

function send(res: Response, reply: Reply): void {
  if (reply.headers) res.set(reply.headers);
  res.status(reply.status);
  if (reply.html !== undefined) res.type('html').send(reply.html);
  else if (reply.binary) res.type(reply.binary.contentType).send(reply.binary.data);
  else if (reply.body === undefined) res.end();
  else res.json(reply.body);
}

export function mountRoutes(router: Router, routes: readonly Route[], deps: PipelineDeps): void {
  for (const route of routes) {
    // A GET takes no body: its requests skip the parsers' content-type checks.
    const parsers = route.method === 'get' && !route.body ? [] : deps.bodyParsers;
    router[route.method](expressPath(route.path), admissionGate(route, deps), ...parsers, async (req: Request, res: Response) => {
      // Body parsing ran in the socket's async context: re-enter the request's.
      const reply = await runWithContext(stateOf(res).context, () => runRoute(route, deps, req, res));
      send(res, reply);
    });
  }
}
