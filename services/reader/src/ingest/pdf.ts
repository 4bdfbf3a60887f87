// Reads a PDF with poppler's tools: page count and metadata (pdfinfo), text per
// page (pdftotext -layout, paragraphs split at blank lines), the outline as the
// table of contents (pdftohtml -xml), the language from the catalog, and page
// images rendered at a fixed width (pdftoppm -png -scale-to-x <width>
// -scale-to-y -1) with their pixel sizes; a page of odd shape is bounded by its
// longer side instead. A PDF with an owner password only (restrictions on
// copying or printing, no password to open it) reads like any other. The page
// images stay in a work folder on disk until the caller has stored them and
// disposes of the extract, so a long PDF never holds all its pages in memory.
import { mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import type { TextSegment } from '../search/text-index.js';
import { countWords } from '../search/text.js';
import { InvalidContentError } from './epub.js';
import { pngSize, run, ToolError } from './tools.js';

export interface PdfPage {
  /** The rendered page image (PNG), in the extract's work folder until `dispose()`. */
  imageFile: string;
  width: number;
  height: number;
  text: string;
  words: number;
}

export interface PdfExtract {
  title: string | null;
  author: string | null;
  /** The catalog's /Lang (BCP 47), null when the PDF names none or keeps its catalog compressed. */
  lang: string | null;
  pages: PdfPage[];
  toc: { title: string; page: number }[];
  segments: TextSegment[];
  /** The info dictionary's Subject (what the PDF says it is about), null when blank. */
  subject: string | null;
  /** pdfinfo's `Encrypted:` value when the PDF is encrypted (`yes (print:no copy:no ...)`), null otherwise. */
  encryption: string | null;
  /** Pages (1-based) of so odd a shape that their image was bounded by the longer side instead of the configured width. */
  boundedPages: number[];
  /** The catalog's /ViewerPreferences /Direction: `rtl` for R2L, `ltr` for L2R, null when unstated or unreadable. */
  direction: 'ltr' | 'rtl' | null;
  /** Removes the work folder of the page images. */
  dispose(): Promise<void>;
}

export interface ReadPdfOptions {
  pageWidth: number;
  renderers?: number;
  /** Kills the poppler processes still running and fails the read (the ingest's deadline). */
  signal?: AbortSignal;
  /** One poppler run is killed after this long. */
  toolTimeoutMs?: number;
  /** Address space of one poppler process (a page rendered past it fails instead of growing the machine's memory). */
  toolMaxMemoryBytes?: number;
}

export async function readPdf(path: string, options: ReadPdfOptions): Promise<PdfExtract> {
  const tool = {
    ...(options.signal && { signal: options.signal }),
    timeoutMs: options.toolTimeoutMs ?? 300_000,
    maxMemoryBytes: options.toolMaxMemoryBytes ?? 512 * 1024 * 1024,
  };
  const directory = await mkdtemp(join(tmpdir(), 'reader-pdf-'));
  try {
    const extract = await readWith(path, options, tool, directory);
    return { ...extract, dispose: () => rm(directory, { recursive: true, force: true }) };
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    // A poppler run that failed, ran too long or wrote too much: the PDF cannot be converted.
    throw error instanceof ToolError ? new InvalidContentError(`the PDF could not be converted: ${error.message}`) : error;
  }
}

type ToolOptions = { signal?: AbortSignal; timeoutMs: number; maxMemoryBytes: number };

/** What a PDF starts with: `%PDF-` within its first KiB (readers accept a little junk before it, as poppler does). */
async function assertPdfSignature(path: string): Promise<void> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(1024);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    if (!head.subarray(0, bytesRead).includes('%PDF-')) {
      const start = head
        .subarray(0, Math.min(bytesRead, 16))
        .toString('latin1')
        .replace(/[^\x20-\x7e]/g, '.');
      throw new InvalidContentError(`the file is not a PDF: a PDF starts with %PDF-, this one with ${JSON.stringify(start)}`);
    }
  } finally {
    await file.close();
  }
}

