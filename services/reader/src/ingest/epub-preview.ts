// A preview EPUB: the stored package with its spine cut to the first chapters,
// the other spine documents removed from the package and the zip, and the
// navigation entries that pointed at them dropped. Built on first use per
// chapter count and kept next to the full package.
import { posix } from 'node:path';
import JSZip from 'jszip';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { InvalidContentError } from './epub.js';

type Element = ReturnType<DOMParser['parseFromString']>['documentElement'] & object;

export async function buildPreviewEpub(full: Buffer, chapters: number): Promise<Buffer> {
  const zip = await JSZip.loadAsync(full);
  const container = await zip.file('META-INF/container.xml')?.async('string');
  const opfPath = container && /full-path="([^"]+)"/.exec(container)?.[1];
  if (!opfPath) throw new InvalidContentError('the EPUB names no package document');
  const opfDir = posix.dirname(opfPath) === '.' ? '' : posix.dirname(opfPath);
  const opfSource = await zip.file(opfPath)?.async('string');
  if (!opfSource) throw new InvalidContentError(`the EPUB has no ${opfPath}`);
  const opf = new DOMParser().parseFromString(opfSource, 'text/xml');

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
    const href = item.getAttribute('href') ?? '';
    const path = posix.join(opfDir, decodeURIComponent(href));
    removedFiles.add(path);
    zip.remove(path);
    item.parentNode?.removeChild(item);
  }
  zip.file(opfPath, new XMLSerializer().serializeToString(opf));

  // Navigation entries pointing at removed documents go too.
  const nav = [...items.values()].find((item) => (item.getAttribute('properties') ?? '').split(/\s+/).includes('nav'));
  const navPath = nav ? posix.join(opfDir, decodeURIComponent(nav.getAttribute('href') ?? '')) : null;
  if (navPath && !removedFiles.has(navPath)) {
    const source = await zip.file(navPath)?.async('string');
    if (source) {
      const document = new DOMParser().parseFromString(source, 'application/xhtml+xml');
      for (const link of Array.from(document.getElementsByTagNameNS('*', 'a'))) {
        const target = posix.join(posix.dirname(navPath), decodeURIComponent((link.getAttribute('href') ?? '').split('#')[0]!));
        if (!removedFiles.has(target)) continue;
        const li = link.parentNode;
        li?.parentNode?.removeChild(li);
      }
      zip.file(navPath, new XMLSerializer().serializeToString(document));
    }
  }

  // So do the NCX's (EPUB 2 table of contents).
  const ncx = [...items.values()].find((item) => item.getAttribute('media-type') === 'application/x-dtbncx+xml');
  const ncxPath = ncx ? posix.join(opfDir, decodeURIComponent(ncx.getAttribute('href') ?? '')) : null;
  const ncxSource = ncxPath ? await zip.file(ncxPath)?.async('string') : undefined;
  if (ncxPath && ncxSource) {
    const document = new DOMParser().parseFromString(ncxSource, 'text/xml');
    for (const content of Array.from(document.getElementsByTagNameNS('*', 'content'))) {
      const target = posix.join(posix.dirname(ncxPath), decodeURIComponent((content.getAttribute('src') ?? '').split('#')[0]!));
      if (!removedFiles.has(target)) continue;
      const point = content.parentNode;
      point?.parentNode?.removeChild(point);
    }
    zip.file(ncxPath, new XMLSerializer().serializeToString(document));
  }

  // The mimetype entry stays first and stored, as the OCF container requires.
  const mimetype = (await zip.file('mimetype')?.async('string')) ?? 'application/epub+zip';
  zip.remove('mimetype');
  const output = new JSZip();
  output.file('mimetype', mimetype, { compression: 'STORE' });
  for (const [name, entry] of Object.entries(zip.files)) {
    if (entry.dir) continue;
    output.file(name, await entry.async('uint8array'), { compression: 'DEFLATE' });
  }
  return output.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', mimeType: 'application/epub+zip' });
}
