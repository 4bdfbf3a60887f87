// OPDS 2.0 (application/opds+json): the catalog model rendered as feeds of
// the OPDS 2.0 draft, whose published JSON Schema the e2e tests validate
// every answer against. Two schema rules shape the output: a feed holds at
// least one of `navigation`, `publications` or `groups`, each non-empty when
// present (an empty result keeps a navigation link back to the catalog), and
// `images` needs a raster image: a generated SVG cover comes with its PNG
// rendition (model.ts, coverImagesOf), and a cover without a raster form is
// linked in `links` (rel http://opds-spec.org/image) instead.
import { STATUS_CODES } from 'node:http';
import { readiumAccessibility, type ReadiumAccessibility } from './accessibility.js';
import { coverImagesOf, MEDIA_TYPE, REL, relOf, type CoverImage, type Destination, type Feed, type PublicationEntry } from './model.js';

export interface Opds2Link {
  href: string;
  rel?: string | string[];
  type?: string;
  title?: string;
  templated?: boolean;
  properties?: {
    numberOfItems?: number;
    price?: { currency: string; value: number };
    indirectAcquisition?: { type: string }[];
    /** Where to sign in before following the link (the OPDS Progression draft's hint). */
    authenticate?: { href: string; type: string };
  };
}

export interface Opds2Publication {
  metadata: {
    '@type': string;
    identifier: string;
    title: string;
    language?: string;
    published?: string;
    description?: string;
    author?: string;
    publisher?: string;
    numberOfPages?: number;
    duration?: number;
    /** Readium's accessibility object (webpub-manifest a11y.schema.json), which OPDS 2.0 metadata takes. */
    accessibility?: ReadiumAccessibility;
  };
  links: Opds2Link[];
  images?: CoverImage[];
}

export interface Opds2Feed {
  metadata: {
    title: string;
    modified: string;
    currentPage?: number;
    itemsPerPage?: number;
    numberOfItems?: number;
  };
  links: Opds2Link[];
  navigation?: Opds2Link[];
  publications?: Opds2Publication[];
}

/** Authentication for OPDS 1.0: how to sign in (HTTP Basic with e-mail and device key). */
export interface Opds2AuthenticationDocument {
  id: string;
  title: string;
  description: string;
  authentication: { type: string; labels: { login: string; password: string } }[];
  links: Opds2Link[];
}

export function opds2Href(storeUrl: string, destination: Destination): string {
  const base = `${storeUrl}/opds/v2`;
  switch (destination.to) {
    case 'catalog':
      return `${base}/catalog`;
    case 'publications': {
      const query = new URLSearchParams();
      if (destination.collection) query.set('collection', destination.collection);
      if (destination.page && destination.page > 1) query.set('page', String(destination.page));
      const text = query.toString();
      return `${base}/publications${text ? `?${text}` : ''}`;
    }
    case 'search': {
      const query = new URLSearchParams({ query: destination.query });
      if (destination.page && destination.page > 1) query.set('page', String(destination.page));
      return `${base}/search?${query}`;
    }
    case 'shelf':
      return `${base}/shelf${destination.cursor ? `?${new URLSearchParams({ cursor: destination.cursor })}` : ''}`;
  }
}

const SCHEMA_TYPE: Record<string, string> = {
  epub: 'http://schema.org/Book',
  pdf: 'http://schema.org/Periodical',
  audio: 'http://schema.org/Audiobook',
};

