// What an EPUB's package document says of the publication: every creator
// with its role (EPUB 2 `opf:role`, EPUB 3 `<meta refines="#id"
// property="role">`), publisher, language, description, identifiers (an ISBN
// as `urn:isbn:<digits>`), the layout (`rendition:layout`), the reading
// direction (the spine's page-progression-direction), whether the book has
// its own cover image, and its accessibility metadata (EPUB Accessibility
// 1.1: schema.org properties, `dcterms:conformsTo`, `a11y:certifiedBy`) in
// either the EPUB 3 form (`<meta property>` text) or the EPUB 2 form (`<meta
// name content>`).
import type { ContentAccessibility, ContentMetadata } from '../domain/repositories.js';

const ELEMENT = 1;
const OPF_NAMESPACE = 'http://www.idpf.org/2007/opf';

export type OpfNode = {
  nodeType: number;
  localName?: string | null;
  nodeName: string;
  textContent?: string | null;
  childNodes: { length: number; item(index: number): OpfNode | null };
  getAttribute?(name: string): string | null;
  getAttributeNS?(namespace: string | null, name: string): string | null;
};

/** The package's metadata; `chapters`, `number_of_pages` and `duration_seconds` are the caller's. */
export type PackageMetadata = Omit<ContentMetadata, 'chapters' | 'number_of_pages' | 'duration_seconds'> & {
  /** The cover image's manifest item id, when the book names one. */
  cover_item: string | null;
};

function elementsOf(node: OpfNode | undefined, name?: string): OpfNode[] {
  if (!node) return [];
  const found: OpfNode[] = [];
  for (let i = 0; i < node.childNodes.length; i++) {
    const child = node.childNodes.item(i)!;
    if (child.nodeType === ELEMENT && (!name || localNameOf(child) === name)) found.push(child);
  }
  return found;
}

function localNameOf(node: OpfNode): string {
  return (node.localName ?? node.nodeName.replace(/^.*:/, '')).toLowerCase();
}

function textOf(node: OpfNode | undefined): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

const attribute = (node: OpfNode, name: string) => (node.getAttribute?.(name) ?? '').trim();

/** The MARC relator code: EPUB 2 `opf:role` on the element, else an EPUB 3 `role` meta refining its id; '' when none. */
function roleOf(element: OpfNode, refinements: Map<string, Map<string, string[]>>): string {
  const epub2 = element.getAttributeNS?.(OPF_NAMESPACE, 'role') || element.getAttribute?.('opf:role') || '';
  if (epub2.trim()) return epub2.trim().toLowerCase();
  const id = attribute(element, 'id');
  return (id && refinements.get(id)?.get('role')?.[0]?.toLowerCase()) || '';
}

/** ISBN-10 or ISBN-13 digits when `value` is one (hyphens and spaces allowed, checksum verified), else null. */
export function isbnDigits(value: string): string | null {
  const digits = value
    .replace(/^(urn:)?isbn:?/i, '')
    .replace(/[\s-]/g, '')
    .toUpperCase();
  if (/^\d{13}$/.test(digits)) {
    const sum = [...digits].reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 1 : 3), 0);
    return sum % 10 === 0 ? digits : null;
  }
  if (/^\d{9}[\dX]$/.test(digits)) {
    const sum = [...digits].reduce((total, digit, index) => total + (digit === 'X' ? 10 : Number(digit)) * (10 - index), 0);
    return sum % 11 === 0 ? digits : null;
  }
  return null;
}

const UUID = /^(?:urn:uuid:)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * An identifier as a URN where it is one: an ISBN (by a `urn:isbn:`/`isbn:` prefix, an `opf:scheme` or
 * EPUB 3 identifier-type that says so, or a bare number that passes the checksum) as `urn:isbn:<digits>`,
 * a UUID as `urn:uuid:<uuid>`; anything else as written.
 */
export function normalizeIdentifier(value: string, scheme: string): string {
  const isbn = /^(urn:)?isbn:/i.test(value) || /isbn|^15$|^02$/i.test(scheme) || /^[\d\s-]{10,17}X?$/i.test(value) ? isbnDigits(value) : null;
  if (isbn) return `urn:isbn:${isbn}`;
  const uuid = UUID.exec(value);
  if (uuid) return `urn:uuid:${uuid[1]!.toLowerCase()}`;
  return value;
}

