// Validated request bodies and query parameters → the services' messages, for
// the routes of more than one file. Answers are rendered in render/.
import { catalog, type notes } from '@folio/proto';

/** The validated create body (either version). JSON null and absent are both "unset". */
export interface NoteCreateBody {
  uuid: string;
  color: string;
  totalLength: number;
  totalText: string;
  annotationText?: string | null | undefined;
  startPage?: number | null | undefined;
  startPageStartOffset?: number | null | undefined;
  startPageLength?: number | null | undefined;
  endPage?: number | null | undefined;
  endPageLength?: number | null | undefined;
  epubLocationStartCfi?: string | null | undefined;
  epubLocationEndCfi?: string | null | undefined;
  epubChapter?: string | null | undefined;
  epubLocationStartChar?: string | null | undefined;
  epubLocation?: string[] | string | null | undefined;
}

/**
 * The create body as a NoteDraft: null → undefined (ts-proto's encoders only
 * skip undefined), `epubLocation` to the list (v2 array) or the text (v1 string).
 */
export function noteDraftOf(body: NoteCreateBody): notes.NoteDraft {
  const unset = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);
  const location = unset(body.epubLocation);
  return {
    uuid: body.uuid,
    color: body.color,
    totalLength: body.totalLength,
    totalText: body.totalText,
    annotationText: unset(body.annotationText),
    startPage: unset(body.startPage),
    startPageStartOffset: unset(body.startPageStartOffset),
    startPageLength: unset(body.startPageLength),
    endPage: unset(body.endPage),
    endPageLength: unset(body.endPageLength),
    epubLocationStartCfi: unset(body.epubLocationStartCfi),
    epubLocationEndCfi: unset(body.epubLocationEndCfi),
    epubChapter: unset(body.epubChapter),
    epubLocationStartChar: unset(body.epubLocationStartChar),
    ...(Array.isArray(location) ? { epubLocationList: { items: location } } : {}),
    ...(typeof location === 'string' ? { epubLocationText: location } : {}),
  };
}

/**
 * The comment change of an update: absent key → keep (undefined), null →
 * clear (`{}`), a string → replace. `raw` is the body as sent, where an
 * absent key and a null can be told apart.
 */
export function annotationChangeOf(raw: unknown, value: string | null | undefined): notes.AnnotationTextChange | undefined {
  const present = typeof raw === 'object' && raw !== null && Object.prototype.hasOwnProperty.call(raw, 'annotationText');
  if (!present) return undefined;
  return typeof value === 'string' ? { value } : {};
}

/** The `scope` query parameter as catalog's enum (`owned` is the default). */
export function catalogScope(scope: 'owned' | 'all' | undefined): catalog.Scope {
  return scope === 'all' ? catalog.Scope.SCOPE_ALL : catalog.Scope.SCOPE_OWNED;
}
