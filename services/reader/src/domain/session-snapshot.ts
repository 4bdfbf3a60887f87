// A session's content as its record stores it (SessionRecord.snapshot), for
// GET/DELETE {store}/api/v1/sessions/{id}. The stored keys are the ones
// sessions have always been stored with, so that every record already stored
// reads back; the record holds no signed URL, which would be a credential at
// rest, and one read back never shows one (older records still hold the
// signed URLs of their first answer).
import type { SessionContent } from './content.js';
import type { TocEntry } from './settings.js';

export function snapshotOf(content: SessionContent): Record<string, unknown> {
  return {
    cover: content.cover,
    table_of_contents: content.tableOfContents,
    custom_preview: content.customPreview,
    file_url: null,
    files_urls: null,
    files_info: content.pdf?.filesInfo ?? null,
    articles: content.pdf ? [] : null,
    spine: content.epub?.spine ?? null,
    total_words: content.epub?.totalWords ?? null,
    tracks: content.audio ? content.audio.tracks.map(({ title, duration }) => ({ title, url: null, duration })) : null,
    layout: content.layout,
    reading_progression: content.readingProgression,
  };
}

/** The content of a stored snapshot; keys a snapshot stored before they were recorded lacks read as unset. */
export function contentOfSnapshot(snapshot: Record<string, unknown>): SessionContent {
  const { spine, files_info: filesInfo, tracks } = snapshot;
  return {
    cover: typeof snapshot.cover === 'string' ? snapshot.cover : '',
    tableOfContents: recordsOf(snapshot.table_of_contents).map(tocEntryOf),
    customPreview: snapshot.custom_preview === true,
    epub: Array.isArray(spine)
      ? {
          fileUrl: null,
          spine: recordsOf(spine).map((item) => ({ href: String(item.href ?? ''), idref: String(item.idref ?? '') })),
          totalWords: numberOr(snapshot.total_words, 0),
        }
      : null,
    pdf:
      !Array.isArray(spine) && Array.isArray(filesInfo)
        ? { filesUrls: null, filesInfo: recordsOf(filesInfo).map((size) => ({ width: numberOr(size.width, 0), height: numberOr(size.height, 0) })) }
        : null,
    audio:
      !Array.isArray(spine) && !Array.isArray(filesInfo) && Array.isArray(tracks)
        ? { tracks: recordsOf(tracks).map((track) => ({ title: String(track.title ?? ''), url: null, duration: numberOr(track.duration, 0) })) }
        : null,
    layout: snapshot.layout === 'reflowable' || snapshot.layout === 'fixed' ? snapshot.layout : null,
    readingProgression: snapshot.reading_progression === 'ltr' || snapshot.reading_progression === 'rtl' ? snapshot.reading_progression : null,
  };
}

function tocEntryOf(entry: Record<string, unknown>): TocEntry {
  return {
    title: String(entry.title ?? ''),
    ...(typeof entry.href === 'string' && { href: entry.href }),
    ...(typeof entry.page === 'number' && { page: entry.page }),
    ...(typeof entry.track === 'number' && { track: entry.track }),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function recordsOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}
