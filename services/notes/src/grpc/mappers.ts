// Proto messages <-> the domain's types. Only decoding and encoding: the rules
// live in domain/.
import { invalidArgument } from '@folio/errors';
import type { notes } from '@folio/proto';
import type { Note, NoteScope } from '../domain/note.js';
import type { NoteDraft } from '../domain/rules.js';

/**
 * The reader session of the call. Missing parts are a caller's bug (the
 * gateway always sends a verified scope), not a client's input error.
 */
export function scopeOf(scope: notes.ReaderScope | undefined): NoteScope {
  const positive = (value: number | undefined) => Number.isInteger(value) && (value as number) > 0;
  if (!scope || !positive(scope.tenantId) || !positive(scope.userId) || !positive(scope.issueId)) {
    throw invalidArgument('The reader session scope (tenant, user, issue) is required.');
  }
  return { tenantId: scope.tenantId, userId: scope.userId, issueId: scope.issueId };
}

export function draftOf(draft: notes.NoteDraft | undefined): NoteDraft {
  if (!draft) return {};
  const { epubLocationList, epubLocationText, ...fields } = draft;
  return {
    ...fields,
    epubLocation:
      epubLocationList !== undefined
        ? { form: 'list', items: epubLocationList.items }
        : epubLocationText !== undefined
          ? { form: 'text', text: epubLocationText }
          : undefined,
  };
}

const orUndefined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

/** A note as it is: plaintext, the EPUB location in the form it was created in. */
export function toNote(note: Note): notes.Note {
  const location = note.epubLocation;
  return {
    id: note.id,
    uuid: note.uuid,
    color: note.color,
    totalLength: note.totalLength,
    totalText: note.totalText,
    annotationText: orUndefined(note.annotationText),
    startPage: orUndefined(note.startPage),
    startPageStartOffset: orUndefined(note.startPageStartOffset),
    startPageLength: orUndefined(note.startPageLength),
    endPage: orUndefined(note.endPage),
    endPageLength: orUndefined(note.endPageLength),
    epubLocationStartCfi: orUndefined(note.epubLocationStartCfi),
    epubLocationEndCfi: orUndefined(note.epubLocationEndCfi),
    epubChapter: orUndefined(note.epubChapter),
    epubLocationStartChar: orUndefined(note.epubLocationStartChar),
    epubLocationList: location?.form === 'list' ? { items: location.items } : undefined,
    epubLocationText: location?.form === 'text' ? location.text : undefined,
    createdAt: note.createdAt.toISOString(),
    updatedAt: note.updatedAt.toISOString(),
  };
}
