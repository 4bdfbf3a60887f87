// The app's languages and how a client's language code is read.
import { invalidArgument } from '@folio/errors';

/** The languages of the app, of the local engines and of the voices. */
export const APP_LANGUAGES = ['en', 'es', 'pt', 'it'] as const;
export type AppLanguage = (typeof APP_LANGUAGES)[number];

export function isAppLanguage(value: string): value is AppLanguage {
  return (APP_LANGUAGES as readonly string[]).includes(value);
}

/**
 * The ISO 639-1 base of a language tag: `pt-BR` and `pt_br` are `pt`, `EN` is
 * `en`. Undefined for anything that is not a language tag.
 */
export function baseLanguage(tag: string | undefined): string | undefined {
  if (tag === undefined) return undefined;
  const match = /^\s*([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*\s*$/.exec(tag);
  return match ? match[1]!.toLowerCase() : undefined;
}

/** An app language from a tag, falling back along `fallbacks` and finally to English. */
export function appLanguageOr(...tags: (string | undefined)[]): AppLanguage {
  for (const tag of tags) {
    const base = baseLanguage(tag);
    if (base && isAppLanguage(base)) return base;
  }
  return 'en';
}

/** A client-sent language that must be an app language (422 naming `field` otherwise). */
export function requireAppLanguage(field: string, tag: string): AppLanguage {
  const base = baseLanguage(tag);
  if (!base || !isAppLanguage(base)) {
    throw invalidArgument('The given data was invalid.', { [field]: [`The ${field} must be one of: ${APP_LANGUAGES.join(', ')}.`] });
  }
  return base;
}
