// Covers, as SVG (a cover and a smaller thumbnail), the form every cover
// takes in storage (the media server renders PNGs from them): the book's own
// cover image inside one, or, for files that bring none, the title on a
// colored background. A book's image is checked before anything decodes it:
// its format by its first bytes, its size and its pixel count from its
// header; the thumbnail is rendered from it once, at ingest, so a list of
// thumbnails never carries the full images.
import { renderAsync } from '@resvg/resvg-js';

export interface CoverImage {
  data: Buffer;
  mediaType: 'image/jpeg' | 'image/png' | 'image/gif';
  width: number;
  height: number;
}

/** A cover image larger than this is not read (a cover is tens to hundreds of KB). */
export const MAX_COVER_BYTES = 16 * 1024 * 1024;
/** Nor one of more pixels than this (a decoded 40 MP image is 160 MB). */
const MAX_COVER_PIXELS = 40_000_000;

/** Width and height from a JPEG's frame header (SOFn), scanning its markers. */
function jpegSize(data: Buffer): { width: number; height: number } | null {
  let offset = 2;
  while (offset + 9 < data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1]!;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2;
      continue;
    }
    const length = data.readUInt16BE(offset + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    offset += 2 + length;
  }
  return null;
}

/** The image as a cover reader can show (JPEG, PNG or GIF of a sane size), or null. */
export function coverImageOf(data: Buffer): CoverImage | null {
  if (data.length > MAX_COVER_BYTES || data.length < 24) return null;
  let found: Omit<CoverImage, 'data'> | null = null;
  if (data.subarray(0, 8).toString('hex') === '89504e470d0a1a0a' && data.toString('latin1', 12, 16) === 'IHDR') {
    found = { mediaType: 'image/png', width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  } else if (data[0] === 0xff && data[1] === 0xd8) {
    const size = jpegSize(data);
    if (size) found = { mediaType: 'image/jpeg', ...size };
  } else if (data.toString('latin1', 0, 4) === 'GIF8') {
    found = { mediaType: 'image/gif', width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  }
  if (!found || found.width < 1 || found.height < 1 || found.width * found.height > MAX_COVER_PIXELS) return null;
  return { data, ...found };
}

/** The image filling a cover of `size` (cut to its shape, centered), as SVG. */
function imageSvg(image: { data: Buffer; mediaType: string }, title: string, size: { width: number; height: number }): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${size.width}" height="${size.height}" viewBox="0 0 ${size.width} ${size.height}">` +
    `<title>${escapeXml(title)}</title>` +
    `<image width="${size.width}" height="${size.height}" preserveAspectRatio="xMidYMid slice" xlink:href="data:${image.mediaType};base64,${image.data.toString('base64')}"/>` +
    `</svg>\n`
  );
}

/**
 * The book's own cover and its thumbnail as SVG: the cover holds the image as it is, the thumbnail a PNG
 * rendered from it at the thumbnail's size. Null when the image does not render (a damaged file).
 */
export async function ownCoverSvgs(image: CoverImage, title: string): Promise<{ cover: string; thumbnail: string } | null> {
  const cover = imageSvg(image, title, { width: 600, height: 900 });
  try {
    const small = (await renderAsync(imageSvg(image, title, { width: 200, height: 300 }), { fitTo: { mode: 'width', value: 200 } })).asPng();
    return { cover, thumbnail: imageSvg({ data: small, mediaType: 'image/png' }, title, { width: 200, height: 300 }) };
  } catch {
    return null;
  }
}

export interface CoverInput {
  title: string;
  author?: string | null;
  /** Background and accent colors (hex); derived from the title when absent. */
  colors?: { primary: string; secondary: string } | null;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

export function coverSvg(input: CoverInput, size: { width: number; height: number } = { width: 600, height: 900 }): string {
  const { primary, secondary } = colorsOf(input);
  const scale = size.width / 600;
  const lines = wrap(input.title, 16).slice(0, 6);
  const fontSize = Math.round(54 * scale);
  const lineHeight = Math.round(fontSize * 1.2);
  const top = Math.round(size.height * 0.3);
  const title = lines
    .map((line, i) => `<text x="${Math.round(48 * scale)}" y="${top + i * lineHeight}" font-size="${fontSize}" font-weight="700">${escapeXml(line)}</text>`)
    .join('');
  const author = input.author
    ? `<text x="${Math.round(48 * scale)}" y="${size.height - Math.round(72 * scale)}" font-size="${Math.round(30 * scale)}">${escapeXml(input.author)}</text>`
    : '';
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}" viewBox="0 0 ${size.width} ${size.height}">` +
    `<title>${escapeXml(input.title)}</title>` +
    `<rect width="100%" height="100%" fill="${primary}"/>` +
    `<rect x="0" y="${Math.round(size.height * 0.12)}" width="100%" height="${Math.round(12 * scale)}" fill="${secondary}"/>` +
    `<g fill="#ffffff" font-family="Helvetica, Arial, sans-serif">${title}${author}</g>` +
    `</svg>\n`
  );
}

function colorsOf(input: CoverInput): { primary: string; secondary: string } {
  if (input.colors && HEX.test(input.colors.primary) && HEX.test(input.colors.secondary)) return input.colors;
  let hash = 0;
  for (const char of input.title) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  const hue = hash % 360;
  return { primary: `hsl(${hue}, 45%, 32%)`, secondary: `hsl(${(hue + 40) % 360}, 70%, 60%)` };
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && (line + ' ' + word).length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}
