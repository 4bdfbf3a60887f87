// The catalog an e-reader browses, independent of the OPDS version that
// renders it: feeds of navigation links or publications, with paging and
// search. catalog.ts builds these from the services' answers; opds2.ts (JSON)
// and opds1.ts (Atom) render them. Destinations are logical, so each version
// maps them to its own URLs.
import type { AccessibilityEntry } from './accessibility.js';

/** Where a link of the catalog leads, independent of the OPDS version. */
export type Destination =
  | { to: 'catalog' }
  | { to: 'publications'; collection?: string; page?: number }
  | { to: 'search'; query: string; page?: number }
  | { to: 'shelf'; cursor?: string };

export type AcquisitionKind = 'open-access' | 'acquisition' | 'buy';

export interface Acquisition {
  kind: AcquisitionKind;
  /** Absolute URL: the gateway's download route, or the purchase redirect for `buy`. */
  href: string;
  /** Media type of what the link returns (text/html for the purchase redirect). */
  type: string;
  /** For `buy`: the media type the buyer ends up with. */
  indirectType?: string;
  price?: { currency: string; value: number };
}

export interface PublicationEntry {
  issueId: number;
  /** `urn:folio:<tenant>:<issue>`. */
  identifier: string;
  title: string;
  /** BCP 47; absent when unknown. */
  language?: string;
  /** ISO 8601 date-time (UTC); absent when unknown. */
  published?: string;
  description: string;
  author: string;
  publisher: string;
  /** `epub` | `pdf` | `audio`. */
  contentType: string;
  coverUrl: string;
  numberOfPages?: number;
  /** Audiobooks: seconds, all tracks together (from reader). */
  duration?: number;
  /** What the file declares of its accessibility (accessibility.ts), within the published vocabularies. */
  accessibility?: AccessibilityEntry;
  acquisitions: Acquisition[];
  /** Absolute URL of its OPDS Progression (the reading position), on the shelf: issues the user can read. */
  progressionHref?: string;
}

export interface NavigationEntry {
  title: string;
  destination: Destination;
  /** Publications behind the link (acquisition feed) or more navigation. */
  leadsTo: 'publications' | 'navigation';
  /** Short text (Atom summary). */
  summary?: string;
}

export interface Paging {
  currentPage?: number;
  itemsPerPage: number;
  numberOfItems?: number;
  next?: Destination;
  previous?: Destination;
  first?: Destination;
  last?: Destination;
}

export interface Feed {
  self: Destination;
  title: string;
  /** The store's name: the feed's author and the catalog's title. */
  storeName: string;
  updated: Date;
  navigation: NavigationEntry[];
  publications: PublicationEntry[];
  paging?: Paging;
  /** False when the store has search turned off: no search link. */
  searchable: boolean;
  /** Browsed without credentials (a public catalog): the feed links the Authentication for OPDS document, so an app can offer to sign in. */
  anonymous?: boolean;
}

export const MEDIA_TYPE = {
  epub: 'application/epub+zip',
  pdf: 'application/pdf',
  audiobook: 'application/audiobook+json',
  html: 'text/html',
  opds2: 'application/opds+json',
  opds2Publication: 'application/opds-publication+json',
  opdsAuthentication: 'application/opds-authentication+json',
  opdsProgression: 'application/opds-progression+json',
  problem: 'application/problem+json',
  atom: 'application/atom+xml',
  atomNavigation: 'application/atom+xml;profile=opds-catalog;kind=navigation',
  atomAcquisition: 'application/atom+xml;profile=opds-catalog;kind=acquisition',
  opensearch: 'application/opensearchdescription+xml',
} as const;

/** The media type of the file an issue of this content type is acquired as. */
export function fileTypeOf(contentType: string): string | undefined {
  switch (contentType) {
    case 'epub':
      return MEDIA_TYPE.epub;
    case 'pdf':
      return MEDIA_TYPE.pdf;
    case 'audio':
      return MEDIA_TYPE.audiobook;
    default:
      return undefined;
  }
}

export const REL = {
  acquisition: 'http://opds-spec.org/acquisition',
  openAccess: 'http://opds-spec.org/acquisition/open-access',
  buy: 'http://opds-spec.org/acquisition/buy',
  image: 'http://opds-spec.org/image',
  thumbnail: 'http://opds-spec.org/image/thumbnail',
  shelf: 'http://opds-spec.org/shelf',
  authDocument: 'http://opds-spec.org/auth/document',
  progression: 'http://opds-spec.org/progression',
} as const;

export interface CoverImage {
  href: string;
  type: string;
  width?: number;
  height?: number;
}

const RASTER_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};

/**
 * The images of a cover, raster first (OPDS 2.0 requires one, and e-readers
 * draw no SVG): a generated SVG cover served by reader (`.../covers/<id>.svg`)
 * also has its PNG rendition beside it (`.png`, 600x900); a cover of another
 * format is given as it is.
 */
export function coverImagesOf(coverUrl: string): CoverImage[] {
  if (!coverUrl) return [];
  const path = coverUrl.split(/[?#]/)[0]!;
  if (/\/covers\/\d+\.svg$/.test(path)) {
    return [
      { href: coverUrl.replace(/\.svg(?=$|[?#])/, '.png'), type: 'image/png', width: 600, height: 900 },
      { href: coverUrl, type: 'image/svg+xml', width: 600, height: 900 },
    ];
  }
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  if (extension === 'svg') return [{ href: coverUrl, type: 'image/svg+xml' }];
  return [{ href: coverUrl, type: RASTER_TYPES[extension] ?? 'image/jpeg' }];
}

export const relOf = (kind: AcquisitionKind): string => (kind === 'buy' ? REL.buy : kind === 'open-access' ? REL.openAccess : REL.acquisition);
