// Generated covers: the title on a colored background, as SVG (a cover and a
// smaller thumbnail), for issues whose files bring none.

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
