// Every error response of the gateway leaves through here: domain errors
// (ours and the services') map through the one table in @folio/errors, body
// parser failures keep their 4xx meaning, anything else is a logged 500 with
// a generic body. Never a stack trace on the wire.
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { DomainError, httpBodyOf, httpStatusOf } from '@folio/errors';
import type { Logger } from '@folio/logger';
import { isDomainError } from '../peers/breaker.js';

/** The body the spec fixes for a rejected access token (401 on /user, download; used for every JWT failure). */
export const INVALID_TOKEN_MESSAGE = 'The given data was invalid.';
export const VALIDATION_MESSAGE = 'The given data was invalid.';

/**
 * An error of the gateway's own HTTP layer with an exact status (400, 413,
 * 415): the gateway is the HTTP edge, the one place that may choose a status
 * itself. Services name a reason instead (ErrorReason in @folio/errors).
 */
export const httpError = (httpStatus: number, message: string, fieldErrors?: Record<string, string[]>) =>
  new DomainError(httpStatus >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT', message, { httpStatus, ...(fieldErrors && { fieldErrors }) });

export const unauthorized = (message = INVALID_TOKEN_MESSAGE) => new DomainError('UNAUTHENTICATED', message);
/** 412: FAILED_PRECONDITION's own status in the table. */
export const preconditionFailed = (message: string) => new DomainError('FAILED_PRECONDITION', message);

/** Seconds to wait when an error says "later" without saying how long. */
const DEFAULT_RETRY_AFTER = { 429: 60, 503: 5 } as Record<number, number>;

export function sendDomainError(res: Response, error: DomainError): void {
  const status = httpStatusOf(error);
  const retryAfter = error.details.retryAfterSeconds ?? DEFAULT_RETRY_AFTER[status];
  if (retryAfter !== undefined && (status === 429 || status === 503)) res.set('Retry-After', String(Math.max(1, Math.ceil(retryAfter))));
  res.status(status).json(httpBodyOf(error));
}

/** body-parser and router errors carry `status` and `type`; their own messages may echo input, so ours replace them. */
function fromHttpLibraryError(error: unknown): DomainError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, statusCode, type } = error as { status?: unknown; statusCode?: unknown; type?: unknown };
  const code = typeof status === 'number' ? status : typeof statusCode === 'number' ? statusCode : undefined;
  if (code === undefined || code < 400 || code >= 500) return undefined;
  switch (type) {
    case 'entity.parse.failed':
      return httpError(400, 'The request body is not valid JSON.');
    case 'entity.too.large':
      return httpError(413, 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return httpError(415, 'Unsupported content encoding.');
    default:
      return httpError(code, code === 413 ? 'The request body is too large.' : 'Bad request.');
  }
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      logger.error({ err: error, path: req.path }, 'error after the response started');
      res.destroy();
      return;
    }
    if (isDomainError(error)) {
      if (httpStatusOf(error) >= 500 && httpStatusOf(error) !== 501) {
        logger.warn({ err: error, code: error.code, path: req.path }, 'upstream failure');
      }
      sendDomainError(res, error);
      return;
    }
    const clientError = fromHttpLibraryError(error);
    if (clientError) {
      sendDomainError(res, clientError);
      return;
    }
    logger.error({ err: error, method: req.method, path: req.path }, 'unexpected error');
    res.status(500).json({ message: 'Internal server error.' });
  };
}

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ message: 'Not found.' });
};
