// The per-request context: request id (the client's X-Request-Id when it is
// sane, else a new one, echoed back), client IP, and the async context that
// @folio/grpc copies into the metadata of every upstream call. User and
// tenant ids are filled in once auth and tenant resolution know them.
import type { Request, RequestHandler, Response } from 'express';
import { newRequestId, runWithContext, type Logger, type RequestContext } from '@folio/logger';
import { resolveClientIp, type TrustPredicate } from './client-ip.js';
import type { Admitted } from './request-gate.js';

export interface RequestState {
  context: RequestContext;
  clientIp: string;
  /** The route template that matched, for logs. */
  route?: string;
  /** Set once a route's admission (request-gate.ts) counted this request against the limits. */
  admitted?: Admitted;
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function stateOf(res: Response): RequestState {
  return res.locals.state as RequestState;
}

export function requestContext(isTrustedProxy: TrustPredicate, logger: Logger): RequestHandler {
  return (req: Request, res: Response, next) => {
    const offered = req.get('x-request-id');
    const context: RequestContext = { requestId: offered && SANE_REQUEST_ID.test(offered) ? offered : newRequestId() };
    const clientIp = resolveClientIp(req.socket.remoteAddress, req.headers['x-forwarded-for'], isTrustedProxy);
    const state: RequestState = { context, clientIp };
    res.locals.state = state;
    res.setHeader('X-Request-Id', context.requestId);

    const started = performance.now();
    res.on('finish', () => {
      const line = {
        method: req.method,
        path: req.path,
        ...(state.route && { route: state.route }),
        status: res.statusCode,
        ms: Math.round(performance.now() - started),
        ip: clientIp,
      };
      // Written outside the ALS scope: carry the ids explicitly.
      runWithContext(context, () => {
        if (res.statusCode >= 500) logger.warn(line, 'request');
        else logger.info(line, 'request');
      });
    });
    runWithContext(context, () => next());
  };
}
