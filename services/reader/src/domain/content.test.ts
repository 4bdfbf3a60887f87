import { describe, expect, it } from 'vitest';
import { previewLimit } from './content.js';
import { MANIFEST_BASE } from '../../test/support/content-manifest.js';
import type { ContentManifest } from './repositories.js';

const pdf = (pages: number): ContentManifest => ({
  ...MANIFEST_BASE,
  type: 'pdf',
  pdf: { pages: Array.from({ length: pages }, () => ({ key: '', width: 1, height: 1, words: 10 })), toc: [] },
});
const epub = (words: number[]): ContentManifest => ({
  ...MANIFEST_BASE,
  type: 'epub',
  epub: {
    file_key: '',
    size: 0,
    toc: [],
    total_words: words.reduce((a, b) => a + b, 0),
    spine: words.map((w, i) => ({ href: `c${i}.xhtml`, idref: `c${i}`, title: '', words: w })),
  },
});

describe('preview share', () => {
  it('when the issue is a PDF, then the preview is the first ceil(pages x percentage / 100) pages', () => {
    expect(previewLimit(pdf(4), 10)).toBe(1);
    expect(previewLimit(pdf(20), 10)).toBe(2);
    expect(previewLimit(pdf(21), 10)).toBe(3);
    expect(previewLimit(pdf(3), 100)).toBe(3);
    expect(previewLimit(pdf(3), 0)).toBe(1);
  });

  it('when the issue is an EPUB, then the preview is the first chapters within that share of words, at least one', () => {
    expect(previewLimit(epub([100, 100, 100, 100, 100, 100, 100, 100, 100, 100]), 30)).toBe(3);
    expect(previewLimit(epub([100, 100, 100, 100, 100, 100, 100, 100, 100, 100]), 25)).toBe(2);
    expect(previewLimit(epub([500, 10, 10]), 20)).toBe(1);
    expect(previewLimit(epub([10, 10, 480]), 10)).toBe(2);
  });
});
