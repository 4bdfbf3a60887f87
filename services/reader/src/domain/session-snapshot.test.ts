import { describe, expect, it } from 'vitest';
import type { SessionContent } from './content.js';
import { contentOfSnapshot, snapshotOf } from './session-snapshot.js';

const epub: SessionContent = {
  cover: 'https://media/cover.jpg',
  tableOfContents: [{ title: 'One', href: 'text/chapter-1.xhtml' }],
  customPreview: false,
  epub: { fileUrl: 'https://media/book.epub?sig=1', spine: [{ href: 'text/chapter-1.xhtml', idref: 'chapter-1' }], totalWords: 120 },
  pdf: null,
  audio: null,
  layout: 'reflowable',
  readingProgression: 'ltr',
};

const audio: SessionContent = {
  ...epub,
  tableOfContents: [{ title: 'Harbour', track: 0 }],
  epub: null,
  audio: { tracks: [{ title: 'Harbour', url: 'https://media/01.mp3?sig=1', duration: 61 }] },
  layout: null,
  readingProgression: null,
};

describe('session snapshots', () => {
  it('when a session is stored, then its snapshot has the stored keys in their order and no signed URL', () => {
    expect(snapshotOf(epub)).toEqual({
      cover: 'https://media/cover.jpg',
      table_of_contents: [{ title: 'One', href: 'text/chapter-1.xhtml' }],
      custom_preview: false,
      file_url: null,
      files_urls: null,
      files_info: null,
      articles: null,
      spine: [{ href: 'text/chapter-1.xhtml', idref: 'chapter-1' }],
      total_words: 120,
      tracks: null,
      layout: 'reflowable',
      reading_progression: 'ltr',
    });
    expect(Object.keys(snapshotOf(epub))[0]).toBe('cover');
    expect(snapshotOf(audio).tracks).toEqual([{ title: 'Harbour', url: null, duration: 61 }]);
  });

  it('when a snapshot is read back, then it is the content without signed URLs', () => {
    expect(contentOfSnapshot(snapshotOf(epub))).toEqual({ ...epub, epub: { ...epub.epub!, fileUrl: null } });
    expect(contentOfSnapshot(snapshotOf(audio))).toEqual({ ...audio, audio: { tracks: [{ title: 'Harbour', url: null, duration: 61 }] } });
  });

  it('when an older snapshot still holds signed URLs and lacks layout, then they read as null', () => {
    const older = {
      cover: 'c',
      table_of_contents: [{ title: 'P', page: 1 }],
      custom_preview: true,
      files_urls: ['https://media/p1?sig=1'],
      files_info: [{ width: 600, height: 800 }],
    };
    expect(contentOfSnapshot(older)).toEqual({
      cover: 'c',
      tableOfContents: [{ title: 'P', page: 1 }],
      customPreview: true,
      epub: null,
      pdf: { filesUrls: null, filesInfo: [{ width: 600, height: 800 }] },
      audio: null,
      layout: null,
      readingProgression: null,
    });
  });
});
