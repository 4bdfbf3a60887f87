import { describe, expect, it } from 'vitest';
import { locationOfProgression, progressionOfLocation } from './progression.js';
import { MANIFEST_BASE } from '../../test/support/content-manifest.js';
import type { ContentManifest } from './repositories.js';

const epub = {
  ...MANIFEST_BASE,
  type: 'epub',
  epub: {
    file_key: 'k',
    size: 1,
    spine: [
      { href: 'text/c1.xhtml', idref: 'c1', title: 'One', words: 100 },
      { href: 'text/c2.xhtml', idref: 'c2', title: 'Two', words: 300 },
      { href: 'text/c3.xhtml', idref: 'c3', title: '', words: 600 },
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
const audio = {
  ...MANIFEST_BASE,
  type: 'audio',
  epub: null,
  pdf: null,
  audio: {
    tracks: [
      { title: 'Part 1', key: '1/1003/track-1.mp3', duration: 100, size: 1 },
      { title: 'Part 2', key: '1/1003/track-2.mp3', duration: 300, size: 1 },
    ],
  },
} as ContentManifest;

describe('OPDS progression -> reading position', () => {
  it('when a reference names a chapter (by its href, or a path ending with it), then that chapter, at its CFI fragment or its start', () => {
    expect(locationOfProgression(epub, 0.9, ['text/c2.xhtml#par36'])).toEqual({ chapterHref: 'text/c2.xhtml', cfi: 'epubcfi(/6/4!/4/2)' });
    expect(locationOfProgression(epub, 0, ['OEBPS/text/c3.xhtml'])).toEqual({ chapterHref: 'text/c3.xhtml', cfi: 'epubcfi(/6/6!/4/2)' });
    expect(locationOfProgression(epub, 0, ['#t=40.274', '/text/c1.xhtml#epubcfi(/6/2!/4/10/1:20)'])).toEqual({
      chapterHref: 'text/c1.xhtml',
      cfi: 'epubcfi(/6/2!/4/10/1:20)',
    });
  });

  it('when no reference names a chapter, then the chapter at the share of the words', () => {
    expect(locationOfProgression(epub, 0.05, [])).toMatchObject({ chapterHref: 'text/c1.xhtml' });
    expect(locationOfProgression(epub, 0.2, ['other.xhtml'])).toMatchObject({ chapterHref: 'text/c2.xhtml' });
    expect(locationOfProgression(epub, 1, [])).toMatchObject({ chapterHref: 'text/c3.xhtml' });
  });

  it('when the issue is a PDF, then the page of #page=, else the page at the share, in range', () => {
    expect(locationOfProgression(pdf, 0.9, ['#page=3'])).toEqual({ page: 3 });
    expect(locationOfProgression(pdf, 0, ['#page=99'])).toEqual({ page: 10 });
    expect(locationOfProgression(pdf, 0.45, [])).toEqual({ page: 5 });
    expect(locationOfProgression(pdf, 1, [])).toEqual({ page: 10 });
  });

  it('when the issue is audio, then #t= counts from the start of the audiobook, a track href with #t= names the track', () => {
    expect(locationOfProgression(audio, 0, ['#t=150.5'])).toEqual({ currentTrack: 1, currentSeek: 50.5 });
    expect(locationOfProgression(audio, 0, ['#t=npt:0:01:10'])).toEqual({ currentTrack: 0, currentSeek: 70 });
    expect(locationOfProgression(audio, 0, ['media/track-2.mp3#t=12'])).toEqual({ currentTrack: 1, currentSeek: 12 });
    expect(locationOfProgression(audio, 0.5, [])).toEqual({ currentTrack: 1, currentSeek: 100 });
  });
});

describe('reading position -> OPDS progression', () => {
  it('when an EPUB chapter is read, then the share of words before it, the chapter as reference and its title', () => {
    expect(progressionOfLocation(epub, { chapterHref: 'text/c2.xhtml', cfi: 'epubcfi(/6/4!/4/2)' })).toEqual({
      progression: 0.1,
      references: ['text/c2.xhtml'],
      title: 'Two',
    });
    expect(progressionOfLocation(epub, { chapterHref: 'text/c3.xhtml', cfi: 'epubcfi(/6/6!/4/2)' })).toMatchObject({ title: null });
  });

  it('when a page or a track is read, then #page= or #t= from the start, which map back to the same place', () => {
    const page = progressionOfLocation(pdf, { page: 5 })!;
    expect(page).toEqual({ progression: 0.4, references: ['#page=5'], title: null });
    expect(locationOfProgression(pdf, page.progression, [])).toEqual({ page: 5 });
    const track = progressionOfLocation(audio, { currentTrack: 1, currentSeek: 50 })!;
    expect(track).toEqual({ progression: 150 / 400, references: ['#t=150'], title: 'Part 2' });
    expect(locationOfProgression(audio, track.progression, track.references)).toEqual({ currentTrack: 1, currentSeek: 50 });
  });
});
