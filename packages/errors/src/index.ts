// The one error type that crosses service boundaries. It carries a gRPC
// status code and a message that is safe to show a client; anything else is
// an internal error whose stack is logged and never sent.
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';

export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'PERMISSION_DENIED'
  | 'UNAUTHENTICATED'
  | 'FAILED_PRECONDITION'
  | 'ALREADY_EXISTS'
  | 'ABORTED'
  | 'RESOURCE_EXHAUSTED'
  | 'UNAVAILABLE'
  | 'DEADLINE_EXCEEDED'
  | 'UNIMPLEMENTED'
  | 'INTERNAL';

/**
 * What happened, named by the domain, where the code alone does not say how
 * the HTTP edge answers (FAILED_PRECONDITION is 412, 409, 422 or 403 in the
 * spec). A domain names the reason; the one table below, REASON_STATUS, turns
 * (code, reason) into the HTTP status, so no service chooses a status itself.
 */
export type ErrorReason =
  /** The request is not one the API takes at all (an unknown social provider): 400, not 422. */
  | 'MALFORMED_REQUEST'
  /** The file's media type is not one the issue takes. */
  | 'UNSUPPORTED_MEDIA_TYPE'
  /** The file is over the upload size limit (not a rate limit's 429). */
  | 'FILE_TOO_LARGE'
  /** The change would leave a store without an owner. */
  | 'LAST_OWNER'
  /** The owner already holds as many keys (device or publisher API keys) as allowed. */
  | 'KEY_LIMIT_REACHED'
  /** The issue has no digital content to read or download (a physical issue). */
  | 'NO_DIGITAL_CONTENT'
  /** The file exists but is not served as a download until it is ingested again. */
  | 'FILE_NOT_INGESTED'
  /** The stored content breaks the limits it is read under, so nothing can be built from it. */
  | 'CONTENT_INVALID'
  /** The issue cannot be bought: off sale, free, pay-per-use, unpriced, or the store is free access. */
  | 'NOT_FOR_SALE'
  /** The issue's type takes no file. */
  | 'ISSUE_TAKES_NO_FILE'
  /** The record changed between reading and saving it; the client may try again. */
  | 'CHANGED_WHILE_SAVING'
  /** A service was called without the caller context it needs: a wiring bug of the caller, refused, never the client's fault. */
  | 'CALLER_CONTEXT_MISSING';

export interface ErrorDetails {
  /** Field name to reasons: the `errors` object of a 422 body. */
  fieldErrors?: Record<string, string[]>;
  /** Seconds a client should wait (429, 503). */
  retryAfterSeconds?: number;
  /** What happened, where the code alone does not fix the HTTP status (REASON_STATUS). */
  reason?: ErrorReason;
  /**
   * An exact HTTP status, set only by the gateway's own HTTP layer (it is the
   * HTTP edge: a body that is not JSON is a 400 before any service is asked).
   * It never crosses gRPC: it is left out of the metadata a service sends and
   * ignored in what a client receives, so for a service's error the one table,
   * REASON_STATUS, decides. Services name a `reason` instead.
   */
  httpStatus?: number;
}

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }
}

export const invalidArgument = (message: string, fieldErrors?: Record<string, string[]>) =>
  new DomainError('INVALID_ARGUMENT', message, fieldErrors ? { fieldErrors } : {});
export const notFound = (message: string) => new DomainError('NOT_FOUND', message);
export const permissionDenied = (message: string) => new DomainError('PERMISSION_DENIED', message);
export const unauthenticated = (message = 'Unauthenticated.') => new DomainError('UNAUTHENTICATED', message);
export const failedPrecondition = (message: string, reason?: ReasonOf<'FAILED_PRECONDITION'>) =>
  new DomainError('FAILED_PRECONDITION', message, reason ? { reason } : {});
