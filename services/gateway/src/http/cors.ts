// CORS for the API, so that a browser reader on a store's own web origin can
// call it. Which origins a tenant allows is the tenant's `web_origins`
// setting (`scheme://host[:port]`, or `:*` for any port); outside production
// `http://localhost:*` and `http://127.0.0.1:*` are allowed too, for local
// readers and tests.
//
// Which tenant an answer belongs to, the rule each route follows:
// - store routes (v1, OPDS, KOReader sync): the tenant of the Host header;
// - single-tenant v2 routes: the tenant X-Svc-Tenant-Id names (a request
//   without a valid one gets the rule below, so the page can read its 412);
// - multi-tenant and tenant-less routes (login, the user, the docs, 404s):
//   an origin some tenant allows, since the account spans stores and the
//   token is the credential.
// A preflight carries no header values, so on a single-tenant route it is
// answered from the union of every tenant's origins: an origin one store
// allows may send a request to another store's routes, but cannot read the
// answer, whose own rule names that store. Credentials are bearer headers,
// never cookies: no answer says Access-Control-Allow-Credentials, and an
// origin that is not allowed gets no Access-Control-* header at all.
//
// The `cors` package takes one origin rule and one list of methods and
// headers for the whole app; here the rule depends on the route and on a
// tenant looked up per request, and each preflight's methods and headers come
// from the route table (the same declarations as dispatch and the OpenAPI
// document), so it is written here.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { Logger } from '@folio/logger';
import type { TenantDirectory } from '../peers/tenants.js';
import { HEADER, positiveInt } from './headers.js';
import { expressPath, requiresJwt, requiresReaderToken, type Route, type TenantMode } from './route.js';
import { storeDomainOf } from './tenant.js';

/** Allowed for every tenant outside production. */
export const DEVELOPMENT_WEB_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*'] as const;

/** How long a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

const noop = () => undefined;

/** Answer headers a page may read besides the safelisted ones, whatever the route documents. */
const ALWAYS_EXPOSED = ['ETag', 'Retry-After', 'X-Request-Id', 'Content-Disposition'];

interface ParsedOrigin {
  scheme: string;
  host: string;
  /** Undefined: the scheme's default; `*` (patterns only): any port. */
  port: string | undefined;
}

