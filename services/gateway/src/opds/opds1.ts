// OPDS 1.2 (Atom, application/atom+xml;profile=opds-catalog): the catalog
// model rendered for readers that only speak 1.2, KOReader among them.
// Navigation feeds link `subsection`s, acquisition feeds carry one entry per
// publication with OPDS acquisition links (prices and the indirect
// acquisition on `buy`), search goes through an OpenSearch description.
//
// Accessibility: OPDS 1.2 has no element of its own for it, so an entry
// carries the properties EPUB Accessibility 1.1 puts in a package document,
// under the same names in their own namespaces: schema.org's accessMode,
// accessModeSufficient, accessibilityFeature, accessibilityHazard and
// accessibilitySummary, Dublin Core's conformsTo and the EPUB a11y
// vocabulary's certifiedBy. Those are the terms the EU accessibility guidance
// for e-books (the EAA's metadata, W3C's Accessibility Metadata Display Guide,
// ONIX's mapping) is written in, and what Atom feeds that carry
// schema.org metadata (Feedbooks' OPDS 1 catalogs, `schema:` elements) use,
// so a 1.2 reader that shows an EPUB's accessibility reads the same words
// here; readers that do not know them skip foreign elements, as Atom requires.
import type { AccessibilityEntry } from './accessibility.js';
import { coverImagesOf, MEDIA_TYPE, REL, relOf, type Destination, type Feed, type PublicationEntry } from './model.js';

export const NS = {
  atom: 'http://www.w3.org/2005/Atom',
  opds: 'http://opds-spec.org/2010/catalog',
  dc: 'http://purl.org/dc/terms/',
  opensearch: 'http://a9.com/-/spec/opensearch/1.1/',
  schema: 'http://schema.org/',
  a11y: 'http://www.idpf.org/epub/vocab/package/a11y/#',
} as const;

/** An entry's accessibility as schema.org, Dublin Core and EPUB a11y elements (see the top of this file). */
export function accessibilityElements(entry: AccessibilityEntry): string {
  const elements = (name: string, values: readonly string[]) => values.map((value) => `<${name}>${xmlText(value)}</${name}>`).join('');
  return (
    elements('dc:conformsTo', entry.conformsTo) +
    elements('schema:accessMode', entry.accessModes) +
    // Each a comma-separated set, as EPUB writes schema:accessModeSufficient.
    elements(
      'schema:accessModeSufficient',
      entry.accessModesSufficient.map((set) => set.join(',')),
    ) +
    elements('schema:accessibilityFeature', entry.features) +
    elements('schema:accessibilityHazard', entry.hazards) +
    (entry.summary ? elements('schema:accessibilitySummary', [entry.summary]) : '') +
    (entry.certifiedBy ? elements('a11y:certifiedBy', [entry.certifiedBy]) : '')
  );
}