export const conflict = (message: string) => new DomainError('ABORTED', message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) => new DomainError('RESOURCE_EXHAUSTED', message, { retryAfterSeconds });
export const unavailable = (message: string, retryAfterSeconds = 5) => new DomainError('UNAVAILABLE', message, { retryAfterSeconds });
export const unimplemented = (message: string) => new DomainError('UNIMPLEMENTED', message);

const GRPC_CODE: Record<ErrorCode, status> = {
  INVALID_ARGUMENT: status.INVALID_ARGUMENT,
  NOT_FOUND: status.NOT_FOUND,
  PERMISSION_DENIED: status.PERMISSION_DENIED,
  UNAUTHENTICATED: status.UNAUTHENTICATED,
  FAILED_PRECONDITION: status.FAILED_PRECONDITION,
  ALREADY_EXISTS: status.ALREADY_EXISTS,
  ABORTED: status.ABORTED,
  RESOURCE_EXHAUSTED: status.RESOURCE_EXHAUSTED,
  UNAVAILABLE: status.UNAVAILABLE,
  DEADLINE_EXCEEDED: status.DEADLINE_EXCEEDED,
  UNIMPLEMENTED: status.UNIMPLEMENTED,
  INTERNAL: status.INTERNAL,
};
const ERROR_CODE = Object.fromEntries(Object.entries(GRPC_CODE).map(([k, v]) => [v, k])) as Record<number, ErrorCode>;

/** The gateway's one table from error code to HTTP status (architecture brief). */
const HTTP_STATUS: Record<ErrorCode, number> = {
  INVALID_ARGUMENT: 422,
  NOT_FOUND: 404,
  PERMISSION_DENIED: 403,
  UNAUTHENTICATED: 401,
  FAILED_PRECONDITION: 412,
  ALREADY_EXISTS: 409,
  ABORTED: 409,
  RESOURCE_EXHAUSTED: 429,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 503,
  UNIMPLEMENTED: 501,
  INTERNAL: 500,
};

/**
 * The one table from (code, reason) to an HTTP status other than the code's
 * own: every reason belongs to exactly one code, and a reason sent with
 * another code (or one this gateway does not know yet, from a newer service)
 * falls back to the code's status.
 */
const REASON_STATUS = {
  MALFORMED_REQUEST: { code: 'INVALID_ARGUMENT', status: 400 },
  UNSUPPORTED_MEDIA_TYPE: { code: 'INVALID_ARGUMENT', status: 415 },
  FILE_TOO_LARGE: { code: 'RESOURCE_EXHAUSTED', status: 413 },
  LAST_OWNER: { code: 'FAILED_PRECONDITION', status: 409 },
  KEY_LIMIT_REACHED: { code: 'FAILED_PRECONDITION', status: 409 },
  ISSUE_TAKES_NO_FILE: { code: 'FAILED_PRECONDITION', status: 409 },
  CHANGED_WHILE_SAVING: { code: 'FAILED_PRECONDITION', status: 409 },
  NO_DIGITAL_CONTENT: { code: 'FAILED_PRECONDITION', status: 422 },
  FILE_NOT_INGESTED: { code: 'FAILED_PRECONDITION', status: 422 },
  CONTENT_INVALID: { code: 'FAILED_PRECONDITION', status: 422 },
  NOT_FOR_SALE: { code: 'FAILED_PRECONDITION', status: 422 },
  CALLER_CONTEXT_MISSING: { code: 'FAILED_PRECONDITION', status: 403 },
} as const satisfies Record<ErrorReason, { code: ErrorCode; status: number }>;

/** The reasons that belong to one code (a failedPrecondition takes only FAILED_PRECONDITION's). */
export type ReasonOf<C extends ErrorCode> = { [R in ErrorReason]: (typeof REASON_STATUS)[R]['code'] extends C ? R : never }[ErrorReason];

/** The table's status for the error's reason, when it has one this table knows for its code. */
function reasonStatusOf(error: DomainError): number | undefined {
  const { reason } = error.details;
  // The details came off the wire as JSON: a reason may be any string, "toString" included.
  if (typeof reason !== 'string' || !Object.hasOwn(REASON_STATUS, reason)) return undefined;
  const row: { code: ErrorCode; status: number } = REASON_STATUS[reason];
  return row.code === error.code ? row.status : undefined;
}