export function opds2Publication(entry: PublicationEntry): Opds2Publication {
  const links: Opds2Link[] = entry.acquisitions.map((acquisition) => ({
    rel: relOf(acquisition.kind),
    href: acquisition.href,
    type: acquisition.type,
    ...((acquisition.price || acquisition.indirectType) && {
      properties: {
        ...(acquisition.price && { price: acquisition.price }),
        ...(acquisition.indirectType && { indirectAcquisition: [{ type: acquisition.indirectType }] }),
      },
    }),
  }));
  if (entry.progressionHref) {
    // The draft asks for an `authenticate` hint where the service needs sign-in: the store's Authentication for OPDS document.
    const authenticate = { href: new URL('/opds/v2/authentication', entry.progressionHref).href, type: MEDIA_TYPE.opdsAuthentication };
    links.push({ rel: REL.progression, href: entry.progressionHref, type: MEDIA_TYPE.opdsProgression, properties: { authenticate } });
  }
  const images = coverImagesOf(entry.coverUrl);
  const hasRaster = images.some((image) => image.type !== 'image/svg+xml');
  if (!hasRaster) for (const image of images) links.push({ rel: REL.image, href: image.href, type: image.type });
  return {
    metadata: {
      '@type': SCHEMA_TYPE[entry.contentType] ?? 'http://schema.org/CreativeWork',
      identifier: entry.identifier,
      title: entry.title,
      ...(entry.language && { language: entry.language }),
      ...(entry.published && { published: entry.published }),
      ...(entry.description && { description: entry.description }),
      ...(entry.author && { author: entry.author }),
      ...(entry.publisher && { publisher: entry.publisher }),
      ...(entry.numberOfPages && { numberOfPages: entry.numberOfPages }),
      ...(entry.duration && { duration: entry.duration }),
      ...(entry.accessibility && { accessibility: readiumAccessibility(entry.accessibility) }),
    },
    links,
    ...(hasRaster && { images }),
  };
}

export function opds2Feed(storeUrl: string, feed: Feed): Opds2Feed {
  const href = (destination: Destination) => opds2Href(storeUrl, destination);
  const links: Opds2Link[] = [
    { rel: 'self', href: href(feed.self), type: MEDIA_TYPE.opds2 },
    { rel: 'start', href: href({ to: 'catalog' }), type: MEDIA_TYPE.opds2 },
    { rel: REL.shelf, href: href({ to: 'shelf' }), type: MEDIA_TYPE.opds2 },
  ];
  if (feed.searchable) links.push({ rel: 'search', href: `${storeUrl}/opds/v2/search{?query}`, type: MEDIA_TYPE.opds2, templated: true });
  if (feed.anonymous) links.push({ rel: REL.authDocument, href: `${storeUrl}/opds/v2/authentication`, type: MEDIA_TYPE.opdsAuthentication });
  const paging = feed.paging;
  if (paging?.first) links.push({ rel: 'first', href: href(paging.first), type: MEDIA_TYPE.opds2 });
  if (paging?.previous) links.push({ rel: 'previous', href: href(paging.previous), type: MEDIA_TYPE.opds2 });
  if (paging?.next) links.push({ rel: 'next', href: href(paging.next), type: MEDIA_TYPE.opds2 });
  if (paging?.last) links.push({ rel: 'last', href: href(paging.last), type: MEDIA_TYPE.opds2 });

  const navigation = feed.navigation.map((entry) => ({ href: href(entry.destination), title: entry.title, type: MEDIA_TYPE.opds2 }));
  const publications = feed.publications.map(opds2Publication);
  // The schema wants one non-empty collection: an empty page leads back to the catalog.
  if (navigation.length === 0 && publications.length === 0) navigation.push({ href: href({ to: 'catalog' }), title: feed.storeName, type: MEDIA_TYPE.opds2 });
  return {
    metadata: {
      title: feed.title,
      modified: feed.updated.toISOString(),
      ...(paging?.currentPage && { currentPage: paging.currentPage }),
      ...(paging && { itemsPerPage: paging.itemsPerPage }),
      ...(paging?.numberOfItems !== undefined && { numberOfItems: paging.numberOfItems }),
    },
    links,
    ...(navigation.length > 0 && { navigation }),
    ...(publications.length > 0 && { publications }),
  };
}

/** Problem Details for HTTP APIs (RFC 9457): `title` the status's phrase, `detail` what to do about it. */
export function problemDetails(status: number, detail: string, errors?: Record<string, string[]>) {
  return { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail, ...(errors && { errors }) };
}

export function opds2Authentication(storeUrl: string, storeName: string): Opds2AuthenticationDocument {
  return {
    id: `${storeUrl}/opds/v2/authentication`,
    title: storeName,
    description: 'Sign in with your e-mail address and a device key. Create a device key in the app: Profile, Device keys.',
    authentication: [{ type: 'http://opds-spec.org/auth/basic', labels: { login: 'E-mail', password: 'Device key' } }],
    links: [{ rel: 'start', href: `${storeUrl}/opds/v2/catalog`, type: MEDIA_TYPE.opds2 }],
  };
}
