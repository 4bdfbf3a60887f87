// Reads an EPUB (2 or 3) through the bounded archive reader and an XML DOM (@xmldom/xmldom): the
// package's metadata, spine and table of contents (EPUB 3 nav, else the NCX),
// and the text of every spine document cut into sections (block elements),
// each text node remembered with its CFI path so that a search hit can point
// at a character range (`epubcfi(/6/4[idref]!/4/2/6,/1:120,/1:128)`).
import { DOMParser } from '@xmldom/xmldom';
import { ArchiveError, BoundedZip, DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from '../archive/zip-reader.js';
import type { TextSegment } from '../search/text-index.js';
import { countWords } from '../search/text.js';
import {
  decodeXml,
  encryptionDeclarations,
  EpubPathError,
  expandInternalEntities,
  folderOf,
  nameInPackage,
  readPackageLayout,
  resolveHref,
  type PackageLayout,
} from './epub-package.js';
import { coverImageOf, MAX_COVER_BYTES, type CoverImage } from './cover.js';
import { readPackageMetadata, type PackageMetadata } from './epub-metadata.js';

export interface EpubChapter {
  /** The document's canonical name: decoded, relative to the package root (see epub-package.ts), as readers resolve spine items. */
  href: string;
  idref: string;
  title: string;
  words: number;
  /** The document's length in bytes (Readium positions: one per 1024 bytes). */
  bytes: number;
  /** Path of the document inside the zip. */
  path: string;
}

export interface EpubExtract {
  title: string;
  lang: string | null;
  author: string | null;
  /** Path of the package document inside the zip. */
  opfPath: string;
  spine: EpubChapter[];
  toc: { title: string; href: string }[];
  totalWords: number;
  segments: TextSegment[];
  /** What the package document says of the book (every creator, identifiers, layout, accessibility, ...). */
  metadata: PackageMetadata;
  /** Spine documents but the navigation document: the book's chapters. */
  chapters: number;
  /** The book's own cover image (JPEG, PNG or GIF within the size a cover may have), null when it has none reader can show. */
  cover: CoverImage | null;
}

export class InvalidContentError extends Error {
  override readonly name = 'InvalidContentError';
}

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;

/** Elements whose text forms its own section (paragraph-like). */
const BLOCKS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
  'blockquote',
  'pre',
  'dd',
  'dt',
  'figcaption',
  'caption',
  'td',
  'th',
  'div',
  'section',
  'article',
  'aside',
  'header',
  'footer',
  'body',
  'address',
  'table',
  'ul',
  'ol',
  'dl',
  'figure',
]);
const SKIPPED = new Set(['script', 'style', 'head', 'rt', 'rp']);

type XNode = {
  nodeType: number;
  localName?: string | null;
  nodeName: string;
  data?: string;
  textContent?: string | null;
  childNodes: { length: number; item(index: number): XNode | null };
  getAttribute?(name: string): string | null;
  getAttributeNS?(namespace: string | null, name: string): string | null;
};

function children(node: XNode): XNode[] {
  const list: XNode[] = [];
  for (let i = 0; i < node.childNodes.length; i++) list.push(node.childNodes.item(i)!);
  return list;
}

function elements(node: XNode, name?: string): XNode[] {
  return children(node).filter((child) => child.nodeType === ELEMENT && (!name || localName(child) === name));
}

function localName(node: XNode): string {
  return (node.localName ?? node.nodeName.replace(/^.*:/, '')).toLowerCase();
}

function descendants(node: XNode, name: string): XNode[] {
  const found: XNode[] = [];
  const visit = (current: XNode) => {
    for (const child of elements(current)) {
      if (localName(child) === name) found.push(child);
      visit(child);
    }
  };
  visit(node);
  return found;
}

function text(node: XNode | undefined): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function parseXml(source: string, what: string): XNode {
  const errors: string[] = [];
  let document: { documentElement: XNode | null };
  try {
    document = new DOMParser({
      onError: (level: string, message: string) => {
        if (level !== 'warning') errors.push(message);
      },
    }).parseFromString(expandInternalEntities(source), 'application/xhtml+xml') as unknown as { documentElement: XNode | null };
  } catch (error) {
    // Entities past their bound, or a fatal error xmldom throws (an unclosed tag).
    errors.push((error as Error).message);
    document = { documentElement: null };
  }
  if (!document.documentElement || errors.length) throw new InvalidContentError(`${what} is not well-formed XML${errors[0] ? `: ${errors[0]}` : ''}`);
  return document.documentElement;
}

/** An XML document of the package, held to the archive's XML cap while it inflates. */
async function readEntry(zip: BoundedZip, path: string): Promise<string> {
  return (await readDocument(zip, path)).text;
}