const XML_UNSAFE = /[&<>"']|[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text or attribute value for XML 1.0: markup escaped, characters XML cannot carry dropped. */
export function xmlText(value: string): string {
  return value.replace(XML_UNSAFE, (char) => ENTITIES[char] ?? '');
}

interface AtomLink {
  rel: string;
  href: string;
  type: string;
  title?: string;
  /** Inner XML (opds:price, opds:indirectAcquisition), already escaped. */
  inner?: string;
}

function link({ rel, href, type, title, inner }: AtomLink): string {
  const attributes = `rel="${xmlText(rel)}" href="${xmlText(href)}" type="${xmlText(type)}"${title ? ` title="${xmlText(title)}"` : ''}`;
  return inner ? `<link ${attributes}>${inner}</link>` : `<link ${attributes}/>`;
}

export function opds1Href(storeUrl: string, destination: Destination): string {
  const base = `${storeUrl}/opds/v1.2`;
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

/** An ISO 8601 duration (`PT1H5M30S`), as Dublin Core suggests for `extent` of time-based media. */
export function playingTime(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const [hours, minutes, rest] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  return `PT${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${rest || whole === 0 ? `${rest}S` : ''}`;
}

const kindOf = (feed: Feed) => (feed.publications.length > 0 || feed.self.to !== 'catalog' ? MEDIA_TYPE.atomAcquisition : MEDIA_TYPE.atomNavigation);

function publicationEntry(entry: PublicationEntry, updated: string): string {
  const parts = [
    `<title>${xmlText(entry.title)}</title>`,
    `<id>${xmlText(entry.identifier)}</id>`,
    `<updated>${entry.published ?? updated}</updated>`,
    entry.author ? `<author><name>${xmlText(entry.author)}</name></author>` : '',
    entry.language ? `<dc:language>${xmlText(entry.language)}</dc:language>` : '',
    entry.published ? `<dc:issued>${entry.published.slice(0, 10)}</dc:issued>` : '',
    entry.publisher ? `<dc:publisher>${xmlText(entry.publisher)}</dc:publisher>` : '',
    entry.description ? `<summary type="text">${xmlText(entry.description)}</summary>` : '',
    // The size of the publication (Dublin Core `extent`): pages, or an audiobook's playing time.
    entry.numberOfPages ? `<dc:extent>${entry.numberOfPages} pages</dc:extent>` : '',
    entry.duration ? `<dc:extent>${playingTime(entry.duration)}</dc:extent>` : '',
    entry.accessibility ? accessibilityElements(entry.accessibility) : '',
    // The first image is the raster one when there is one: e-readers draw no SVG.
    ...coverImagesOf(entry.coverUrl)
      .slice(0, 1)
      .flatMap((image) => [link({ rel: REL.image, href: image.href, type: image.type }), link({ rel: REL.thumbnail, href: image.href, type: image.type })]),
    ...entry.acquisitions.map((acquisition) =>
      link({
        rel: relOf(acquisition.kind),
        href: acquisition.href,
        type: acquisition.type,
        ...((acquisition.price || acquisition.indirectType) && {
          inner:
            (acquisition.price ? `<opds:price currencycode="${xmlText(acquisition.price.currency)}">${acquisition.price.value}</opds:price>` : '') +
            (acquisition.indirectType ? `<opds:indirectAcquisition type="${xmlText(acquisition.indirectType)}"/>` : ''),
        }),
      }),
    ),
    entry.progressionHref ? link({ rel: REL.progression, href: entry.progressionHref, type: MEDIA_TYPE.opdsProgression }) : '',
  ];
  return `<entry>${parts.filter(Boolean).join('')}</entry>`;
}

export function opds1Feed(storeUrl: string, feed: Feed): string {
  const href = (destination: Destination) => opds1Href(storeUrl, destination);
  const updated = feed.updated.toISOString();
  const selfHref = href(feed.self);
  const links: AtomLink[] = [
    { rel: 'self', href: selfHref, type: kindOf(feed) },
    { rel: 'start', href: href({ to: 'catalog' }), type: MEDIA_TYPE.atomNavigation },
    { rel: REL.shelf, href: href({ to: 'shelf' }), type: MEDIA_TYPE.atomAcquisition },
  ];
  if (feed.searchable) links.push({ rel: 'search', href: `${storeUrl}/opds/v1.2/opensearch.xml`, type: MEDIA_TYPE.opensearch, title: 'Search' });
  // Authentication for OPDS covers OPDS 1.x catalogs too: one document for both versions.
  if (feed.anonymous) links.push({ rel: REL.authDocument, href: `${storeUrl}/opds/v2/authentication`, type: MEDIA_TYPE.opdsAuthentication });
  const paging = feed.paging;
  if (paging?.first) links.push({ rel: 'first', href: href(paging.first), type: MEDIA_TYPE.atomAcquisition });
  if (paging?.previous) links.push({ rel: 'previous', href: href(paging.previous), type: MEDIA_TYPE.atomAcquisition });
  if (paging?.next) links.push({ rel: 'next', href: href(paging.next), type: MEDIA_TYPE.atomAcquisition });
  if (paging?.last) links.push({ rel: 'last', href: href(paging.last), type: MEDIA_TYPE.atomAcquisition });

  const navigation = feed.navigation.map(
    (entry) =>
      `<entry><title>${xmlText(entry.title)}</title><id>${xmlText(href(entry.destination))}</id><updated>${updated}</updated>` +
      (entry.summary ? `<content type="text">${xmlText(entry.summary)}</content>` : '') +
      link({
        rel: 'subsection',
        href: href(entry.destination),
        type: entry.leadsTo === 'publications' ? MEDIA_TYPE.atomAcquisition : MEDIA_TYPE.atomNavigation,
      }) +
      '</entry>',
  );
  const totals =
    paging?.numberOfItems !== undefined && paging.currentPage
      ? `<opensearch:totalResults>${paging.numberOfItems}</opensearch:totalResults>` +
        `<opensearch:itemsPerPage>${paging.itemsPerPage}</opensearch:itemsPerPage>` +
        `<opensearch:startIndex>${(paging.currentPage - 1) * paging.itemsPerPage + 1}</opensearch:startIndex>`
      : '';
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<feed xmlns="${NS.atom}" xmlns:opds="${NS.opds}" xmlns:dc="${NS.dc}" xmlns:opensearch="${NS.opensearch}" xmlns:schema="${NS.schema}" xmlns:a11y="${NS.a11y}">` +
    `<id>${xmlText(selfHref)}</id><title>${xmlText(feed.title)}</title><updated>${updated}</updated>` +
    `<author><name>${xmlText(feed.storeName)}</name></author>` +
    links.map(link).join('') +
    totals +
    navigation.join('') +
    feed.publications.map((entry) => publicationEntry(entry, updated)).join('') +
    '</feed>\n'
  );
}

/**
 * An error as an OPDS 1.2 client reads it: a navigation feed titled with the problem, whose one
 * entry says what to do and leads back to the start feed (Atom readers show feeds, not JSON).
 */
export function opds1ErrorFeed(storeUrl: string, status: number, message: string, errors: Record<string, string[]> = {}): string {
  const updated = new Date().toISOString();
  const start = opds1Href(storeUrl, { to: 'catalog' });
  const reasons = Object.entries(errors).flatMap(([field, list]) => list.map((reason) => `${field}: ${reason}`));
  const text = [message, ...reasons].join(' ');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<feed xmlns="${NS.atom}" xmlns:opds="${NS.opds}">` +
    `<id>urn:folio:error:${status}</id><title>${xmlText(message)}</title><updated>${updated}</updated>` +
    link({ rel: 'start', href: start, type: MEDIA_TYPE.atomNavigation }) +
    `<entry><title>${xmlText(message)}</title><id>urn:folio:error:${status}:start</id><updated>${updated}</updated>` +
    `<content type="text">${xmlText(text)}</content>` +
    link({ rel: 'subsection', href: start, type: MEDIA_TYPE.atomNavigation, title: 'Back to the catalog' }) +
    '</entry></feed>\n'
  );
}

/** The OpenSearch description KOReader and others read the search template from. */
export function opds1OpenSearch(storeUrl: string, storeName: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<OpenSearchDescription xmlns="${NS.opensearch}">` +
    `<ShortName>${xmlText(storeName.slice(0, 16))}</ShortName>` +
    `<Description>${xmlText(`Search ${storeName}`)}</Description>` +
    '<InputEncoding>UTF-8</InputEncoding><OutputEncoding>UTF-8</OutputEncoding>' +
    `<Url type="${MEDIA_TYPE.atomAcquisition}" template="${xmlText(`${storeUrl}/opds/v1.2/search?query={searchTerms}`)}"/>` +
    '</OpenSearchDescription>\n'
  );
}
