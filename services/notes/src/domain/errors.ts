// The safe messages of the notes service's refusals.
import { invalidArgument, notFound, permissionDenied } from '@folio/errors';

export const INVALID_DATA = 'The given data was invalid.';

/** 422 with the reasons per field, keyed by the client's camelCase names. */
export const invalidFields = (fieldErrors: Record<string, string[]>) => invalidArgument(INVALID_DATA, fieldErrors);

/** 404: no such note, or not in the reader session's tenant and issue. */
export const noteNotFound = () => notFound('Note not found.');

/** 403: the spec's answer for a note of another user. */
export const notYourNote = () => permissionDenied('This note does not belong to you.');
