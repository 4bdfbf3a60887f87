// What an ingest tells the publisher about the file: the metadata it read
// (the proto's ContentMetadata, also kept in the content manifest) and
// reader's own findings for PDFs and audio (EPUBs have EPUBCheck's, in
// epubcheck.ts). A finding is advice, never a refusal: a file that cannot be
// read fails the ingest with InvalidContentError instead.
import type { ContentMetadata, ValidationFinding } from '../domain/repositories.js';
import type { AudioTrackExtract } from './audio.js';
import type { EpubExtract } from './epub.js';
import type { PdfExtract } from './pdf.js';

export function epubMetadata(epub: EpubExtract): ContentMetadata {
  const { cover_item: _cover, ...metadata } = epub.metadata;
  return { ...metadata, number_of_pages: null, duration_seconds: null, chapters: epub.chapters };
}

export function pdfMetadata(pdf: PdfExtract): ContentMetadata {
  return {
    title: pdf.title ?? '',
    authors: pdf.author ? [pdf.author] : [],
    contributors: [],
    publisher: '',
    lang: pdf.lang ?? '',
    description: pdf.subject ?? '',
    identifiers: [],
    number_of_pages: pdf.pages.length,
    duration_seconds: null,
    // The outline's entries are its chapters; a PDF without one is read page by page.
    chapters: pdf.toc.length > 0 ? pdf.toc.length : pdf.pages.length,
    layout: 'fixed',
    reading_progression: pdf.direction ?? 'auto',
    has_cover: false,
    accessibility: null,
  };
}

export function audioMetadata(tracks: AudioTrackExtract[]): ContentMetadata {
  const first = (pick: (track: AudioTrackExtract) => string | null) => tracks.map(pick).find((value): value is string => Boolean(value)) ?? '';
  return {
    title: first((track) => track.album) || first((track) => track.title),
    authors: [...new Set(tracks.flatMap((track) => track.artists))],
    contributors: [],
    publisher: first((track) => track.publisher),
    lang: first((track) => track.lang),
    description: first((track) => track.description),
    identifiers: [],
    number_of_pages: null,
    duration_seconds: tracks.reduce((sum, track) => sum + track.duration, 0),
    // A track's marked chapters, or the track itself when it marks none.
    chapters: tracks.reduce((sum, track) => sum + Math.max(1, track.chapters.length), 0),
    layout: null,
    reading_progression: 'auto',
    has_cover: false,
    accessibility: null,
  };
}

/** Pages listed in one finding before the rest are counted. */
const LISTED_PAGES = 10;

const pageList = (pages: number[]) =>
  pages.length <= LISTED_PAGES ? pages.join(', ') : `${pages.slice(0, LISTED_PAGES).join(', ')} and ${pages.length - LISTED_PAGES} more`;

export function pdfFindings(pdf: PdfExtract, pageWidth: number): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  if (pdf.encryption) {
    findings.push({
      severity: 'warning',
      code: 'FOLIO-PDF-001',
      message:
        `The PDF has an owner password (${pdf.encryption.replace(/^yes\s*/i, '').replace(/^\(|\)$/g, '') || 'restrictions'}): it opens without one, ` +
        'and readers get its pages as images and its text for search whatever it restricts',
    });
  }
  if (pdf.boundedPages.length > 0) {
    findings.push({
      severity: 'warning',
      code: 'FOLIO-PDF-002',
      message: `${pdf.boundedPages.length === 1 ? 'A page is' : `${pdf.boundedPages.length} pages are`} of so long a shape that ${pdf.boundedPages.length === 1 ? 'its image was' : 'their images were'} made smaller than ${pageWidth} px wide (its longer side bounded): page ${pageList(pdf.boundedPages)}`,
      location: `page ${pdf.boundedPages[0]}`,
    });
  }
  const withoutText = pdf.pages.flatMap((page, index) => (page.words === 0 ? [index + 1] : []));
  if (withoutText.length === pdf.pages.length) {
    findings.push({ severity: 'warning', code: 'FOLIO-PDF-003', message: 'No page has text (scanned pages without OCR?): search in the issue finds nothing' });
  } else if (withoutText.length > 0) {
    findings.push({
      severity: 'info',
      code: 'FOLIO-PDF-004',
      message: `Pages without text, which search cannot find: ${pageList(withoutText)}`,
      location: `page ${withoutText[0]}`,
    });
  }
  if (pdf.toc.length === 0 && pdf.pages.length > 1) {
    findings.push({ severity: 'info', code: 'FOLIO-PDF-005', message: 'The PDF has no outline (bookmarks): its table of contents lists pages' });
  }
  if (!pdf.title) findings.push({ severity: 'info', code: 'FOLIO-PDF-006', message: 'The PDF names no title: the issue name is shown' });
  return findings;
}

export function audioFindings(tracks: { extract: AudioTrackExtract; fileName: string }[]): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  for (const { extract, fileName } of tracks) {
    if (extract.droppedChapters > 0) {
      findings.push({
        severity: 'warning',
        code: 'FOLIO-AUDIO-001',
        message: `${extract.droppedChapters} chapter mark${extract.droppedChapters === 1 ? ' is' : 's are'} at or past the end of the track, left out`,
        location: fileName,
      });
    }
    if (!extract.title)
      findings.push({ severity: 'info', code: 'FOLIO-AUDIO-002', message: 'The track has no title tag: it is titled by its file name', location: fileName });
  }
  return findings;
}