const ORIGIN = /^(https?):\/\/([a-z0-9]([a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::(\d{1,5}|\*))?$/;

function parseOrigin(value: string, pattern: boolean): ParsedOrigin | undefined {
  const match = ORIGIN.exec(pattern ? value : value.toLowerCase());
  if (!match) return undefined;
  const port = match[4];
  if (port === '*' && !pattern) return undefined;
  return { scheme: match[1]!, host: match[2]!, port };
}

/** Whether `origin` (an Origin header) is one of `patterns` (web origins as tenants hold them). */
export function originAllowed(origin: string, patterns: readonly string[]): boolean {
  const parsed = parseOrigin(origin, false);
  if (!parsed) return false;
  return patterns.some((raw) => {
    const pattern = parseOrigin(raw, true);
    return pattern !== undefined && pattern.scheme === parsed.scheme && pattern.host === parsed.host && (pattern.port === '*' || pattern.port === parsed.port);
  });
}

/** The request headers a route reads, as its preflight allows them. */
export function requestHeadersOf(route: Route): string[] {
  const headers: string[] = [HEADER.lang, HEADER.appBaseVersion, HEADER.appVersion, 'X-Request-Id'];
  if (requiresJwt(route.auth) || route.auth === 'device-key' || route.auth === 'publisher') headers.push('Authorization');
  if (requiresReaderToken(route.auth) || route.uses?.includes('optional-reader-token')) headers.push(HEADER.readerToken);
  if (route.tenant === 'single') headers.push(HEADER.svcTenant);
  if (route.uses?.includes('app-tenant')) headers.push(HEADER.appTenant);
  if (route.uses?.includes('if-match')) headers.push('If-Match');
  if (route.method === 'get') headers.push('If-None-Match');
  else headers.push('Content-Type');
  return headers;
}

interface RouteRule {
  tenant: TenantMode;
  headers: readonly string[];
}

export interface CorsOptions {
  tenants: TenantDirectory;
  /** In production only the tenants' own origins are allowed. */
  production: boolean;
  logger: Logger;
}

/**
 * One middleware ahead of the routed requests and everything after them (the docs, 404s): it
 * finds the request's route in its own tree of the table (find-my-way, matching as
 * http/dispatch.ts does), answers preflights, and puts the CORS headers on every other answer
 * before any step of the pipeline can answer, errors included. Requests without an Origin
 * header (apps, e-readers, curl) pass untouched.
 */
export class Cors {
  private readonly exposed: string;
  private readonly development: readonly string[];
  private readonly tree = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: false });
  private readonly methods = new Set<HTTPMethod>();

  constructor(
    routes: readonly Route[],
    private readonly options: CorsOptions,
  ) {
    const documented = routes.flatMap((route) => Object.values(route.responses).flatMap((response) => Object.keys(response.headers ?? {})));
    // Set-Cookie is never readable by a page, exposed or not.
    this.exposed = [...new Set([...ALWAYS_EXPOSED, ...documented])].filter((name) => name.toLowerCase() !== 'set-cookie').join(', ');
    this.development = options.production ? [] : DEVELOPMENT_WEB_ORIGINS;
    for (const route of routes) {
      const method = route.method.toUpperCase() as HTTPMethod;
      this.methods.add(method);
      this.tree.on(method, expressPath(route.path), noop, { tenant: route.tenant, headers: requestHeadersOf(route) } satisfies RouteRule);
    }
  }

  readonly middleware: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const origin = req.get('origin');
    if (origin === undefined) {
      next();
      return;
    }
    res.vary('Origin');
    const asked = req.get('access-control-request-method')?.trim().toUpperCase();
    if (req.method === 'OPTIONS' && asked) {
      this.preflight(req, res, next, origin, asked);
      return;
    }
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const rule = this.ruleOf(method, req.url);
    void this.allowed(origin, rule?.tenant ?? 'none', req).then((allowed) => {
      if (allowed) this.allow(res, origin);
      next();
    });
  };

  private ruleOf(method: string, url: string): RouteRule | undefined {
    return (this.tree.find(method as HTTPMethod, url)?.store as RouteRule | undefined) ?? undefined;
  }

  /**
   * The methods the path takes and the headers the asked method's route reads. A path the
   * table does not have, or an origin that is not allowed, goes on to the usual OPTIONS answer
   * (the `Allow` list, no Access-Control-* header).
   */
  private preflight(req: Request, res: Response, next: NextFunction, origin: string, asked: string): void {
    const allow = new Set<string>();
    const rules: RouteRule[] = [];
    for (const method of this.methods) {
      const rule = this.ruleOf(method, req.url);
      if (!rule) continue;
      allow.add(method);
      if (method === 'GET') allow.add('HEAD');
      rules.push(rule);
    }
    if (rules.length === 0) {
      next();
      return;
    }
    const rule = this.ruleOf(asked === 'HEAD' ? 'GET' : asked, req.url);
    const headers = rule ? rule.headers : [...new Set(rules.flatMap((candidate) => candidate.headers))];
    const tenant = (rule ?? rules[0]!).tenant;
    // The header values are not in a preflight: only a store route's Host names the tenant.
    void this.allowed(origin, tenant === 'store' ? 'store' : 'none', req).then((allowed) => {
      if (!allowed) {
        next();
        return;
      }
      const methods = [...allow].sort().join(', ');
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Methods', methods);
      res.setHeader('Access-Control-Allow-Headers', headers.join(', '));
      res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
      res.setHeader('Allow', methods);
      res.setHeader('Content-Length', '0');
      res.statusCode = 204;
      res.end();
    });
  }

  private allow(res: Response, origin: string): void {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', this.exposed);
    // helmet's same-origin would stop an allowed page from embedding the answer (no-cors loads).
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  }

  /** Never throws: a tenant that cannot be looked up allows nothing (the route then answers its own error). */
  private async allowed(origin: string, mode: TenantMode, req: Request): Promise<boolean> {
    if (originAllowed(origin, this.development)) return true;
    if (!parseOrigin(origin, false)) return false;
    try {
      // The union first: an origin no tenant allows (most foreign pages) costs no tenant lookup before the limits.
      if (!originAllowed(origin, await this.options.tenants.allWebOrigins())) return false;
      if (mode === 'store') {
        const domain = storeDomainOf(req.get('host'));
        const tenant = domain ? await this.options.tenants.byStoreDomain(domain) : null;
        return tenant !== null && originAllowed(origin, tenant.webOrigins);
      }
      if (mode === 'single') {
        const tenantId = positiveInt(req.get(HEADER.svcTenant));
        const tenant = tenantId === undefined ? null : await this.options.tenants.byTenantId(tenantId);
        if (tenant) return originAllowed(origin, tenant.webOrigins);
      }
      return true;
    } catch (error) {
      this.options.logger.debug({ err: error, origin }, 'web origins unavailable');
      return false;
    }
  }
}