// Details travel as UTF-8 JSON in a binary (`-bin`) metadata entry: ASCII
// metadata values reject anything outside printable ASCII, and field names and
// reasons often echo what the client sent ("é"), which once made grpc-js throw
// inside the error path and took the whole process down.
const DETAILS_KEY = 'folio-error-details-bin';
const INTERNAL_MESSAGE = 'Internal server error.';

export interface GrpcErrorReply {
  code: status;
  details: string;
  metadata: Metadata;
  isInternal: boolean;
  /** A dependency of the service is away for a moment (answered UNAVAILABLE): log it, without a stack. */
  isOutage?: boolean;
}

/**
 * Errors of the document store's driver that mean "away for a moment" (the
 * store restarting, a connection refused, the pool reset after one): the
 * caller should retry later, so they are UNAVAILABLE (503 with Retry-After at
 * the gateway), never INTERNAL. Recognised by name and error label, so that
 * this package needs no driver.
 */
const OUTAGE_ERROR_NAMES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoPoolClearedError',
  'PoolClearedError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoServerClosedError',
]);
// PoolRequstedRetry (sic, the driver's spelling): a pool cleared after a network error; a bulk
// write (insertMany) that failed on it carries only this label, not the pool error's name.
const OUTAGE_LABELS = ['ResetPool', 'RetryableWriteError', 'TransientTransactionError', 'PoolRequstedRetry', 'PoolRequestedRetry'];
/**
 * Server error codes of a store that is shutting down, recovering, not (yet)
 * primary or cut off from its peers: the "state change" and network codes of
 * the MongoDB server discovery and monitoring spec. A server adds the
 * retryable label to them itself, but not every MongoDB-wire server does
 * (FerretDB does not), so they are recognised by code too.
 */
const OUTAGE_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);
/**
 * Node's codes of a connection that broke or could not be made. A driver
 * usually wraps them (MongoNetworkError), but not always: a write to the
 * store's socket just as the store restarts can reject with the socket's own
 * `write EPIPE` (seen on docdb's Unix socket in the fault suite). Whatever
 * the client, a dependency's connection breaking is an outage, not a bug.
 */
const OUTAGE_SYSTEM_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ENOTCONN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

export function isDependencyOutage(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object') return false;
  const { name, code, hasErrorLabel, cause } = error as { name?: unknown; code?: unknown; hasErrorLabel?: unknown; cause?: unknown };
  // An error that wraps an outage (a driver's wrapper around the socket's error) is one.
  if (cause && depth < 3 && isDependencyOutage(cause, depth + 1)) return true;
  if (typeof name === 'string' && OUTAGE_ERROR_NAMES.has(name)) return true;
  if (name === 'MongoServerError' && typeof code === 'number' && OUTAGE_CODES.has(code)) return true;
  if (typeof code === 'string' && OUTAGE_SYSTEM_CODES.has(code)) return true;
  if (typeof hasErrorLabel === 'function') {
    try {
      return OUTAGE_LABELS.some((label) => (hasErrorLabel as (label: string) => boolean).call(error, label));
    } catch {
      return false;
    }
  }
  return false;
}

/** The reply for a failure that could not even be described: never throws. */
export const internalReply = (): GrpcErrorReply => ({
  code: status.INTERNAL,
  details: INTERNAL_MESSAGE,
  metadata: new Metadata(),
  isInternal: true,
});

/**
 * What a gRPC handler sends for any thrown value; `isInternal` tells the caller
 * to log the stack. Never throws: details that cannot be encoded degrade to
 * INTERNAL rather than failing the reply.
 */