/** Text without markup: a description may carry escaped XHTML. */
function plainText(value: string): string {
  return value
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A list without repeats, in first-seen order. */
const unique = (values: string[]) => [...new Set(values.filter(Boolean))];

export function readPackageMetadata(
  opf: OpfNode,
  items: Map<string, { href: string; mediaType: string; properties: string }>,
  spine: OpfNode | undefined,
): PackageMetadata {
  const metadata = elementsOf(opf, 'metadata')[0];
  // Some EPUB 2 packages wrap the Dublin Core elements in <dc-metadata> and metas in <x-metadata>.
  const entries = elementsOf(metadata).flatMap((element) => (['dc-metadata', 'x-metadata'].includes(localNameOf(element)) ? elementsOf(element) : [element]));
  const dc = (name: string) => entries.filter((element) => localNameOf(element) === name);

  // Publication-level properties (EPUB 3 `<meta property>` without refines, EPUB 2 `<meta name content>`),
  // and refinements by the id they refine.
  const properties = new Map<string, string[]>();
  const refinements = new Map<string, Map<string, string[]>>();
  const add = (map: Map<string, string[]>, key: string, value: string) => {
    if (!value) return;
    map.set(key, [...(map.get(key) ?? []), value]);
  };
  for (const meta of entries.filter((element) => localNameOf(element) === 'meta')) {
    const property = attribute(meta, 'property');
    const refines = attribute(meta, 'refines').replace(/^#/, '');
    if (property && refines) {
      if (!refinements.has(refines)) refinements.set(refines, new Map());
      add(refinements.get(refines)!, property, textOf(meta));
    } else if (property) add(properties, property, textOf(meta));
    else if (attribute(meta, 'name')) add(properties, attribute(meta, 'name'), attribute(meta, 'content'));
  }
  const links = entries.filter((element) => localNameOf(element) === 'link');
  const linked = (rel: string) => links.filter((link) => attribute(link, 'rel').split(/\s+/).includes(rel)).map((link) => attribute(link, 'href'));

  // The main title: the one an EPUB 3 title-type names main, else the first.
  const titles = dc('title');
  const main = titles.find((title) => refinements.get(attribute(title, 'id'))?.get('title-type')?.[0] === 'main') ?? titles[0];

  const authors: string[] = [];
  const contributors: { name: string; role: string }[] = [];
  for (const creator of dc('creator')) {
    const name = textOf(creator);
    if (!name) continue;
    const role = roleOf(creator, refinements);
    if (!role || role === 'aut') authors.push(name);
    else contributors.push({ name, role });
  }
  // A book whose creators all have other roles (an anthology's editors): they are its authors.
  if (authors.length === 0 && contributors.length > 0) authors.push(...contributors.splice(0).map((contributor) => contributor.name));
  for (const contributor of dc('contributor')) {
    const name = textOf(contributor);
    if (name) contributors.push({ name, role: roleOf(contributor, refinements) || 'ctb' });
  }

  const identifiers = unique(
    dc('identifier').map((identifier) => {
      const value = textOf(identifier);
      const scheme =
        (identifier.getAttributeNS?.(OPF_NAMESPACE, 'scheme') || identifier.getAttribute?.('opf:scheme') || '').trim() ||
        (refinements.get(attribute(identifier, 'id'))?.get('identifier-type')?.[0] ?? '');
      return value ? normalizeIdentifier(value, scheme) : '';
    }),
  );

  const renditionLayout = properties.get('rendition:layout')?.[0];
  const fixed = renditionLayout === 'pre-paginated' || properties.get('fixed-layout')?.[0]?.toLowerCase() === 'true';
  const direction = (spine && attribute(spine, 'page-progression-direction').toLowerCase()) || '';

  // The cover: EPUB 3's `cover-image` item, else EPUB 2's <meta name="cover"> naming an image item.
  const itemList = [...items.entries()];
  const epub3Cover = itemList.find(([, item]) => item.properties.split(/\s+/).includes('cover-image'));
  const coverId = properties.get('cover')?.[0];
  const epub2Cover = coverId ? itemList.find(([id, item]) => id === coverId && item.mediaType.startsWith('image/')) : undefined;
  const cover = epub3Cover ?? epub2Cover;

  return {
    title: textOf(main),
    authors: unique(authors),
    contributors,
    publisher: textOf(dc('publisher')[0]),
    lang: languageTag(textOf(dc('language')[0])),
    description: plainText(textOf(dc('description')[0])),
    identifiers,
    layout: fixed ? 'fixed' : 'reflowable',
    reading_progression: direction === 'rtl' || direction === 'ltr' ? direction : 'auto',
    has_cover: cover !== undefined,
    cover_item: cover?.[0] ?? null,
    accessibility: accessibilityOf((name) => properties.get(name) ?? [], linked),
  };
}

/** EPUB Accessibility 1.1's package metadata; null when the book declares none of it. */
function accessibilityOf(property: (name: string) => string[], linked: (rel: string) => string[]): ContentAccessibility | null {
  // One term per meta as the specification writes it; some tools put several in one, comma-separated.
  const list = (name: string) => unique(property(`schema:${name}`).flatMap((value) => value.split(/\s*,\s*/)));
  const accessibility: ContentAccessibility = {
    conforms_to: unique([...property('dcterms:conformsTo'), ...linked('dcterms:conformsTo')]),
    access_modes: list('accessMode'),
    // Each value is one set of modes that suffice together: `textual,visual` stays one entry.
    access_modes_sufficient: unique(property('schema:accessModeSufficient').map((value) => value.split(/\s*,\s*/).join(','))),
    features: list('accessibilityFeature'),
    hazards: list('accessibilityHazard'),
    summary: property('schema:accessibilitySummary')[0] ?? null,
    certified_by: property('a11y:certifiedBy')[0] ?? null,
  };
  const declared =
    accessibility.conforms_to.length +
    accessibility.access_modes.length +
    accessibility.access_modes_sufficient.length +
    accessibility.features.length +
    accessibility.hazards.length;
  return declared > 0 || accessibility.summary !== null || accessibility.certified_by !== null ? accessibility : null;
}

/**
 * The language as a BCP 47 tag in its canonical case, or '' when the file's
 * value is none (pandoc writes the locale it ran in, `C`, when the document
 * names no language; `en_US` is a locale, taken as `en-US`).
 */
export function languageTag(value: string): string {
  try {
    return Intl.getCanonicalLocales(value.trim().replace(/_/g, '-'))[0] ?? '';
  } catch {
    return '';
  }
}
