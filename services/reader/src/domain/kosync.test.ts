import { describe, expect, it } from 'vitest';
import { locationOfProgress, progressOfLocation } from './kosync.js';
import { MANIFEST_BASE } from '../../test/support/content-manifest.js';
import type { ContentManifest } from './repositories.js';

const epub = {
  ...MANIFEST_BASE,
  type: 'epub',
  epub: {
    file_key: 'k',
    size: 1,
    spine: [
      { href: 'c1.xhtml', idref: 'c1', title: '1', words: 100 },
      { href: 'c2.xhtml', idref: 'c2', title: '2', words: 300 },
      { href: 'c3.xhtml', idref: 'c3', title: '3', words: 600 },
    ],
    toc: [],
    total_words: 1000,
  },
  pdf: null,
  audio: null,
} as ContentManifest;
const pdf = {
  ...MANIFEST_BASE,
  type: 'pdf',
  epub: null,
  audio: null,
  pdf: { pages: Array.from({ length: 10 }, (_, i) => ({ key: `p${i}`, width: 1, height: 1, words: 1 })), toc: [] },
} as ContentManifest;

describe('KOReader progress <-> reading positions', () => {
  it('when KOReader sends an EPUB xpointer, then its DocFragment names the chapter (1-based, clamped)', () => {
    expect(locationOfProgress(epub, '/body/DocFragment[2]/body/p[3]/text().17', 0.9)).toEqual({ chapterHref: 'c2.xhtml', cfi: 'epubcfi(/6/4!/4/2)' });
    expect(locationOfProgress(epub, '/body/DocFragment[40]/body', 0.1)).toMatchObject({ chapterHref: 'c3.xhtml' });
  });

  it('when the EPUB progress is no xpointer, then the chapter at the percentage, weighted by words', () => {
    expect(locationOfProgress(epub, 'something', 0.05)).toMatchObject({ chapterHref: 'c1.xhtml' });
    expect(locationOfProgress(epub, 'something', 0.2)).toMatchObject({ chapterHref: 'c2.xhtml' });
    expect(locationOfProgress(epub, 'something', 0.5)).toMatchObject({ chapterHref: 'c3.xhtml' });
    expect(locationOfProgress(epub, 'something', 1)).toMatchObject({ chapterHref: 'c3.xhtml' });
  });

  it('when KOReader sends a PDF page, then that page (clamped); otherwise the page at the percentage', () => {
    expect(locationOfProgress(pdf, '7', 0.1)).toEqual({ page: 7 });
    expect(locationOfProgress(pdf, '70', 0.1)).toEqual({ page: 10 });
    expect(locationOfProgress(pdf, 'x', 0.45)).toEqual({ page: 5 });
    expect(locationOfProgress(pdf, 'x', 0)).toEqual({ page: 1 });
  });

  it('when a position is given back to KOReader, then as an xpointer of the chapter or the page, with the share before it', () => {
    expect(progressOfLocation(epub, { chapterHref: 'c3.xhtml#x', cfi: 'epubcfi(/6/6!/4/2)' })).toEqual({
      progress: '/body/DocFragment[3]/body',
      percentage: 0.4,
    });
    expect(progressOfLocation(pdf, { page: 5 })).toEqual({ progress: '5', percentage: 0.5 });
    expect(progressOfLocation(epub, { page: 5 })).toBeNull();
  });
});
