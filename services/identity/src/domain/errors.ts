// The safe messages identity's refusals carry; the spec fixes some of them word for word.
import { DomainError, invalidArgument, unauthenticated } from '@folio/errors';

export const INVALID_DATA = 'The given data was invalid.';

/** 401 `The given data was invalid.`: unknown user, dead session, bad refresh token. */
export const invalidCredentials = () => unauthenticated(INVALID_DATA);

/** 422 with the reasons per field. */
export const invalidFields = (fieldErrors: Record<string, string[]>) => invalidArgument(INVALID_DATA, fieldErrors);

/** INVALID_ARGUMENT that the gateway must answer with 400, not 422 (e.g. an unknown social provider). */
export const badRequest = (message: string) => new DomainError('INVALID_ARGUMENT', message, { httpStatus: 400 });
