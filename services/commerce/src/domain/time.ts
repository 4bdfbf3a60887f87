// Wire formats of instants.

/** `YYYY-MM-DD hh:mm:ss` in UTC (the spec's date-time format). */
export function toSpecDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** ISO 8601 without milliseconds: `2031-01-01T00:00:00Z`. */
export function toIso(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Reads the dataset's date-times: ISO 8601, or `YYYY-MM-DD hh:mm:ss` taken as UTC. */
export function parseDateTime(value: string | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const spec = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(value);
  const date = new Date(spec ? `${spec[1]}T${spec[2]}Z` : value);
  if (Number.isNaN(date.getTime())) throw new Error(`not a date-time: ${value}`);
  return date;
}