async function readWith(path: string, options: ReadPdfOptions, tool: ToolOptions, directory: string): Promise<Omit<PdfExtract, 'dispose'>> {
  await assertPdfSignature(path);
  const info = (
    await run('pdfinfo', ['-enc', 'UTF-8', path], tool).catch((error: Error) => {
      if (!(error instanceof ToolError)) throw error;
      throw new InvalidContentError(`not a readable PDF: ${error.message}`);
    })
  ).toString('utf8');
  const fields = infoFields(info);
  const field = (name: string) => fields.get(name) || null;
  const pageCount = Number(field('Pages') ?? '0');
  if (!Number.isInteger(pageCount) || pageCount < 1) throw new InvalidContentError('the PDF has no pages');
  const sizes = pageSizes(
    (await run('pdfinfo', ['-f', '1', '-l', String(pageCount), path], { ...tool, maxOutputBytes: 256 * 1024 * 1024 })).toString('utf8'),
    pageCount,
  );

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

  const rendered = renderSizes(sizes, options.pageWidth);
  const images = await renderPages(path, rendered, options.renderers ?? 2, tool, directory);
  const pages: PdfPage[] = [];
  for (const [index, imageFile] of images.entries()) {
    const text = pageTexts[index] ?? '';
    pages.push({ imageFile, ...(await pngFileSize(imageFile)), text, words: countWords(text) });
  }
  const encrypted = field('Encrypted');
  const catalog = await catalogFacts(path);
  return {
    title: field('Title'),
    author: field('Author'),
    lang: catalog.lang,
    pages,
    toc: await readOutline(path, pageCount, tool),
    segments,
    subject: field('Subject'),
    encryption: encrypted && /^yes\b/i.test(encrypted) ? encrypted : null,
    boundedPages: rendered.flatMap((size, index) => (size.height !== -1 ? [index + 1] : [])),
    direction: catalog.direction,
  };
}

/** pdfinfo's `Name: value` lines; a blank value stays blank (the next line is never read as its value). */
export function infoFields(info: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of info.split(/\r?\n/)) {
    const match = /^([A-Za-z][A-Za-z ]*?):[ \t]*(.*)$/.exec(line);
    if (match && !fields.has(match[1]!)) fields.set(match[1]!, match[2]!.trim());
  }
  return fields;
}

/** Each page's size in points as displayed (pdfinfo -f -l: `Page N size: W x H pts`, `Page N rot: R`). */
function pageSizes(info: string, pageCount: number): { width: number; height: number }[] {
  const sizes = Array.from({ length: pageCount }, () => ({ width: 612, height: 792 }));
  const rotated = new Set<number>();
  for (const line of info.split(/\r?\n/)) {
    const size = /^Page\s+(\d+)\s+size:\s*([\d.]+)\s*x\s*([\d.]+)/.exec(line);
    if (size && Number(size[1]) <= pageCount) sizes[Number(size[1]) - 1] = { width: Number(size[2]), height: Number(size[3]) };
    const rot = /^Page\s+(\d+)\s+rot:\s*(\d+)/.exec(line);
    if (rot && Number(rot[2]) % 180 === 90) rotated.add(Number(rot[1]));
  }
  return sizes.map((size, index) => (rotated.has(index + 1) ? { width: size.height, height: size.width } : size));
}

/**
 * The pixel size each page is rendered at (height -1: of the page's shape): the configured width, unless that would make the page's longer
 * side longer than MAX_SIDE_FACTOR widths (a strip 3 pt wide and 14,400 pt long), in which case the longer
 * side is that bound and the other follows the page's shape (at least 1 px). One page image costs at most
 * `width x MAX_SIDE_FACTOR x width` pixels.
 */
export function renderSizes(sizes: { width: number; height: number }[], width: number): { width: number; height: number }[] {
  const longest = width * MAX_SIDE_FACTOR;
  return sizes.map((size) => {
    const w = size.width > 0 ? size.width : 1;
    const h = size.height > 0 ? size.height : 1;
    // -1: pdftoppm keeps the page's shape at that width (as for every page of usual shape).
    if ((width * h) / w <= longest) return { width, height: -1 };
    return { width: Math.max(1, Math.round((longest * w) / h)), height: longest };
  });
}

