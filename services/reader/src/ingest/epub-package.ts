// Where an EPUB's files are, the one rule the ingest, the package path of the
// media server and the preview builder share. container.xml and the package
// document are parsed as XML (whatever their quoting), every href is resolved
// against the folder of the document that holds it with URL semantics (a
// fragment or query cut off, percent-decoded once, `../` allowed while it stays
// inside the archive), and every file gets one canonical name: its path relative
// to the package root, the deepest folder holding the package document and all
// of its manifest items. For the usual package (items at or under the package
// document's folder) that root is the package document's folder, so names are
// the hrefs readers resolve against the package document; a package document
// in a nested folder that links `../text/ch1.xhtml` gets a higher root, so that
// no name needs `..` (which URLs collapse and the media path refuses).
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';

export class EpubPathError extends Error {
  override readonly name = 'EpubPathError';
}

type XmlElement = {
  getAttribute(name: string): string | null;
  getElementsByTagNameNS(namespace: string, name: string): ArrayLike<XmlElement>;
};

function parse(source: string, what: string): XmlElement {
  const errors: string[] = [];
  let document: { documentElement: XmlElement | null };
  try {
    document = new DOMParser({
      onError: (level: string, message: string) => {
        if (level !== 'warning') errors.push(message);
      },
    }).parseFromString(expandInternalEntities(source), 'text/xml') as unknown as { documentElement: XmlElement | null };
  } catch (error) {
    // xmldom throws on a fatal error (an unclosed tag).
    errors.push((error as Error).message);
    document = { documentElement: null };
  }
  if (!document.documentElement || errors.length) throw new EpubPathError(`${what} is not well-formed XML${errors[0] ? `: ${errors[0]}` : ''}`);
  return document.documentElement;
}

/** The zip path of the package document that container.xml names (the first OPF rootfile). */
export function packageDocumentPath(containerXml: string): string {
  const rootfiles = Array.from(parse(containerXml, 'container.xml').getElementsByTagNameNS('*', 'rootfile'));
  const rootfile =
    rootfiles.find((element) => (element.getAttribute('media-type') ?? 'application/oebps-package+xml').trim() === 'application/oebps-package+xml') ??
    rootfiles[0];
  const fullPath = rootfile?.getAttribute('full-path')?.trim();
  if (!fullPath) throw new EpubPathError('container.xml names no package document');
  // full-path is a path from the container's root, not relative to META-INF.
  const resolved = resolveHref('', fullPath.replace(/^\/+/, ''));
  if (!resolved || !resolved.path) throw new EpubPathError(`container.xml names a package document outside the archive: ${fullPath}`);
  return resolved.path;
}

/**
 * `href` resolved against `fromDir` (a folder inside the zip, '' at its root): the zip path and the
 * fragment, or null for an absolute URL (another scheme, `//host`) or a path that leaves the archive.
 */
export function resolveHref(fromDir: string, href: string): { path: string; fragment: string } | null {
  const hash = href.indexOf('#');
  const fragment = hash === -1 ? '' : href.slice(hash + 1);
  let file = hash === -1 ? href : href.slice(0, hash);
  const query = file.indexOf('?');
  if (query !== -1) file = file.slice(0, query);
  if (/^[a-z][a-z0-9+.-]*:/i.test(file) || file.startsWith('//')) return null;
  const segments = file.startsWith('/') ? [] : fromDir.split('/').filter(Boolean);
  for (const raw of file.split('/')) {
    let segment = raw;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      // a stray `%`: the name as written
    }
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return null;
      segments.pop();
    } else segments.push(segment);
  }
  // A reference to the folder itself (`#note` alone) stays in the document's folder.
  return { path: segments.join('/'), fragment };
}

export function folderOf(path: string): string {
  const folder = posix.dirname(path);
  return folder === '.' ? '' : folder;
}

/** The package root: the deepest folder holding the package document and every manifest item. */
export function packageRoot(opfPath: string, itemPaths: Iterable<string>): string {
  let root = folderOf(opfPath).split('/').filter(Boolean);
  for (const path of itemPaths) {
    const folder = folderOf(path).split('/').filter(Boolean);
    let common = 0;
    while (common < root.length && common < folder.length && root[common] === folder[common]) common += 1;
    root = root.slice(0, common);
  }
  return root.join('/');
}

