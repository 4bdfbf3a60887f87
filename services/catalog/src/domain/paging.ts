// Validation of the paging parameters every listing shares.
import { invalidArgument } from '@folio/errors';

export const MAX_PAGE = 10_000;

/** `page`: 0 means the default 1; else 1..MAX_PAGE. */
export function pageParam(page: number): number {
  if (page === 0) return 1;
  if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) {
    throw invalidArgument('The page must be between 1 and 10000.', { page: [`The page must be between 1 and ${MAX_PAGE}.`] });
  }
  return page;
}

/** `per_page`: 0 means the default; else 1..100. */
export function perPageParam(perPage: number, fallback: number): number {
  if (perPage === 0) return fallback;
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
    throw invalidArgument('The per page must be between 1 and 100.', { per_page: ['The per page must be between 1 and 100.'] });
  }
  return perPage;
}