export const MAX_SIDE_FACTOR = 4;

/**
 * The document's language (/Lang) and reading direction (/ViewerPreferences /Direction) from its catalog,
 * when the catalog is stored uncompressed (else null).
 */
async function catalogFacts(path: string): Promise<{ lang: string | null; direction: 'ltr' | 'rtl' | null }> {
  const data = (await readFile(path)).toString('latin1');
  let lang: string | null = null;
  let direction: 'ltr' | 'rtl' | null = null;
  for (const match of data.matchAll(/\/Type\s*\/Catalog\b/g)) {
    const start = Math.max(data.lastIndexOf(' obj', match.index), 0);
    const end = data.indexOf('endobj', match.index);
    const dictionary = data.slice(start, end === -1 ? match.index + 4096 : end);
    lang ??= /\/Lang\s*\(([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)\)/.exec(dictionary)?.[1] ?? null;
    const stated = /\/Direction\s*\/(R2L|L2R)\b/.exec(dictionary)?.[1];
    direction ??= stated === 'R2L' ? 'rtl' : stated === 'L2R' ? 'ltr' : null;
  }
  return { lang, direction };
}

/** Width and height of a PNG file, from its first bytes. */
async function pngFileSize(file: string): Promise<{ width: number; height: number }> {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(24);
    const { bytesRead } = await handle.read(header, 0, 24, 0);
    return pngSize(header.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** The rendered pages' PNG files in `directory`, in page order. */
async function renderPages(
  path: string,
  sizes: { width: number; height: number }[],
  renderers: number,
  tool: ToolOptions,
  directory: string,
): Promise<string[]> {
  const pageCount = sizes.length;
  // Runs of pages of one rendered size, at most 25 pages each, rendered `renderers` at a time, one pdftoppm each.
  const runs: { first: number; last: number; width: number; height: number }[] = [];
  const chunk = Math.max(25, Math.ceil(pageCount / Math.max(1, renderers)));
  sizes.forEach((size, index) => {
    const current = runs.at(-1);
    if (current && current.width === size.width && current.height === size.height && current.last - current.first + 1 < chunk) current.last = index + 1;
    else runs.push({ first: index + 1, last: index + 1, ...size });
  });
  let next = 0;
  const worker = async () => {
    while (next < runs.length) {
      const part = next++;
      const { first, last, width, height } = runs[part]!;
      await run(
        'pdftoppm',
        ['-png', '-f', String(first), '-l', String(last), '-scale-to-x', String(width), '-scale-to-y', String(height), path, join(directory, `p${part}`)],
        tool,
      );
    }
  };
  // Every renderer is waited for, failed or not, so that none writes into the folder after it is removed.
  const results = await Promise.allSettled(Array.from({ length: Math.max(1, Math.min(renderers, runs.length)) }, worker));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  // pdftoppm names files <prefix>-<page>.png, the page zero-padded to the width of the page count.
  const files = (await readdir(directory))
    .map((name) => ({ name, page: Number(/-(\d+)\.png$/.exec(name)?.[1] ?? NaN) }))
    .filter((file) => Number.isInteger(file.page))
    .sort((a, b) => a.page - b.page);
  if (files.length !== pageCount) throw new InvalidContentError(`rendered ${files.length} of ${pageCount} pages`);
  return files.map((file) => join(directory, file.name));
}

/** The PDF outline (bookmarks) as `{title, page}`, flattened in document order. */
async function readOutline(path: string, pageCount: number, tool: ToolOptions): Promise<{ title: string; page: number }[]> {
  // pdftohtml prints the outline after the pages; one page keeps the output small.
  // -nodrm: a PDF with only an owner password (copy or print restricted) opens in every reader; pdftohtml
  // alone refuses it, and the outline is navigation, not copied text.
  const xml = (await run('pdftohtml', ['-xml', '-i', '-q', '-nodrm', '-stdout', '-f', '1', '-l', '1', path], tool)).toString('utf8');
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
