import { describe, expect, it } from 'vitest';
import { asUtf8Xml, decodeXml, EpubPathError, expandInternalEntities, nameInPackage, packageDocumentPath, packageRoot, resolveHref } from './epub-package.js';

describe('EPUB package paths', () => {
  it('when an href is resolved, then it is decoded once, its fragment and query cut off, and ../ kept inside the archive', () => {
    expect(resolveHref('OEBPS', 'text/chapter%20one.xhtml#p1')).toEqual({ path: 'OEBPS/text/chapter one.xhtml', fragment: 'p1' });
    expect(resolveHref('OEBPS', 'text/100%2525.xhtml')).toEqual({ path: 'OEBPS/text/100%25.xhtml', fragment: '' });
    expect(resolveHref('OEBPS/package', '../text/./ch1.xhtml?x=1')).toEqual({ path: 'OEBPS/text/ch1.xhtml', fragment: '' });
    expect(resolveHref('OEBPS', '../../ch1.xhtml')).toBeNull();
    expect(resolveHref('OEBPS', 'https://example.com/a.css')).toBeNull();
    expect(resolveHref('OEBPS', '//example.com/a.css')).toBeNull();
    expect(resolveHref('OEBPS', '50%off.xhtml')?.path).toBe('OEBPS/50%off.xhtml');
  });

  it('when container.xml is quoted either way, then the package document is found', () => {
    const single =
      "<container xmlns='urn:oasis:names:tc:opendocument:xmlns:container'><rootfiles><rootfile full-path='a%20b/p.opf' media-type='application/oebps-package+xml'/></rootfiles></container>";
    expect(packageDocumentPath(single)).toBe('a b/p.opf');
    expect(() => packageDocumentPath('<container><rootfiles/></container>')).toThrow(EpubPathError);
    expect(() => packageDocumentPath('<container')).toThrow(/not well-formed/);
  });

  it('when items sit above the package document, then the root is their common folder and names have no ..', () => {
    expect(packageRoot('OEBPS/content.opf', ['OEBPS/text/a.xhtml', 'OEBPS/b.css'])).toBe('OEBPS');
    expect(packageRoot('EPUB/package/content.opf', ['EPUB/text/a.xhtml', 'EPUB/package/nav.xhtml'])).toBe('EPUB');
    expect(packageRoot('content.opf', ['a.xhtml'])).toBe('');
    expect(nameInPackage('EPUB', 'EPUB/text/a.xhtml')).toBe('text/a.xhtml');
    expect(nameInPackage('', 'text/a.xhtml')).toBe('text/a.xhtml');
  });

  it('when a document declares internal entities, then plain ones are expanded and built ones (billion laughs) are not', () => {
    const doc = '<!DOCTYPE html [<!ENTITY a "Ana &#225;"><!ENTITY l1 "&a;&a;"><!ENTITY % p "x">]><p>&a; &l1; &amp; &nbsp;</p>';
    expect(expandInternalEntities(doc)).toBe(
      '<!DOCTYPE html [<!ENTITY a "Ana &#225;"><!ENTITY l1 "&a;&a;"><!ENTITY % p "x">]><p>Ana &#225; &l1; &amp; &nbsp;</p>',
    );
    expect(expandInternalEntities('<p>&a;</p>')).toBe('<p>&a;</p>');
    const big = `<!DOCTYPE x [<!ENTITY k "${'k'.repeat(1000)}">]><x>${'&k;'.repeat(2000)}</x>`;
    expect(() => expandInternalEntities(big)).toThrow(/expand past/);
  });

  it('when a document is UTF-16 or declares a single-byte encoding, then it is decoded as an XML parser would', () => {
    const xml = '<?xml version="1.0" encoding="UTF-16"?><p>río</p>';
    expect(decodeXml(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]))).toBe(xml);
    expect(decodeXml(Buffer.from("<?xml version='1.0' encoding='ISO-8859-1'?><p>r\xedo</p>", 'latin1'))).toContain('<p>río</p>');
    expect(decodeXml(Buffer.from('\uFEFF<p>río</p>', 'utf8'))).toBe('<p>río</p>');
    expect(decodeXml(Buffer.from('<?xml version="1.0" encoding="x-unknown"?><p>río</p>', 'utf8'))).toContain('río');
    expect(asUtf8Xml(xml).toString('utf8')).toBe('<?xml version="1.0" encoding="UTF-8"?><p>río</p>');
  });
});
