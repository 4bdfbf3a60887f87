// The client's language (X-App-Lang): the languages the gateway renders
// labels and titles in, and how a header value picks one.

export const LANGS = ['en', 'es', 'pt', 'it'] as const;
export type Lang = (typeof LANGS)[number];

/** `es`, `ES`, `es-AR` → `es`; anything unknown or absent → `en`. */
export function langOf(raw: string | undefined): Lang {
  const primary = raw
    ?.trim()
    .toLowerCase()
    .split(/[-_,;\s]/)[0];
  return (LANGS as readonly string[]).includes(primary ?? '') ? (primary as Lang) : 'en';
}
