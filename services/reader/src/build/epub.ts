// Builds a valid EPUB 3 package from text (the seed's EPUB issues): the
// `mimetype` entry first and stored, META-INF/container.xml, a package
// document with metadata, manifest and spine, a navigation document (and an
// NCX for EPUB 2 reading systems), one XHTML
// document per chapter (its title as <h1>, paragraphs as <p>), and the cover.
import JSZip from 'jszip';
import { escapeXml } from '../ingest/cover.js';

export interface EpubSource {
  identifier: string;
  title: string;
  lang: string;
  author?: string | null;
  publisher?: string | null;
  description?: string | null;
  chapters: { title: string; text: string }[];
  coverSvg?: string | null;
  /** dcterms:modified; fixed input gives a byte-identical package. */
  modified?: Date;
}

export async function buildEpub(source: EpubSource): Promise<Buffer> {
  if (source.chapters.length === 0) throw new Error('an EPUB needs at least one chapter');
  const zip = new JSZip();
  const date = new Date('2020-01-01T00:00:00Z');
  const add = (name: string, content: string, compression: 'STORE' | 'DEFLATE' = 'DEFLATE') => zip.file(name, content, { compression, date });
  add('mimetype', 'application/epub+zip', 'STORE');
  add(
    'META-INF/container.xml',
    `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/package.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
`,
  );

  const lang = escapeXml(source.lang || 'en');
  const chapters = source.chapters.map((chapter, index) => ({ ...chapter, id: `chapter-${index + 1}`, href: `text/chapter-${index + 1}.xhtml` }));
  for (const chapter of chapters) {
    const paragraphs = chapter.text
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
      .filter(Boolean)
      .map((paragraph) => `    <p>${escapeXml(paragraph)}</p>`)
      .join('\n');
    add(
      `OEBPS/${chapter.href}`,
      `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${lang}" lang="${lang}">
  <head>
    <meta charset="UTF-8"/>
    <title>${escapeXml(chapter.title)}</title>
  </head>
  <body>
    <h1>${escapeXml(chapter.title)}</h1>
${paragraphs}
  </body>
</html>
`,
    );
  }

  add(
    'OEBPS/nav.xhtml',
    `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${lang}" lang="${lang}">
  <head>
    <meta charset="UTF-8"/>
    <title>${escapeXml(source.title)}</title>
  </head>
  <body>
    <nav epub:type="toc" id="toc">
      <h1>${escapeXml(source.title)}</h1>
      <ol>
${chapters.map((chapter) => `        <li><a href="${chapter.href}">${escapeXml(chapter.title)}</a></li>`).join('\n')}
      </ol>
    </nav>
  </body>
</html>
`,
  );
  // An NCX as well, for EPUB 2 reading systems (allowed in EPUB 3 for compatibility).
  add(
    'OEBPS/toc.ncx',
    `<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1" xml:lang="${lang}">
  <head>
    <meta name="dtb:uid" content="${escapeXml(source.identifier)}"/>
  </head>
  <docTitle><text>${escapeXml(source.title)}</text></docTitle>
  <navMap>
${chapters
  .map(
    (chapter, index) =>
      `    <navPoint id="nav-${index + 1}" playOrder="${index + 1}"><navLabel><text>${escapeXml(chapter.title)}</text></navLabel><content src="${chapter.href}"/></navPoint>`,
  )
  .join('\n')}
  </navMap>
</ncx>
`,
  );
  if (source.coverSvg) add('OEBPS/images/cover.svg', source.coverSvg);

  const modified = (source.modified ?? date).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const optional = (tag: string, value: string | null | undefined) => (value ? `\n    <dc:${tag}>${escapeXml(value)}</dc:${tag}>` : '');
  add(
    'OEBPS/package.opf',
    `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${lang}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="book-id">${escapeXml(source.identifier)}</dc:identifier>
    <dc:title>${escapeXml(source.title)}</dc:title>
    <dc:language>${lang}</dc:language>${optional('creator', source.author)}${optional('publisher', source.publisher)}${optional('description', source.description)}
    <meta property="dcterms:modified">${modified}</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
${source.coverSvg ? '    <item id="cover-image" href="images/cover.svg" media-type="image/svg+xml" properties="cover-image"/>\n' : ''}${chapters
      .map((chapter) => `    <item id="${chapter.id}" href="${chapter.href}" media-type="application/xhtml+xml"/>`)
      .join('\n')}
  </manifest>
  <spine toc="ncx">
${chapters.map((chapter) => `    <itemref idref="${chapter.id}"/>`).join('\n')}
  </spine>
</package>
`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', mimeType: 'application/epub+zip' });
}
