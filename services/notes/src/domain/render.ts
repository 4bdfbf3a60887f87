// A note as a client of one API version receives it: camelCase, every field
// present (null for the other content type), `totalText` encrypted with the
// key derived from the reader-token of the request (the architecture brief's
// text scheme), `epubLocation` in that version's form.
import { deriveTextKey, encryptText } from '@folio/crypto';
import type { ApiVersion, EpubLocation, Note } from './note.js';

export interface NoteView {
  id: number;
  uuid: string;
  color: string;
  totalLength: number;
  totalText: string;
  annotationText: string | null;
  startPage: number | null;
  startPageStartOffset: number | null;
  startPageLength: number | null;
  endPage: number | null;
  endPageLength: number | null;
  epubLocationStartCfi: string | null;
  epubLocationEndCfi: string | null;
  epubChapter: string | null;
  epubLocationStartChar: string | null;
  /** v2: an array; v1: a string. */
  epubLocation: string[] | string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * The v2 (array) form of a location. A v1 string that is the JSON text of an
 * array of strings (which is how v1 sees a v2 array) becomes that array again;
 * any other string becomes the only item.
 */
export function epubLocationAsList(location: EpubLocation): string[] {
  if (location.form === 'list') return [...location.items];
  try {
    const parsed: unknown = JSON.parse(location.text);
    if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string')) return parsed as string[];
  } catch {
    // not JSON: a plain location string
  }
  return [location.text];
}

/** The v1 (string) form of a location: a v2 array is shown as its JSON text. */
export function epubLocationAsText(location: EpubLocation): string {
  return location.form === 'text' ? location.text : JSON.stringify(location.items);
}

/** Renders notes for one request; the text key is derived once per request, not per note. */
export class NoteRenderer {
  private readonly key: Buffer;

  constructor(
    private readonly readerToken: string,
    private readonly version: ApiVersion,
  ) {
    this.key = deriveTextKey(readerToken);
  }

  render(note: Note): NoteView {
    const location = note.epubLocation;
    return {
      id: note.id,
      uuid: note.uuid,
      color: note.color,
      totalLength: note.totalLength,
      totalText: encryptText(this.readerToken, note.totalText, this.key),
      annotationText: note.annotationText,
      startPage: note.startPage,
      startPageStartOffset: note.startPageStartOffset,
      startPageLength: note.startPageLength,
      endPage: note.endPage,
      endPageLength: note.endPageLength,
      epubLocationStartCfi: note.epubLocationStartCfi,
      epubLocationEndCfi: note.epubLocationEndCfi,
      epubChapter: note.epubChapter,
      epubLocationStartChar: note.epubLocationStartChar,
      epubLocation: location === null ? null : this.version === 'v2' ? epubLocationAsList(location) : epubLocationAsText(location),
      createdAt: note.createdAt.toISOString(),
      updatedAt: note.updatedAt.toISOString(),
    };
  }
}
