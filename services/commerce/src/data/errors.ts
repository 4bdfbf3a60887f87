import { isDuplicateKeyError } from '@folio/mongo';

/** A unique index refused the write: someone else recorded the same thing first. */
export const isDuplicateKey = isDuplicateKeyError;
