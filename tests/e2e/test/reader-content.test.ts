// From login to reading, end to end against ./dev up: a reader session per
// content type through the gateway, then the content URLs it returns fetched
// through the gateway's /media proxy and opened with real parsers (EPUB: the
// zip container and its OPF; PDF: the page images are PNGs of the announced
// size; audio: MP3 tracks whose decoded duration is the announced one).
import { uniqueEmail } from '@folio/testing';
import { DOMParser } from '@xmldom/xmldom';
import JSZip from 'jszip';
import { parseBuffer } from 'music-metadata';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, type Tokens } from './client.js';
import { api, fetchContent, pngSize, session, sharedLogin, type ReaderSessionBody } from './reader-helpers.js';

const OPF_NS = 'http://www.idpf.org/2007/opf';

describe('reading an EPUB, a PDF and an audiobook through the gateway (running stack)', () => {
  let ana: Tokens;
  let fresh: Tokens;
  beforeAll(async () => {
    [ana, fresh] = await Promise.all([sharedLogin('ana@example.com'), loginByEmail(uniqueEmail('listener'))]);
  });

  describe('EPUB: ana reads her purchased 1001 in Northwind', () => {
    let epub: ReaderSessionBody;
    beforeAll(async () => {
      epub = await session(ana.access_token, 1, 1001);
    });

    it('when the session opens, then it has the EPUB shape: file_url, spine, total_words, and no other type keys', () => {
      expect(epub).toMatchObject({ custom_preview: false, files_urls: null, files_info: null, articles: null, tracks: null });
      expect(epub.token).toEqual(expect.any(String));
      expect(epub.file_url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/media\/1\/1001\/book\.epub\?exp=\d+&sig=[\w-]+$/);
      expect(epub.spine).toEqual([
        { href: 'text/chapter-1.xhtml', idref: 'chapter-1' },
        { href: 'text/chapter-2.xhtml', idref: 'chapter-2' },
        { href: 'text/chapter-3.xhtml', idref: 'chapter-3' },
      ]);
      expect(epub.total_words).toBeGreaterThan(150);
      expect(epub.table_of_contents).toEqual([
        { title: 'Chapter 1: The Lamp', href: 'text/chapter-1.xhtml' },
        { title: 'Chapter 2: The Atlas', href: 'text/chapter-2.xhtml' },
        { title: 'Chapter 3: The Compass', href: 'text/chapter-3.xhtml' },
      ]);
    });

    it('when the file_url is fetched, then it is an EPUB 3 whose container, OPF spine and chapters match the session', async () => {
      const file = await fetchContent(epub.file_url!);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/epub+zip');
      expect(Number(file.headers.get('content-length'))).toBe(file.bytes.length);

      const zip = await JSZip.loadAsync(file.bytes);
      expect(await zip.file('mimetype')!.async('string')).toBe('application/epub+zip');
      const container = new DOMParser().parseFromString(await zip.file('META-INF/container.xml')!.async('string'), 'application/xml');
      const opfPath = container.getElementsByTagName('rootfile')[0]!.getAttribute('full-path')!;
      const opf = new DOMParser().parseFromString(await zip.file(opfPath)!.async('string'), 'application/xml');
      expect(opf.documentElement!.getAttribute('version')).toBe('3.0');
      expect(opf.getElementsByTagNameNS('http://purl.org/dc/elements/1.1/', 'title')[0]!.textContent).toBe("The Lighthouse Keeper's Atlas");

      const manifest = new Map<string, string>();
      const items = opf.getElementsByTagNameNS(OPF_NS, 'item');
      for (let i = 0; i < items.length; i++) manifest.set(items[i]!.getAttribute('id')!, items[i]!.getAttribute('href')!);
      const itemrefs = opf.getElementsByTagNameNS(OPF_NS, 'itemref');
      const spine = Array.from({ length: itemrefs.length }, (_, i) => {
        const idref = itemrefs[i]!.getAttribute('idref')!;
        return { href: manifest.get(idref)!, idref };
      });
      expect(spine).toEqual(epub.spine);

      const base = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
      const chapter = await zip.file(`${base}${spine[0]!.href}`)!.async('string');
      expect(chapter).toContain('The keeper climbed the spiral stairs at dusk');
    });

    it('when a byte range of the EPUB is asked for, then 206 with Content-Range, and a range past the end is 416', async () => {
      const part = await fetchContent(epub.file_url!, { range: 'bytes=0-3' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toMatch(/^bytes 0-3\/\d+$/);
      expect(part.headers.get('accept-ranges')).toBe('bytes');
      expect(part.bytes).toEqual(Buffer.from('PK\x03\x04', 'latin1'));

      const beyond = await fetchContent(epub.file_url!, { range: 'bytes=99999999-' });
      expect(beyond.status).toBe(416);
    });

    it('when the file is asked again with its ETag, then 304 without a body', async () => {
      const first = await fetchContent(epub.file_url!);
      const again = await fetchContent(epub.file_url!, { 'if-none-match': first.headers.get('etag')! });
      expect(again.status).toBe(304);
      expect(again.bytes.length).toBe(0);
    });

    it('when the signature or expiry of a content URL is tampered with, then 403; an unknown public file is 404', async () => {
      const url = new URL(epub.file_url!);
      const badSig = new URL(url);
      badSig.searchParams.set('sig', 'A'.repeat(43));
      expect((await fetchContent(badSig.href)).status).toBe(403);
      const longer = new URL(url);
      longer.searchParams.set('exp', String(Number(url.searchParams.get('exp')) + 3600));
      expect((await fetchContent(longer.href)).status).toBe(403);
      const unsigned = new URL(url);
      unsigned.search = '';
      const refused = await fetchContent(unsigned.href);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.bytes.toString('utf8'))).toEqual({ message: expect.any(String) });
      // Unsigned paths are refused before the file is looked up: nothing is revealed about which files exist.
      expect((await fetchContent(`${url.origin}/media/1/1001/nothing-here.epub`)).status).toBe(403);
      expect((await fetchContent(`${url.origin}/media/covers/999999.svg`)).status).toBe(404);
    });

    it('when the cover is fetched, then it is a public SVG with the media server’s own content policy', async () => {
      const cover = await fetchContent(epub.cover);
      expect(cover.status).toBe(200);
      expect(cover.headers.get('content-type')).toBe('image/svg+xml');
      expect(cover.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(cover.bytes.toString('utf8')).toContain('<svg');
    });
  });

  describe('PDF: ana reads 2002 of Editorial Sur (her plan covers the whole store)', () => {
    let pdf: ReaderSessionBody;
    beforeAll(async () => {
      pdf = await session(ana.access_token, 2, 2002);
    });

    it('when the session opens, then it has the PDF shape: files_urls, files_info, articles and a {title, page} contents', () => {
      expect(pdf).toMatchObject({ custom_preview: false, file_url: null, spine: null, total_words: null, tracks: null });
      expect(pdf.files_urls).toHaveLength(3);
      expect(pdf.files_info).toHaveLength(3);
      expect(pdf.articles).toEqual(expect.any(Array));
      for (const info of pdf.files_info!) expect(info).toEqual({ width: expect.any(Number), height: expect.any(Number) });
      expect(pdf.table_of_contents.length).toBeGreaterThan(0);
      for (const entry of pdf.table_of_contents) expect(entry).toEqual({ title: expect.any(String), page: expect.any(Number) });
      expect(pdf.table_of_contents[0]).toEqual({ title: 'Revista Pampa N° 12', page: 1 });
    });

    it('when every page image is fetched, then each is a PNG of exactly the announced width and height', async () => {
      const pages = await Promise.all(pdf.files_urls!.map((url) => fetchContent(url)));
      pages.forEach((page, i) => {
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toBe('image/png');
        expect(pngSize(page.bytes)).toEqual(pdf.files_info![i]);
      });
      expect(pdf.files_info![0]!.width).toBe(1200);
    });
  });

  describe('audiobook: a new member of Northwind listens to the free 1003', () => {
    let audio: ReaderSessionBody;
    beforeAll(async () => {
      audio = await session(fresh.access_token, 1, 1003);
    });

    it('when the session opens, then it has the audio shape: tracks {title, url, duration}, every other type key null', () => {
      expect(audio).toMatchObject({ file_url: null, files_urls: null, files_info: null, articles: null, spine: null, total_words: null });
      expect(audio.tracks!.map((track) => track.title)).toEqual(['Track one: the harbour at dawn', 'Track two: the night ferry']);
      for (const track of audio.tracks!) {
        expect(Number.isInteger(track.duration)).toBe(true);
        expect(track.duration).toBeGreaterThan(0);
      }
    });

    it('when each track is fetched, then it is an MP3 whose decoded duration is the announced one', async () => {
      for (const track of audio.tracks!) {
        const file = await fetchContent(track.url);
        expect(file.status).toBe(200);
        expect(file.headers.get('content-type')).toBe('audio/mpeg');
        const metadata = await parseBuffer(file.bytes, { mimeType: 'audio/mpeg' }, { duration: true });
        expect(metadata.format.container).toBe('MPEG');
        expect(metadata.format.codec).toMatch(/^MPEG [12](\.5)? Layer 3$/);
        expect(Math.abs(metadata.format.duration! - track.duration)).toBeLessThanOrEqual(1);
      }
    });

    it('when a player seeks (Range from the middle), then 206 with the rest of the file and the full size in Content-Range', async () => {
      const whole = await fetchContent(audio.tracks![0]!.url);
      const half = Math.floor(whole.bytes.length / 2);
      const rest = await fetchContent(audio.tracks![0]!.url, { range: `bytes=${half}-` });
      expect(rest.status).toBe(206);
      expect(rest.headers.get('content-range')).toBe(`bytes ${half}-${whole.bytes.length - 1}/${whole.bytes.length}`);
      expect(rest.bytes.equals(whole.bytes.subarray(half))).toBe(true);
    });
  });

  it('when a media request carries cookies and an Authorization header, then the content is still served by signature alone', async () => {
    const audio = await session(fresh.access_token, 1, 1003);
    const file = await fetchContent(audio.tracks![0]!.url, { cookie: 'folio_session=abc', authorization: 'Bearer nonsense' });
    expect(file.status).toBe(200);
  });

  it('when the media path is called with a method other than GET/HEAD/OPTIONS, then 405', async () => {
    const response = await api('POST', '/media/1/1003/tracks/01.mp3', { body: {} });
    expect(response.status).toBe(405);
  });
});
