// Finds a routed request's route and runs its handlers: one express
// middleware around a radix tree (find-my-way, fastify's router), in place of
// an express Router holding the route table. Express's router tries its routes
// one after the other, running each one's path pattern until one matches, and
// walks every layer it passes with closures of its own, so a route costs more
// the later it stands in the table (the purchase redirect is 60th of 77, the
// OPDS and KOReader routes come after it). The tree finds any route in a few
// comparisons of the path's characters, so what an answer allocates no longer
// depends on where its route stands (bench/routing has the figures).
//
// What express's router did for these routes, this does alike: paths match
// case-insensitively and with or without one trailing slash; parameters are
// percent-decoded (a parameter that cannot be decoded is a 400, as
// before); a GET route answers HEAD; an OPTIONS request for a path the table
// has answers 200 with the `Allow` list; `req.params` holds the parameters;
// the route template labels the metrics and names the trace's server span.
// Routes that share a shape are told apart by their static parts first
// (`/reader/notes/{note_id}` before `/reader/{issue_id}/last-location`), where
// express took the first registered.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { recordMatchedRoute } from '@folio/telemetry';
import { httpError } from './errors.js';
import type { HttpMethod } from './route.js';

export interface DispatchedRoute {
  method: HttpMethod;
  /** express form: `/api/v2/library/:issue_id`. */
  path: string;
  handlers: readonly RequestHandler[];
}

interface Store {
  path: string;
  handlers: readonly RequestHandler[];
}

const noop = () => undefined;

export function routeDispatcher(routes: readonly DispatchedRoute[]): RequestHandler {
  const tree = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: false });
  const methods = new Set<HTTPMethod>();
  for (const route of routes) {
    const method = route.method.toUpperCase() as HTTPMethod;
    methods.add(method);
    tree.on(method, route.path, noop, { path: route.path, handlers: route.handlers } satisfies Store);
  }
  const find = (method: string, url: string) => tree.find(method as HTTPMethod, url)?.store as Store | undefined;

  return (req: Request, res: Response, next: NextFunction) => {
    const found = tree.find(req.method as HTTPMethod, req.url) ?? (req.method === 'HEAD' ? tree.find('GET', req.url) : null);
    if (!found) {
      unmatched(req, res, next);
      return;
    }
    const { path, handlers } = found.store as Store;
    req.params = found.params as Request['params'];
    recordMatchedRoute(req, path);
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null) {
        next(error);
        return;
      }
      const handler = handlers[index++];
      if (!handler) {
        next();
        return;
      }
      try {
        // As express 5 does: a handler's rejected promise is the request's error.
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.catch((reason: unknown) => next(reason ?? new Error('Rejected promise')));
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };

  function unmatched(req: Request, res: Response, next: NextFunction): void {
    if (req.method === 'OPTIONS') {
      const allowed = new Set<string>();
      for (const method of methods) {
        if (!find(method, req.url)) continue;
        allowed.add(method);
        if (method === 'GET') allowed.add('HEAD');
      }
      if (allowed.size > 0) {
        const allow = [...allowed].sort().join(', ');
        res.setHeader('Allow', allow);
        res.setHeader('Content-Length', Buffer.byteLength(allow));
        res.setHeader('Content-Type', 'text/plain');
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.end(allow);
        return;
      }
    }
    // The tree does not match a path it cannot decode; with its percent signs
    // taken literally it would: a route's parameter is badly encoded.
    if (req.url.includes('%') && find(req.method === 'HEAD' ? 'GET' : req.method, req.url.replace(/%/g, '%25'))) {
      next(httpError(400, 'Bad request.'));
      return;
    }
    next();
  }
}
