// The safe messages identity's refusals carry; the spec fixes some of them word for word.
import { DomainError, invalidArgument, unauthenticated } from '@folio/errors';

export const INVALID_DATA = 'The given data was invalid.';

/** 401 `The given data was invalid.`: unknown user, dead session, bad refresh token. */
export const invalidCredentials = () => unauthenticated(INVALID_DATA);

/** 422 with the reasons per field. */
export const invalidFields = (fieldErrors: Record<string, string[]>) => invalidArgument(INVALID_DATA, fieldErrors);

/**
 * The fields whose text has a NUL character, each with its reason: storage
 * refuses NUL (PostgreSQL under FerretDB), so a caller that skipped the
 * gateway's check still gets INVALID_ARGUMENT, not INTERNAL.
 */
export function nulFieldErrors(fields: Record<string, string | null | undefined>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (value?.includes('\u0000')) errors[field] = [`The ${field.replace(/_/g, ' ')} must not contain NUL characters.`];
  }
  return errors;
}

/** INVALID_ARGUMENT that is not a request the API takes at all (an unknown social provider): 400 at the gateway, not 422. */
export const badRequest = (message: string) => new DomainError('INVALID_ARGUMENT', message, { reason: 'MALFORMED_REQUEST' });
