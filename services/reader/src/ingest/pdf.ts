// Reads a PDF with poppler's tools: page count and metadata (pdfinfo), text per
// page (pdftotext -layout, paragraphs split at blank lines), the outline as the
// table of contents (pdftohtml -xml), and page images rendered at a fixed width
// (pdftoppm -png -scale-to-x <width> -scale-to-y -1) with their pixel sizes.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import type { TextSegment } from '../search/text-index.js';
import { countWords } from '../search/text.js';
import { InvalidContentError } from './epub.js';
import { pngSize, run, ToolError } from './tools.js';

export interface PdfPage {
  /** The rendered page image. */
  image: Buffer;
  width: number;
  height: number;
  text: string;
  words: number;
}

export interface PdfExtract {
  title: string | null;
  author: string | null;
  pages: PdfPage[];
  toc: { title: string; page: number }[];
  segments: TextSegment[];
}

export interface ReadPdfOptions {
  pageWidth: number;
  renderers?: number;
  /** Kills the poppler processes still running and fails the read (the ingest's deadline). */
  signal?: AbortSignal;
  /** One poppler run is killed after this long. */
  toolTimeoutMs?: number;
}

export async function readPdf(path: string, options: ReadPdfOptions): Promise<PdfExtract> {
  const tool = { ...(options.signal && { signal: options.signal }), timeoutMs: options.toolTimeoutMs ?? 300_000 };
  try {
    return await readWith(path, options, tool);
  } catch (error) {
    // A poppler run that failed, ran too long or wrote too much: the PDF cannot be converted.
    throw error instanceof ToolError ? new InvalidContentError(`the PDF could not be converted: ${error.message}`) : error;
  }
}

type ToolOptions = { signal?: AbortSignal; timeoutMs: number };

async function readWith(path: string, options: ReadPdfOptions, tool: ToolOptions): Promise<PdfExtract> {
  const info = (
    await run('pdfinfo', ['-enc', 'UTF-8', path], tool).catch((error: Error) => {
      if (!(error instanceof ToolError)) throw error;
      throw new InvalidContentError(`not a readable PDF: ${error.message}`);
    })
  ).toString('utf8');
  const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(info)?.[1]?.trim() || null;
  const pageCount = Number(field('Pages') ?? '0');
  if (!Number.isInteger(pageCount) || pageCount < 1) throw new InvalidContentError('the PDF has no pages');

  const texts = (await run('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-'], tool)).toString('utf8').split('\f').slice(0, pageCount);
  while (texts.length < pageCount) texts.push('');

  const segments: TextSegment[] = [];
  const pageTexts = texts.map((raw, index) => {
    const paragraphs = raw
      .split(/\n[ \t]*\n/)
      .map((paragraph) =>
        paragraph
          .split('\n')
          .map((line) => line.trim())
          .join(' ')
          .replace(/\s+/g, ' ')
          .trim(),
      )
      .filter(Boolean);
    let offset = 0;
    paragraphs.forEach((paragraph, section) => {
      segments.push({ page: index + 1, section: section + 1, text: paragraph, pageOffset: offset });
      offset += paragraph.length + 2;
    });
    return paragraphs.join('\n\n');
  });

  const images = await renderPages(path, pageCount, options.pageWidth, options.renderers ?? 2, tool);
  const pages = images.map((image, index) => {
    const text = pageTexts[index] ?? '';
    return { image, ...pngSize(image), text, words: countWords(text) };
  });
  return { title: field('Title'), author: field('Author'), pages, toc: await readOutline(path, pageCount, tool), segments };
}

async function renderPages(path: string, pageCount: number, width: number, renderers: number, tool: ToolOptions): Promise<Buffer[]> {
  const directory = await mkdtemp(join(tmpdir(), 'reader-pdf-'));
  try {
    // Page ranges rendered in parallel, one pdftoppm each.
    const parts = Math.max(1, Math.min(renderers, Math.ceil(pageCount / 25)));
    const size = Math.ceil(pageCount / parts);
    await Promise.all(
      Array.from({ length: parts }, (_, part) => {
        const first = part * size + 1;
        const last = Math.min(pageCount, first + size - 1);
        return run(
          'pdftoppm',
          ['-png', '-f', String(first), '-l', String(last), '-scale-to-x', String(width), '-scale-to-y', '-1', path, join(directory, `p${part}`)],
          tool,
        );
      }),
    );
    // pdftoppm names files <prefix>-<page>.png, the page zero-padded to the width of the page count.
    const files = (await readdir(directory))
      .map((name) => ({ name, page: Number(/-(\d+)\.png$/.exec(name)?.[1] ?? NaN) }))
      .filter((file) => Number.isInteger(file.page))
      .sort((a, b) => a.page - b.page);
    if (files.length !== pageCount) throw new InvalidContentError(`rendered ${files.length} of ${pageCount} pages`);
    return Promise.all(files.map((file) => readFile(join(directory, file.name))));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** The PDF outline (bookmarks) as `{title, page}`, flattened in document order. */
async function readOutline(path: string, pageCount: number, tool: ToolOptions): Promise<{ title: string; page: number }[]> {
  // pdftohtml prints the outline after the pages; one page keeps the output small.
  const xml = (await run('pdftohtml', ['-xml', '-i', '-q', '-stdout', '-f', '1', '-l', '1', path], tool)).toString('utf8');
  const start = xml.indexOf('<outline');
  if (start === -1) return [];
  const end = xml.lastIndexOf('</outline>');
  if (end === -1) return [];
  const document = new DOMParser().parseFromString(xml.slice(start, end + '</outline>'.length), 'text/xml');
  const items = Array.from(document.getElementsByTagName('item'));
  return items
    .map((item) => ({ title: (item.textContent ?? '').replace(/\s+/g, ' ').trim(), page: Number(item.getAttribute('page')) }))
    .filter((entry) => entry.title && Number.isInteger(entry.page) && entry.page >= 1 && entry.page <= pageCount);
}
