// Notes' messages → the spec's camelCase JSON of one API version (v1 and v2
// differ only in the form of `epubLocation`), the text encrypted for the
// reader session that asked.
import { deriveTextKey, encryptText } from '@folio/crypto';
import { DomainError } from '@folio/errors';
import type { notes } from '@folio/proto';
import type { z } from 'zod';
import type { NoteV1, NoteV2 } from '../routes/schemas.js';

export type NoteApiVersion = 'v1' | 'v2';
type NoteWire<V extends NoteApiVersion> = z.output<V extends 'v1' ? typeof NoteV1 : typeof NoteV2>;

/**
 * The v2 (array) form of a location. A v1 string that is the JSON text of an
 * array of strings (which is how v1 sees a v2 array) becomes that array again;
 * any other string becomes the only item.
 */
export function epubLocationAsList(note: Pick<notes.Note, 'epubLocationList' | 'epubLocationText'>): string[] | null {
  if (note.epubLocationList) return [...note.epubLocationList.items];
  if (note.epubLocationText === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(note.epubLocationText);
    if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string')) return parsed as string[];
  } catch {
    // not JSON: a plain location string
  }
  return [note.epubLocationText];
}

/** The v1 (string) form of a location: a v2 array is shown as its JSON text. */
export function epubLocationAsText(note: Pick<notes.Note, 'epubLocationList' | 'epubLocationText'>): string | null {
  if (note.epubLocationList) return JSON.stringify(note.epubLocationList.items);
  return note.epubLocationText ?? null;
}

/**
 * Renders the notes of one reader-session request as the spec's camelCase
 * JSON of one API version: every key present (null for unset), `epubLocation`
 * in the version's form, `totalText` encrypted with the key derived from the
 * request's reader-token (AES-256-GCM, HKDF-SHA256, info `svc-reader-text-v1`;
 * the key is derived once per request, not per note).
 */
export function noteRenderer<V extends NoteApiVersion>(version: V, readerToken: string): (note: notes.Note | undefined) => NoteWire<V> {
  const key = deriveTextKey(readerToken);
  return (note) => {
    if (!note) throw new DomainError('INTERNAL', 'notes answered without a note');
    return {
      id: note.id,
      uuid: note.uuid,
      color: note.color,
      totalLength: note.totalLength,
      totalText: encryptText(readerToken, note.totalText, key),
      annotationText: note.annotationText ?? null,
      startPage: note.startPage ?? null,
      startPageStartOffset: note.startPageStartOffset ?? null,
      startPageLength: note.startPageLength ?? null,
      endPage: note.endPage ?? null,
      endPageLength: note.endPageLength ?? null,
      epubLocationStartCfi: note.epubLocationStartCfi ?? null,
      epubLocationEndCfi: note.epubLocationEndCfi ?? null,
      epubChapter: note.epubChapter ?? null,
      epubLocationStartChar: note.epubLocationStartChar ?? null,
      epubLocation: version === 'v1' ? epubLocationAsText(note) : epubLocationAsList(note),
      createdAt: note.createdAt,
      updatedAt: note.updatedAt,
    } as NoteWire<V>;
  };
}