export function toGrpcError(error: unknown): GrpcErrorReply {
  if (!(error instanceof DomainError)) {
    if (!isDependencyOutage(error)) return internalReply();
    return { code: status.UNAVAILABLE, details: 'Service temporarily unavailable.', metadata: new Metadata(), isInternal: false, isOutage: true };
  }
  try {
    const metadata = new Metadata();
    metadata.set(DETAILS_KEY, Buffer.from(JSON.stringify(wireDetailsOf(error.details)), 'utf8'));
    return { code: GRPC_CODE[error.code], details: error.message, metadata, isInternal: error.code === 'INTERNAL' };
  } catch {
    return internalReply();
  }
}

/** The details that cross gRPC: everything but `httpStatus`, which belongs to the gateway's own HTTP layer. */
type WireDetails = Omit<ErrorDetails, 'httpStatus'>;

function wireDetailsOf(details: ErrorDetails): WireDetails {
  const { fieldErrors, retryAfterSeconds, reason } = details;
  return { ...(fieldErrors && { fieldErrors }), ...(retryAfterSeconds !== undefined && { retryAfterSeconds }), ...(reason && { reason }) };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The details as sent, keeping only the keys this code knows and of the
 * right type: a key it does not know (one a newer peer adds, or an
 * `httpStatus` an older service still sends) is ignored, never an error.
 */
function detailsOf(metadata: Metadata | undefined): { details: WireDetails; sent: boolean } {
  const raw = metadata?.get(DETAILS_KEY)?.[0];
  if (raw === undefined) return { details: {}, sent: false };
  try {
    const text = typeof raw === 'string' ? raw : raw.toString('utf8');
    const parsed: unknown = JSON.parse(text);
    if (!isPlainObject(parsed)) return { details: {}, sent: true };
    const { fieldErrors, retryAfterSeconds, reason } = parsed;
    return {
      details: {
        ...(isPlainObject(fieldErrors) && { fieldErrors: fieldErrors as Record<string, string[]> }),
        ...(typeof retryAfterSeconds === 'number' && { retryAfterSeconds }),
        ...(typeof reason === 'string' && { reason: reason as ErrorReason }),
      },
      sent: true,
    };
  } catch {
    return { details: {}, sent: true };
  }
}

/** Turns a client-side gRPC failure back into a DomainError; `method` names the call for logs. */
export function fromGrpcError(error: ServiceError, method?: string): DomainError {
  const code = ERROR_CODE[error.code] ?? 'INTERNAL';
  const { details, sent } = detailsOf(error.metadata);
  // Transport failures have no safe message of their own.
  const transport = code === 'UNAVAILABLE' || code === 'DEADLINE_EXCEEDED' || code === 'INTERNAL';
  const message = transport && !sent ? (code === 'INTERNAL' ? INTERNAL_MESSAGE : 'Service temporarily unavailable.') : error.details;
  const domainError = new DomainError(code, message, details);
  if (method) domainError.stack = `${domainError.name}: ${method}: ${error.message}`;
  return domainError;
}

/**
 * The HTTP status of an error: its reason's in REASON_STATUS, else the exact
 * `httpStatus` of the gateway's own HTTP layer (never a service's: it does
 * not cross gRPC), else its code's.
 */
export function httpStatusOf(error: DomainError): number {
  const { httpStatus } = error.details;
  return reasonStatusOf(error) ?? (typeof httpStatus === 'number' ? httpStatus : HTTP_STATUS[error.code]);
}

/**
 * The JSON body of an error response: `{message}`, and for a request the
 * client must change (400, 422) also `errors`, field name to reasons, as the
 * OpenAPI document promises: empty when the rule broken is not about one
 * field (an issue that cannot be bought, a body that is not JSON).
 */
export function httpBodyOf(error: DomainError): { message: string; errors?: Record<string, string[]> } {
  const status = httpStatusOf(error);
  const message = status >= 500 && status !== 501 && status !== 503 ? INTERNAL_MESSAGE : error.message;
  if (error.details.fieldErrors) return { message, errors: error.details.fieldErrors };
  return status === 400 || status === 422 ? { message, errors: {} } : { message };
}
