import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import {
  isDependencyOutage,
  DomainError,
  failedPrecondition,
  fromGrpcError,
  httpBodyOf,
  httpStatusOf,
  invalidArgument,
  toGrpcError,
  tooManyRequests,
} from './index.js';

function asServiceError(sent: ReturnType<typeof toGrpcError>): ServiceError {
  return Object.assign(new Error(`${sent.code} ${sent.details}`), { code: sent.code, details: sent.details, metadata: sent.metadata });
}

describe('domain errors over gRPC', () => {
  it('when a domain error crosses the wire, then code, message and details survive', () => {
    const sent = toGrpcError(invalidArgument('The given data was invalid.', { email: ['must be an e-mail'] }));
    const received = fromGrpcError(asServiceError(sent), '/svc.identity.v1.IdentityService/StartEmailLogin');
    expect(received.code).toBe('INVALID_ARGUMENT');
    expect(received.message).toBe('The given data was invalid.');
    expect(received.details.fieldErrors).toEqual({ email: ['must be an e-mail'] });
    expect(received.stack).toContain('StartEmailLogin');
  });

  it('when the details hold non-ASCII text, then they cross the wire intact', () => {
    const sent = toGrpcError(invalidArgument('Données invalides: «é»', { é: ['unknown filter «é»'], voiceId: ['no voice named é'] }));
    const received = fromGrpcError(asServiceError(sent));
    expect(received.code).toBe('INVALID_ARGUMENT');
    expect(received.details.fieldErrors).toEqual({ é: ['unknown filter «é»'], voiceId: ['no voice named é'] });
  });

  it('when the details cannot be encoded, then the reply is INTERNAL instead of a throw', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const sent = toGrpcError(new DomainError('INVALID_ARGUMENT', 'x', { fieldErrors: circular as never }));
    expect(sent.code).toBe(status.INTERNAL);
    expect(sent.details).toBe('Internal server error.');
  });

  it('when anything else is thrown, then it becomes INTERNAL with a generic message', () => {
    const sent = toGrpcError(new TypeError('cannot read x of undefined at /srv/secret.ts:12'));
    expect(sent.code).toBe(status.INTERNAL);
    expect(sent.details).toBe('Internal server error.');
    expect(sent.isInternal).toBe(true);
  });

  it('when the transport fails, then the client sees a generic unavailable error', () => {
    const error = Object.assign(new Error('14 UNAVAILABLE: No connection established'), {
      code: status.UNAVAILABLE,
      details: 'No connection established. Last error: connect ECONNREFUSED 127.0.0.1:50051',
      metadata: new Metadata(),
    });
    const received = fromGrpcError(error);
    expect(received.code).toBe('UNAVAILABLE');
    expect(received.message).not.toContain('127.0.0.1');
  });
});