/** A zip path's canonical name: relative to the package root. */
export function nameInPackage(root: string, path: string): string {
  return root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

export interface PackageLayout {
  opfPath: string;
  opfSource: string;
  /** The package root inside the zip ('' at the zip's root). */
  root: string;
  /** Manifest items by id, with their zip paths (null for an item outside the archive). */
  items: Map<string, { href: string; path: string | null; mediaType: string; properties: string }>;
  /** The package's unique identifier (what font obfuscation keys on), '' when it names none. */
  uniqueIdentifier: string;
}

/** Reads container.xml and the package document's manifest through `readText` (the bounded archive reader). */
export async function readPackageLayout(readText: (path: string) => Promise<string | null | undefined>): Promise<PackageLayout> {
  const container = await readText('META-INF/container.xml');
  if (container == null) throw new EpubPathError('the EPUB has no META-INF/container.xml');
  const opfPath = packageDocumentPath(container);
  const opfSource = await readText(opfPath);
  if (opfSource == null) throw new EpubPathError(`the EPUB has no ${opfPath}, the package document container.xml names`);
  const opf = parse(opfSource, opfPath);
  const opfDir = folderOf(opfPath);
  const items: PackageLayout['items'] = new Map();
  for (const item of Array.from(opf.getElementsByTagNameNS('*', 'item'))) {
    const id = item.getAttribute('id');
    const href = item.getAttribute('href');
    if (!id || !href) continue;
    items.set(id, {
      href,
      path: resolveHref(opfDir, href)?.path || null,
      mediaType: item.getAttribute('media-type') ?? '',
      properties: item.getAttribute('properties') ?? '',
    });
  }
  const inside = [...items.values()].flatMap((item) => (item.path ? [item.path] : []));
  const uniqueId = opf.getAttribute('unique-identifier');
  const identifiers = Array.from(opf.getElementsByTagNameNS('*', 'identifier'));
  const identifier = identifiers.find((element) => uniqueId && element.getAttribute('id') === uniqueId) ?? identifiers[0];
  const uniqueIdentifier = ((identifier as unknown as { textContent?: string | null } | undefined)?.textContent ?? '').replace(
    /[\u0020\u0009\u000d\u000a]/g,
    '',
  );
  return { opfPath, opfSource, root: packageRoot(opfPath, inside), items, uniqueIdentifier };
}

/** Font obfuscation (OCF): the IDPF algorithm keys on the SHA-1 of the unique identifier, Adobe's on its UUID. */
export const IDPF_OBFUSCATION = 'http://www.idpf.org/2008/embedding';
export const ADOBE_OBFUSCATION = 'http://ns.adobe.com/pdf/enc#RC';

export interface EncryptionDeclarations {
  /** Files obfuscated (fonts), by zip path, with their algorithm: served de-obfuscated. */
  obfuscated: Map<string, string>;
  /** Files encrypted otherwise (DRM): the package cannot be read. */
  encrypted: string[];
}

/** What META-INF/encryption.xml declares; CipherReference URIs are relative to the container's root. */
export function encryptionDeclarations(encryptionXml: string | null | undefined): EncryptionDeclarations {
  const declarations: EncryptionDeclarations = { obfuscated: new Map(), encrypted: [] };
  if (encryptionXml == null) return declarations;
  const root = parse(encryptionXml, 'META-INF/encryption.xml');
  for (const data of Array.from(root.getElementsByTagNameNS('*', 'EncryptedData'))) {
    const algorithm = Array.from(data.getElementsByTagNameNS('*', 'EncryptionMethod'))[0]?.getAttribute('Algorithm')?.trim() ?? '';
    const uri = Array.from(data.getElementsByTagNameNS('*', 'CipherReference'))[0]?.getAttribute('URI') ?? '';
    const path = resolveHref('', uri.replace(/^\/+/, ''))?.path;
    if (!path) continue;
    if (algorithm === IDPF_OBFUSCATION || algorithm === ADOBE_OBFUSCATION) declarations.obfuscated.set(path, algorithm);
    else declarations.encrypted.push(path);
  }
  return declarations;
}

/** An obfuscated font's real bytes (the obfuscation is its own inverse): the first 1040 (IDPF) or 1024 (Adobe) bytes XORed with the key. */
export function deobfuscate(data: Buffer, algorithm: string, uniqueIdentifier: string): Buffer {
  let key: Buffer;
  let length: number;
  if (algorithm === IDPF_OBFUSCATION) {
    key = createHash('sha1').update(uniqueIdentifier, 'utf8').digest();
    length = 1040;
  } else {
    const hex = uniqueIdentifier.replace(/^urn:uuid:/i, '').replace(/-/g, '');
    if (!/^[0-9a-f]{32}$/i.test(hex)) return data;
    key = Buffer.from(hex, 'hex');
    length = 1024;
  }
  const out = Buffer.from(data);
  for (let i = 0; i < Math.min(length, out.length); i++) out[i] = out[i]! ^ key[i % key.length]!;
  return out;
}

/** Internal entities one document may declare, and the bytes their expansion may add. */
const MAX_ENTITIES = 256;
const MAX_EXPANSION_BYTES = 1024 * 1024;

/**
 * The document with the general entities its internal DTD subset declares (`<!ENTITY author "Ana">`, as
 * some tools write for names they repeat) replaced by their text; the XML parser knows only the predefined
 * ones and the HTML names. Only entities whose text is plain (no markup, no entity but character references) are expanded,
 * within a bound: an entity built from entities ("billion laughs") stays unexpanded and the document fails
 * as not well-formed, and so does one whose expansion would add more than a megabyte.
 */
export function expandInternalEntities(source: string): string {
  const doctype = /<!DOCTYPE[^[>]*\[([\s\S]*?)\]\s*>/.exec(source.slice(0, 64 * 1024));
  if (!doctype) return source;
  const entities = new Map<string, string>();
  for (const declaration of doctype[1]!.matchAll(/<!ENTITY\s+([A-Za-z_][\w.-]*)\s+(?:"([^"]*)"|'([^']*)')\s*>/g)) {
    const [, name, double, single] = declaration;
    const value = double ?? single ?? '';
    if (/[<%]|&(?!#)/.test(value) || ['amp', 'lt', 'gt', 'quot', 'apos'].includes(name!) || entities.has(name!)) continue;
    entities.set(name!, value);
    if (entities.size >= MAX_ENTITIES) break;
  }
  if (entities.size === 0) return source;
  const bodyStart = doctype.index + doctype[0].length;
  let added = 0;
  const body = source.slice(bodyStart).replace(/&([A-Za-z_][\w.-]*);/g, (reference, name: string) => {
    const value = entities.get(name);
    if (value === undefined) return reference;
    added += value.length;
    return added > MAX_EXPANSION_BYTES ? reference : value;
  });
  if (added > MAX_EXPANSION_BYTES) throw new EpubPathError(`the document's entities expand past ${MAX_EXPANSION_BYTES} bytes`);
  return source.slice(0, bodyStart) + body;
}

/**
 * An XML document's text from its bytes, as an XML parser reads them: UTF-16 by its byte-order mark (EPUB
 * allows UTF-8 and UTF-16), else the encoding its XML declaration names when the platform knows it (older
 * tools write ISO-8859-1 or windows-1252), else UTF-8. A UTF-8 byte-order mark is dropped.
 */
export function decodeXml(data: Buffer): string {
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder('utf-16le').decode(data.subarray(2));
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder('utf-16be').decode(data.subarray(2));
  const declared = /^(?:\uFEFF)?<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(data.subarray(0, 256).toString('latin1'))?.[1]?.toLowerCase();
  if (declared && declared !== 'utf-8' && declared !== 'utf8' && !declared.startsWith('utf-16')) {
    try {
      return new TextDecoder(declared).decode(data);
    } catch {
      // an encoding the platform does not know: read as UTF-8
    }
  }
  return new TextDecoder('utf-8').decode(data);
}

/** A document serialized again (UTF-8): its XML declaration says so. */
export function asUtf8Xml(serialized: string): Buffer {
  return Buffer.from(serialized.replace(/^(<\?xml[^>]*?\bencoding\s*=\s*)(["'])[^"']*\2/, '$1$2UTF-8$2'), 'utf8');
}