/** The document's text (decoded as an XML parser would) and its length in bytes as stored. */
async function readDocument(zip: BoundedZip, path: string): Promise<{ text: string; bytes: number }> {
  let data: Buffer | null;
  try {
    data = await zip.readXml(path);
  } catch (error) {
    throw error instanceof ArchiveError ? new InvalidContentError(error.message) : error;
  }
  if (!data) throw new InvalidContentError(`the EPUB has no ${path}`);
  return { text: decodeXml(data), bytes: data.length };
}

export interface ReadEpubOptions {
  limits?: ArchiveLimits;
  /** Aborts the reading (the ingest's deadline). */
  signal?: AbortSignal;
}

export async function readEpub(data: Buffer | Uint8Array, options: ReadEpubOptions = {}): Promise<EpubExtract> {
  let zip: BoundedZip;
  try {
    const buffer = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    zip = await BoundedZip.fromBuffer(buffer, options.limits ?? DEFAULT_ARCHIVE_LIMITS, { label: 'the EPUB', signal: options.signal });
  } catch (error) {
    throw error instanceof ArchiveError ? new InvalidContentError(error.message) : error;
  }
  const mimetype = zip.has('mimetype') ? await readEntry(zip, 'mimetype') : undefined;
  if (mimetype?.trim() !== 'application/epub+zip') throw new InvalidContentError('the EPUB has no application/epub+zip mimetype');

  let layout: PackageLayout;
  try {
    layout = await readPackageLayout(async (path) => (zip.has(path) ? readEntry(zip, path) : null));
  } catch (error) {
    throw error instanceof EpubPathError ? new InvalidContentError(error.message) : error;
  }
  const { opfPath, root } = layout;
  // Obfuscated fonts are read (the package path serves them de-obfuscated); anything encrypted otherwise is DRM.
  try {
    const { encrypted } = encryptionDeclarations(zip.has('META-INF/encryption.xml') ? await readEntry(zip, 'META-INF/encryption.xml') : null);
    if (encrypted.length > 0) {
      throw new InvalidContentError(
        `the EPUB is encrypted (DRM) and cannot be read: ${encrypted.length} file${encrypted.length === 1 ? '' : 's'} (${encrypted.slice(0, 3).join(', ')}); only font obfuscation is supported`,
      );
    }
  } catch (error) {
    throw error instanceof EpubPathError ? new InvalidContentError(error.message) : error;
  }
  const opf = parseXml(layout.opfSource, opfPath);

  const manifest = layout.items;

  // The spine's CFI step: its position among the package element's children.
  const packageChildren = elements(opf);
  const spineElement = packageChildren.find((child) => localName(child) === 'spine');
  if (!spineElement) throw new InvalidContentError('the package document has no spine');
  const spineStep = (packageChildren.indexOf(spineElement) + 1) * 2;
  const metadata = readPackageMetadata(opf, manifest, spineElement);
  const title = metadata.title || 'Untitled';
  const lang = metadata.lang || null;
  const author = metadata.authors[0] ?? null;
  let chapters = 0;

  const spine: EpubChapter[] = [];
  const segments: TextSegment[] = [];
  let totalWords = 0;
  const itemrefs = elements(spineElement, 'itemref');
  for (const [index, itemref] of itemrefs.entries()) {
    const idref = itemref.getAttribute?.('idref') ?? '';
    const item = manifest.get(idref);
    if (!item) throw new InvalidContentError(`spine item ${idref} is not in the manifest`);
    const path = item.path;
    if (!path) throw new InvalidContentError(`spine item ${idref} (${item.href}) is outside the EPUB`);
    const { text: source, bytes } = await readDocument(zip, path);
    const document = parseXml(source, path);
    const docStep = `/${spineStep}/${(index + 1) * 2}[${idref}]`;
    // A navigation document in the spine is read like any chapter but not indexed: a search
    // should find the text, not its table of contents.
    const isNav = item.properties.split(/\s+/).includes('nav');
    if (!isNav) chapters += 1;
    const sections = isNav ? [] : extractSections(document);
    const page = spine.length + 1;
    let pageOffset = 0;
    let words = 0;
    sections.forEach((section, sectionIndex) => {
      segments.push({ page, section: sectionIndex + 1, text: section.text, pageOffset, cfi: { doc: docStep, runs: section.runs } });
      pageOffset += section.text.length + 2;
      words += countWords(section.text);
    });
    const heading = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => descendants(document, h)[0]).find(Boolean);
    const docTitle = text(heading) || text(descendants(document, 'title')[0]);
    spine.push({ href: nameInPackage(root, path), idref, title: docTitle, words, bytes, path });
    totalWords += words;
  }
  if (spine.length === 0) throw new InvalidContentError('the spine is empty');

  const toc = await readToc(zip, root, manifest, spineElement);
  // The files never parsed here (images, fonts, styles) are what readers fetch: each is inflated once,
  // with a count, so that a bomb hidden outside the spine fails the ingest instead of a reader's request.
  await zip.verifyAll().catch((error: unknown) => {
    throw error instanceof ArchiveError ? new InvalidContentError(error.message) : error;
  });
  // A chapter without a heading takes its title from the table of contents.
  for (const chapter of spine) {
    if (!chapter.title) chapter.title = toc.find((entry) => entry.href.split('#')[0] === chapter.href)?.title ?? '';
  }
  // The cover image, once every file proved to be what it declares; one reader cannot show is no cover.
  const coverPath = metadata.cover_item ? manifest.get(metadata.cover_item)?.path : null;
  const coverData = coverPath ? await zip.read(coverPath, MAX_COVER_BYTES).catch(() => null) : null;
  const cover = coverData ? coverImageOf(coverData) : null;
  return {
    title,
    lang,
    author,
    opfPath,
    spine,
    toc: toc.length ? toc : spine.map((c) => ({ title: c.title, href: c.href })),
    totalWords,
    segments,
    metadata,
    chapters,
    cover,
  };
}

