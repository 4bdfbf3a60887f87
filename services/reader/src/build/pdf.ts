// Builds a real PDF from text (the seed's PDF issues and the search benchmark)
// with pdfkit's standard Helvetica: one page per source page, paragraphs
// separated by a gap (so that pdftotext -layout keeps them apart), and an
// outline entry per titled page (read back as the table of contents).
import PDFDocument from 'pdfkit';

export interface PdfSource {
  title: string;
  author?: string | null;
  pages: { text: string; title?: string | null }[];
}

// Helvetica's standard encoding (WinAnsi) covers Latin-1 plus these.
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the standard fonts can draw: other characters lose their diacritics, or become `?`. */
export function winAnsiText(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || char === '\n' || WIN_ANSI_EXTRAS.has(char)) out += char;
    else if (code < 0x20) out += ' ';
    else {
      const base = char.normalize('NFD').replace(/\p{M}+/gu, '');
      out += base && [...base].every((c) => c.codePointAt(0)! < 0x100) ? base : '?';
    }
  }
  return out;
}

export function buildPdf(source: PdfSource): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const document = new PDFDocument({
      size: 'A4',
      margin: 56,
      autoFirstPage: false,
      compress: true,
      info: { Title: winAnsiText(source.title), Author: winAnsiText(source.author ?? ''), CreationDate: new Date('2020-01-01T00:00:00Z') },
    });
    const chunks: Buffer[] = [];
    document.on('data', (chunk: Buffer) => chunks.push(chunk));
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
    for (const page of source.pages) {
      document.addPage();
      if (page.title) document.outline.addItem(winAnsiText(page.title));
      document.font('Helvetica').fontSize(12);
      const paragraphs = page.text
        .split(/\n\s*\n/)
        .map((p) => p.replace(/\s+/g, ' ').trim())
        .filter(Boolean);
      paragraphs.forEach((paragraph, index) => {
        document.text(winAnsiText(paragraph), { align: 'left', lineGap: 2 });
        if (index < paragraphs.length - 1) document.moveDown(1.2);
      });
    }
    document.end();
  });
}

/** A short title for a page: its text up to the first colon or full stop. */
export function pageTitle(text: string): string | null {
  const head = /^\s*([^:.]{3,60})[:.]/.exec(text)?.[1]?.trim();
  return head || null;
}
