// How catalog data is shown to clients: languages and labels, dates, page
// meta, section filter keys by app version, cover and purchase links.
import { isAtLeast } from '@folio/app-version';
import type { IssueRecord } from './catalog-view.js';
import type { AccessReason, PriceView } from './ports.js';

export const LANGS = ['en', 'es', 'pt', 'it'] as const;
export type Lang = (typeof LANGS)[number];

/** X-App-Lang as sent; anything unknown is English. */
export function langOf(value: string | undefined): Lang {
  const lang = (value ?? '').trim().toLowerCase().slice(0, 2);
  return (LANGS as readonly string[]).includes(lang) ? (lang as Lang) : 'en';
}

const TITLES: Record<'continue_reading' | 'latest_issues' | 'my_content' | 'search', Record<Lang, string>> = {
  continue_reading: { en: 'Continue reading', es: 'Continuar leyendo', pt: 'Continuar lendo', it: 'Continua a leggere' },
  latest_issues: { en: 'Latest issues', es: 'Últimas publicaciones', pt: 'Últimas publicações', it: 'Ultime pubblicazioni' },
  my_content: { en: 'My content', es: 'Mi contenido', pt: 'Meu conteúdo', it: 'I miei contenuti' },
  search: { en: 'Search results', es: 'Resultados de búsqueda', pt: 'Resultados da pesquisa', it: 'Risultati della ricerca' },
};

export function sectionTitle(section: keyof typeof TITLES, lang: Lang): string {
  return TITLES[section][lang];
}

/** A collection's title in the language, else English, else its slug. */
export function collectionTitle(title: Readonly<Record<string, string>>, slug: string, lang: Lang): string {
  return title[lang] ?? title.en ?? slug;
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

export interface PageMetaView {
  currentPage: number;
  from: number | null;
  to: number | null;
  lastPage: number;
  perPage: number;
  total: number;
}

export function pageMeta(total: number, page: number, perPage: number, count: number): PageMetaView {
  const from = count > 0 ? (page - 1) * perPage + 1 : null;
  return {
    currentPage: page,
    from,
    to: from === null ? null : from + count - 1,
    lastPage: Math.max(1, Math.ceil(total / perPage)),
    perPage,
    total,
  };
}

export function pageSlice<T>(items: readonly T[], page: number, perPage: number): T[] {
  const start = (page - 1) * perPage;
  return items.slice(start, start + perPage);
}

/** The commerce fields of a storefront item. */
export interface CommerceView {
  canBeRead: boolean;
  canBeBought: boolean;
  accessReason: AccessReason | null;
  free: boolean;
  prices: PriceView[];
  purchaseLink: string | null;
  status: string;
}

export interface ListedIssue {
  issue: IssueRecord;
  commerce?: CommerceView;
}

export interface SectionView {
  filterName?: string;
  filterValue?: string;
  filterParams?: string;
  title: string;
  data: ListedIssue[];
  meta?: PageMetaView;
}

/** The version from which library sections carry `filter_params` instead of the name/value pair. */
const FILTER_PARAMS_SINCE = '1.28.0';

/** The @folio/app-version rule: numeric, a pre-release is before its release, a missing or unreadable version is an old one. */
export function wantsFilterParams(appBaseVersion: string | undefined): boolean {
  return isAtLeast(appBaseVersion, FILTER_PARAMS_SINCE);
}

/** The filter keys of a library section for the client's version. */
export function libraryFilterKeys(
  name: string,
  value: string,
  appBaseVersion: string | undefined,
): Pick<SectionView, 'filterName' | 'filterValue' | 'filterParams'> {
  if (wantsFilterParams(appBaseVersion)) return { filterParams: new URLSearchParams({ [name]: value }).toString() };
  return { filterName: name, filterValue: value };
}

/** Fills `{placeholders}` of a URL template. */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? encodeURIComponent(String(values[key])) : whole));
}