describe('HTTP mapping', () => {
  it.each([
    ['INVALID_ARGUMENT', 422],
    ['NOT_FOUND', 404],
    ['PERMISSION_DENIED', 403],
    ['UNAUTHENTICATED', 401],
    ['FAILED_PRECONDITION', 412],
    ['ALREADY_EXISTS', 409],
    ['ABORTED', 409],
    ['RESOURCE_EXHAUSTED', 429],
    ['UNAVAILABLE', 503],
    ['DEADLINE_EXCEEDED', 503],
  ] as const)('when the code is %s, then the status is %i', (code, expected) => {
    expect(httpStatusOf(new DomainError(code, 'x'))).toBe(expected);
  });

  it.each([
    ['INVALID_ARGUMENT', 'MALFORMED_REQUEST', 400],
    ['INVALID_ARGUMENT', 'UNSUPPORTED_MEDIA_TYPE', 415],
    ['RESOURCE_EXHAUSTED', 'FILE_TOO_LARGE', 413],
    ['FAILED_PRECONDITION', 'LAST_OWNER', 409],
    ['FAILED_PRECONDITION', 'KEY_LIMIT_REACHED', 409],
    ['FAILED_PRECONDITION', 'ISSUE_TAKES_NO_FILE', 409],
    ['FAILED_PRECONDITION', 'CHANGED_WHILE_SAVING', 409],
    ['FAILED_PRECONDITION', 'NO_DIGITAL_CONTENT', 422],
    ['FAILED_PRECONDITION', 'FILE_NOT_INGESTED', 422],
    ['FAILED_PRECONDITION', 'CONTENT_INVALID', 422],
    ['FAILED_PRECONDITION', 'NOT_FOR_SALE', 422],
    ['FAILED_PRECONDITION', 'CALLER_CONTEXT_MISSING', 403],
  ] as const)('when the code is %s with the reason %s, then the status is %i', (code, reason, expected) => {
    expect(httpStatusOf(new DomainError(code, 'x', { reason }))).toBe(expected);
  });

  it('when a domain names a reason, then the table gives its status, also across the wire', () => {
    expect(httpStatusOf(failedPrecondition('This issue is free: there is nothing to buy.', 'NOT_FOR_SALE'))).toBe(422);
    const received = fromGrpcError(asServiceError(toGrpcError(failedPrecondition('The store must keep an owner.', 'LAST_OWNER'))));
    expect(received.details.reason).toBe('LAST_OWNER');
    expect(httpStatusOf(received)).toBe(409);
  });

  it('when the reason belongs to another code or is unknown, then the code decides', () => {
    expect(httpStatusOf(new DomainError('NOT_FOUND', 'x', { reason: 'LAST_OWNER' }))).toBe(404);
    for (const reason of ['SOMETHING_NEWER', 'toString', '__proto__']) {
      expect(httpStatusOf(new DomainError('FAILED_PRECONDITION', 'x', { reason: reason as never }))).toBe(412);
    }
  });

  it('when a reason is sent, then only the reason travels, never an HTTP status', () => {
    const sent = toGrpcError(failedPrecondition('This issue has no digital content to read.', 'NO_DIGITAL_CONTENT'));
    const wire: unknown = JSON.parse(Buffer.from(sent.metadata.get('folio-error-details-bin')[0] as Buffer).toString('utf8'));
    expect(wire).toEqual({ reason: 'NO_DIGITAL_CONTENT' });
    const exact = toGrpcError(new DomainError('FAILED_PRECONDITION', 'free issue', { httpStatus: 422 }));
    expect(JSON.parse(Buffer.from(exact.metadata.get('folio-error-details-bin')[0] as Buffer).toString('utf8'))).toEqual({});
  });

  it('when the details carry an HTTP status or a key this code does not know, then they are ignored and the table decides', () => {
    const metadata = new Metadata();
    const sent = { reason: 'NOT_FOR_SALE', httpStatus: 409, retryAfterSeconds: 'soon', somethingNewer: { a: 1 } };
    metadata.set('folio-error-details-bin', Buffer.from(JSON.stringify(sent), 'utf8'));
    const received = fromGrpcError(Object.assign(asServiceError(toGrpcError(failedPrecondition('x'))), { metadata }));
    expect(received.details).toEqual({ reason: 'NOT_FOR_SALE' });
    expect(httpStatusOf(received)).toBe(422);
    metadata.set('folio-error-details-bin', Buffer.from(JSON.stringify({ httpStatus: 422 }), 'utf8'));
    expect(httpStatusOf(fromGrpcError(Object.assign(asServiceError(toGrpcError(failedPrecondition('x'))), { metadata })))).toBe(412);
  });

  it('when the HTTP layer of the gateway sets a status and a reason disagrees, then the reason wins', () => {
    expect(httpStatusOf(new DomainError('FAILED_PRECONDITION', 'x', { reason: 'LAST_OWNER', httpStatus: 422 }))).toBe(409);
  });

  it('when the error is internal, then the body hides the message', () => {
    expect(httpBodyOf(new DomainError('INTERNAL', 'db password wrong'))).toEqual({ message: 'Internal server error.' });
  });

  it('when validation fails, then the body has message and errors', () => {
    expect(httpBodyOf(invalidArgument('bad', { q: ['too short'] }))).toEqual({ message: 'bad', errors: { q: ['too short'] } });
    expect(httpBodyOf(invalidArgument('This issue is free.'))).toEqual({ message: 'This issue is free.', errors: {} });
    expect(httpBodyOf(new DomainError('INVALID_ARGUMENT', 'Not JSON.', { reason: 'MALFORMED_REQUEST' }))).toEqual({ message: 'Not JSON.', errors: {} });
    expect(httpBodyOf(new DomainError('NOT_FOUND', 'No such issue.'))).toEqual({ message: 'No such issue.' });
    expect(tooManyRequests('slow down', 30).details.retryAfterSeconds).toBe(30);
  });
});

describe('a dependency that is away for a moment', () => {
  class MongoNetworkError extends Error {
    override name = 'MongoNetworkError';
  }
  class PoolClearedError extends Error {
    override name = 'MongoPoolClearedError';
  }
  class MongoServerError extends Error {
    override name = 'MongoServerError';
    constructor(
      private readonly labels: string[],
      readonly code?: number,
    ) {
      super('write failed');
    }
    hasErrorLabel(label: string) {
      return this.labels.includes(label);
    }
  }

  it('when the store refuses the connection or its pool was reset, then UNAVAILABLE (a 503 with Retry-After), not INTERNAL', () => {
    const shuttingDown = new MongoServerError([], 11600); // InterruptedAtShutdown, without the label a MongoDB server would add
    for (const error of [
      new MongoNetworkError('connect ECONNREFUSED'),
      new PoolClearedError('pool cleared'),
      new MongoServerError(['RetryableWriteError']),
      shuttingDown,
      // The socket's own error, unwrapped by the driver: a write to the store's socket as the store restarts.
      Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      // insertMany on a pool cleared after a failure: the bulk error keeps only the pool error's label.
      new MongoServerError(['PoolRequstedRetry']),
      new Error('wrapped', { cause: new MongoNetworkError('connect ENOENT /run/docdb.sock') }),
    ]) {
      expect(isDependencyOutage(error)).toBe(true);
      expect(toGrpcError(error)).toMatchObject({ code: status.UNAVAILABLE, details: 'Service temporarily unavailable.', isInternal: false, isOutage: true });
    }
  });

  it('when the error is anything else, then INTERNAL as before', () => {
    for (const error of [
      new Error('boom'),
      new MongoServerError([]),
      new MongoServerError([], 11000),
      Object.assign(new Error('no such file'), { code: 'ENOENT' }),
      'a string',
      null,
    ]) {
      expect(isDependencyOutage(error)).toBe(false);
      expect(toGrpcError(error)).toMatchObject({ code: status.INTERNAL, isInternal: true });
    }
  });
});
