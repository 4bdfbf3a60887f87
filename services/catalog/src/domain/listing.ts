// What a listing answers, as facts: which shelf a section is, the filter
// that lists it again, its items with their commerce fields, page meta. The
// gateway titles, labels and formats them for the client.
import type { IssueRecord } from './catalog-view.js';
import type { AccessReason, PriceView } from './ports.js';

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
}

export interface ListedIssue {
  issue: IssueRecord;
  commerce?: CommerceView;
}

export type SectionKind = 'continue_reading' | 'latest_issues' | 'collection' | 'search' | 'my_content';

/** The filter that lists a section again: `section=latest_issues`, `section=<collection slug>`, `search=<query>`. */
export interface SectionFilter {
  name: string;
  value: string;
}

export interface SectionView {
  kind: SectionKind;
  filter: SectionFilter;
  /** A collection's title by language as the tenant wrote it; absent for the other kinds. */
  collectionTitles?: Readonly<Record<string, string>>;
  data: ListedIssue[];
  meta?: PageMetaView;
}

/** Fills `{placeholders}` of a URL template. */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? encodeURIComponent(String(values[key])) : whole));
}
