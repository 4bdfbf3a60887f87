// The rendered fields an older gateway reads (`Section.title` and its filter
// keys, `CommerceFields.status`, `IssueSummary.published_at`), computed from
// the facts for one release so that a gateway mid-rollout still answers as
// before. The gateway renders these itself now (its `render/`); the next
// release reserves the fields and this file goes with them.
import { isAtLeast } from '@folio/app-version';
import type { SectionView } from '../domain/listing.js';
import type { AccessReason } from '../domain/ports.js';

/** The deprecated request fields, as an older gateway fills them; a newer one leaves them empty. */
export interface DeprecatedRequestFields {
  lang?: string;
  /** Only the library RPCs carry it: their sections' filter keys follow it. */
  appBaseVersion?: string;
}

const LANGS = ['en', 'es', 'pt', 'it'] as const;
type Lang = (typeof LANGS)[number];

/** X-App-Lang as an older gateway sends it; empty or unknown is English. */
export function langOf(value: string | undefined): Lang {
  const lang = (value ?? '').trim().toLowerCase().slice(0, 2);
  return (LANGS as readonly string[]).includes(lang) ? (lang as Lang) : 'en';
}

const TITLES: Record<Exclude<SectionView['kind'], 'collection'>, Record<Lang, string>> = {
  continue_reading: { en: 'Continue reading', es: 'Continuar leyendo', pt: 'Continuar lendo', it: 'Continua a leggere' },
  latest_issues: { en: 'Latest issues', es: 'Últimas publicaciones', pt: 'Últimas publicações', it: 'Ultime pubblicazioni' },
  my_content: { en: 'My content', es: 'Mi contenido', pt: 'Meu conteúdo', it: 'I miei contenuti' },
  search: { en: 'Search results', es: 'Resultados de búsqueda', pt: 'Resultados da pesquisa', it: 'Risultati della ricerca' },
};

/** A section's title; a collection's in the language, else English, else its slug. */
export function sectionTitle(section: Pick<SectionView, 'kind' | 'filter' | 'collectionTitles'>, lang: Lang): string {
  if (section.kind !== 'collection') return TITLES[section.kind][lang];
  const titles = section.collectionTitles ?? {};
  return titles[lang] ?? titles.en ?? section.filter.value;
}

const STATUS: Record<'acquire' | 'read' | 'listen', Record<Lang, string>> = {
  acquire: { en: 'Acquire', es: 'Adquirir', pt: 'Adquirir', it: 'Acquista' },
  read: { en: 'Read', es: 'Leer', pt: 'Ler', it: 'Leggi' },
  listen: { en: 'Listen', es: 'Escuchar', pt: 'Ouvir', it: 'Ascolta' },
};

/** Listen: access and audio; Read: access otherwise; Acquire: no access. */
export function statusLabel(reason: AccessReason | null, type: string, lang: Lang): string {
  if (!reason) return STATUS.acquire[lang];
  return (type === 'audio' ? STATUS.listen : STATUS.read)[lang];
}

/** `YYYY-MM-DD hh:mm:ss` in UTC. */
export function formatDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** The version from which library sections carry `filter_params` instead of the name/value pair. */
const FILTER_PARAMS_SINCE = '1.28.0';

/** The filter keys an older gateway renders as they are present: the query-string form for new clients of the library, else the pair. */
export function filterKeys(
  filter: SectionView['filter'],
  appBaseVersion: string | undefined,
): { filterName?: string; filterValue?: string; filterParams?: string } {
  if (isAtLeast(appBaseVersion, FILTER_PARAMS_SINCE)) return { filterParams: new URLSearchParams({ [filter.name]: filter.value }).toString() };
  return { filterName: filter.name, filterValue: filter.value };
}
