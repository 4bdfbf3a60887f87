// A preview EPUB: the stored package with its spine cut to the first chapters,
// the other spine documents removed from the package and the zip, and the
// navigation entries that pointed at them dropped. Built on first use per
// chapter count and kept next to the full package. The package is read through
// the bounded archive reader: one that breaks its limits is refused; the files
// kept unchanged are inflated once with a count (and thrown away) to prove
// they are what they declare, then copied still compressed.
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { ArchiveError, BoundedZip, DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits, type RangeSource } from '../archive/zip-reader.js';
import { ZipWriter } from '../archive/zip-writer.js';
import { asUtf8Xml, decodeXml, EpubPathError, folderOf, readPackageLayout, resolveHref, type PackageLayout } from './epub-package.js';
import { InvalidContentError } from './epub.js';

type Element = ReturnType<DOMParser['parseFromString']>['documentElement'] & object;

export async function buildPreviewEpub(full: Buffer | RangeSource, chapters: number, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<Buffer> {
  let zip: BoundedZip;
  try {
    zip = Buffer.isBuffer(full)
      ? await BoundedZip.fromBuffer(full, limits, { label: 'the EPUB' })
      : await BoundedZip.fromSource(full, limits, { label: 'the EPUB' });
  } catch (error) {
    throw error instanceof ArchiveError ? new InvalidContentError(error.message) : error;
  }
  try {
    return await cutPackage(zip, chapters);
  } catch (error) {
    throw error instanceof ArchiveError ? new InvalidContentError(error.message) : error;
  } finally {
    zip.close();
  }
}

async function cutPackage(zip: BoundedZip, chapters: number): Promise<Buffer> {
  const readText = async (name: string) => {
    const data = await zip.readXml(name);
    return data ? decodeXml(data) : undefined;
  };
  /** Documents of the package rewritten here, by path in the zip. */
  const rewritten = new Map<string, Buffer>();

  let layout: PackageLayout;
  try {
    layout = await readPackageLayout(readText);
  } catch (error) {
    throw error instanceof EpubPathError ? new InvalidContentError(error.message) : error;
  }
  const { opfPath } = layout;
  const opf = new DOMParser().parseFromString(layout.opfSource, 'text/xml');
  const pathOf = (id: string) => layout.items.get(id)?.path ?? null;

  const items = new Map<string, Element>();
  for (const item of Array.from(opf.getElementsByTagNameNS('*', 'item'))) items.set(item.getAttribute('id') ?? '', item as unknown as Element);
  const itemrefs = Array.from(opf.getElementsByTagNameNS('*', 'itemref'));
  const kept = new Set(itemrefs.slice(0, chapters).map((ref) => ref.getAttribute('idref')));
  const removedFiles = new Set<string>();
  for (const ref of itemrefs.slice(chapters)) {
    const idref = ref.getAttribute('idref') ?? '';
    ref.parentNode?.removeChild(ref);
    const item = items.get(idref);
    if (!item || kept.has(idref)) continue;
    const path = pathOf(idref);
    if (path) removedFiles.add(path);
    item.parentNode?.removeChild(item);
  }
  rewritten.set(opfPath, asUtf8Xml(new XMLSerializer().serializeToString(opf)));

  // Navigation entries pointing at removed documents go too.
  const nav = [...items.values()].find((item) => (item.getAttribute('properties') ?? '').split(/\s+/).includes('nav'));
  const navPath = nav ? pathOf(nav.getAttribute('id') ?? '') : null;
  if (navPath && !removedFiles.has(navPath)) {
    const source = await readText(navPath);
    if (source) {
      const document = new DOMParser().parseFromString(source, 'application/xhtml+xml');
      for (const link of Array.from(document.getElementsByTagNameNS('*', 'a'))) {
        const target = resolveHref(folderOf(navPath), link.getAttribute('href') ?? '')?.path;
        if (!target || !removedFiles.has(target)) continue;
        const li = link.parentNode;
        li?.parentNode?.removeChild(li);
      }
      rewritten.set(navPath, asUtf8Xml(new XMLSerializer().serializeToString(document)));
    }
  }

  // So do the NCX's (EPUB 2 table of contents).
  const ncx = [...items.values()].find((item) => item.getAttribute('media-type') === 'application/x-dtbncx+xml');
  const ncxPath = ncx ? pathOf(ncx.getAttribute('id') ?? '') : null;
  const ncxSource = ncxPath ? await readText(ncxPath) : undefined;
  if (ncxPath && ncxSource) {
    const document = new DOMParser().parseFromString(ncxSource, 'text/xml');
    for (const content of Array.from(document.getElementsByTagNameNS('*', 'content'))) {
      const target = resolveHref(folderOf(ncxPath), content.getAttribute('src') ?? '')?.path;
      if (!target || !removedFiles.has(target)) continue;
      const point = content.parentNode;
      point?.parentNode?.removeChild(point);
    }
    rewritten.set(ncxPath, asUtf8Xml(new XMLSerializer().serializeToString(document)));
  }

  // The mimetype entry stays first and stored, as the OCF container requires.
  const output = new ZipWriter();
  output.addStored('mimetype', (await zip.read('mimetype', 1024)) ?? Buffer.from('application/epub+zip'));
  for (const name of zip.names()) {
    if (name === 'mimetype' || removedFiles.has(name)) continue;
    const replacement = rewritten.get(name);
    if (replacement) {
      output.addDeflated(name, replacement);
      continue;
    }
    await zip.verify(name);
    output.addRaw(zip.entry(name)!, await zip.raw(name));
  }
  return output.finish();
}
