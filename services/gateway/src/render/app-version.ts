// The client-version rules of the rendered answers (X-AppBase-Version, as
// @folio/app-version parses and compares it).
import type { AppVersion } from '@folio/app-version';

/** The version from which library sections carry `filter_params` instead of the name/value pair. */
const FILTER_PARAMS_SINCE = '1.28.0';

/** How a section's filter is shown: `filter_params` (a query string) or `filter_name` and `filter_value`. */
export type FilterKeys = 'query-string' | 'pair';

/**
 * The filter keys of library sections for the client's version: 1.28.0 or
 * later (numerically; a pre-release is before its release) gets the query
 * string, an older, missing or unreadable version the pair.
 */
export function libraryFilterKeys(appBaseVersion: AppVersion | undefined): FilterKeys {
  return appBaseVersion?.atLeast(FILTER_PARAMS_SINCE) ? 'query-string' : 'pair';
}
