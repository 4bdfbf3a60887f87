// The spec's `YYYY-MM-DD hh:mm:ss` date-times, always UTC.

export function formatDateTime(date: Date): string {
  return date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, '');
}

export function parseDateTime(text: string | null | undefined): Date | null {
  if (!text) return null;
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (!match) {
    const parsed = new Date(text);
    return Number.isNaN(parsed.getTime()) ? null : parsed;
  }
  const parsed = new Date(`${match[1]}T${match[2]}${match[3] ?? 'Z'}`);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}