/** EPUB 3 nav (`nav[epub:type=toc]`), else the EPUB 2 NCX; hrefs by their canonical names (relative to the package root). */
async function readToc(zip: BoundedZip, root: string, manifest: PackageLayout['items'], spine: XNode): Promise<{ title: string; href: string }[]> {
  const inPackage = (fromDir: string, href: string) => {
    const resolved = resolveHref(fromDir, href);
    if (!resolved || !resolved.path) return null;
    const name = nameInPackage(root, resolved.path);
    return resolved.fragment ? `${name}#${resolved.fragment}` : name;
  };
  const navItem = [...manifest.values()].find((item) => item.path && item.properties.split(/\s+/).includes('nav'));
  if (navItem?.path) {
    const navPath = navItem.path;
    const nav = parseXml(await readEntry(zip, navPath), navPath);
    const navs = descendants(nav, 'nav');
    const tocNav =
      navs.find((element) =>
        (element.getAttributeNS?.('http://www.idpf.org/2007/ops', 'type') ?? element.getAttribute?.('epub:type') ?? '').split(/\s+/).includes('toc'),
      ) ?? navs[0];
    if (tocNav) {
      return descendants(tocNav, 'a').flatMap((a) => {
        const href = a.getAttribute?.('href') ? inPackage(folderOf(navPath), a.getAttribute!('href')!) : null;
        return href ? [{ title: text(a), href }] : [];
      });
    }
  }
  const ncxId = spine.getAttribute?.('toc');
  const ncxItem = (ncxId && manifest.get(ncxId)) || [...manifest.values()].find((item) => item.mediaType === 'application/x-dtbncx+xml');
  if (ncxItem?.path) {
    const ncxPath = ncxItem.path;
    const ncx = parseXml(await readEntry(zip, ncxPath), ncxPath);
    return descendants(ncx, 'navpoint').flatMap((point) => {
      const href = inPackage(folderOf(ncxPath), elements(point, 'content')[0]?.getAttribute?.('src') ?? '');
      return href ? [{ title: text(descendants(point, 'text')[0]), href }] : [];
    });
  }
  return [];
}

interface Section {
  text: string;
  runs: { at: number; path: number[]; base: number }[];
}

/**
 * The document's text grouped by nearest block ancestor, in document order,
 * each text node with its CFI steps from the root element (even = element,
 * odd = text chunk between elements).
 */
function extractSections(root: XNode): Section[] {
  const sections: Section[] = [];
  const byBlock = new Map<XNode, Section>();
  const visit = (node: XNode, path: number[], block: XNode) => {
    let elementCount = 0;
    let chunkStep = -1;
    let chunkLength = 0;
    for (const child of children(node)) {
      if (child.nodeType === ELEMENT) {
        elementCount += 1;
        const name = localName(child);
        if (SKIPPED.has(name)) continue;
        visit(child, [...path, elementCount * 2], BLOCKS.has(name) ? child : block);
      } else if (child.nodeType === TEXT || child.nodeType === CDATA) {
        const step = elementCount * 2 + 1;
        if (step !== chunkStep) {
          chunkStep = step;
          chunkLength = 0;
        }
        const data = child.data ?? '';
        const base = chunkLength;
        chunkLength += data.length;
        if (data.trim() === '' && !byBlock.has(block)) continue;
        let section = byBlock.get(block);
        if (!section) {
          section = { text: '', runs: [] };
          byBlock.set(block, section);
          sections.push(section);
        }
        section.runs.push({ at: section.text.length, path: [...path, step], base });
        section.text += data;
      }
    }
  };
  // Only the body is content; its step among the root's children starts every path.
  let elementCount = 0;
  for (const child of children(root)) {
    if (child.nodeType !== ELEMENT) continue;
    elementCount += 1;
    if (localName(child) === 'body') visit(child, [elementCount * 2], child);
  }
  return sections.filter((section) => section.text.trim() !== '');
}
