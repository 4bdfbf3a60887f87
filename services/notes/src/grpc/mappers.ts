// Proto messages <-> the domain's types. Only decoding and encoding: the rules
// live in domain/.
import { invalidArgument } from '@folio/errors';
import { notes } from '@folio/proto';
import type { ApiVersion, NoteScope } from '../domain/note.js';
import type { NoteView } from '../domain/render.js';
import type { NoteDraft } from '../domain/rules.js';

/**
 * The reader session of the call. Missing parts are a caller's bug (the
 * gateway always sends a verified scope), not a client's input error.
 */
export function scopeOf(scope: notes.ReaderScope | undefined): { scope: NoteScope; readerToken: string } {
  const positive = (value: number | undefined) => Number.isInteger(value) && (value as number) > 0;
  if (!scope || !positive(scope.tenantId) || !positive(scope.userId) || !positive(scope.issueId)) {
    throw invalidArgument('The reader session scope (tenant, user, issue) is required.');
  }
  if (!scope.readerToken) throw invalidArgument('The reader token is required.');
  return { scope: { tenantId: scope.tenantId, userId: scope.userId, issueId: scope.issueId }, readerToken: scope.readerToken };
}

export function versionOf(version: notes.ApiVersion): ApiVersion {
  if (version === notes.ApiVersion.API_VERSION_V1) return 'v1';
  if (version === notes.ApiVersion.API_VERSION_V2) return 'v2';
  throw invalidArgument('The API version is required.');
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

export function toNote(view: NoteView): notes.Note {
  const location = view.epubLocation;
  return {
    id: view.id,
    uuid: view.uuid,
    color: view.color,
    totalLength: view.totalLength,
    totalText: view.totalText,
    annotationText: orUndefined(view.annotationText),
    startPage: orUndefined(view.startPage),
    startPageStartOffset: orUndefined(view.startPageStartOffset),
    startPageLength: orUndefined(view.startPageLength),
    endPage: orUndefined(view.endPage),
    endPageLength: orUndefined(view.endPageLength),
    epubLocationStartCfi: orUndefined(view.epubLocationStartCfi),
    epubLocationEndCfi: orUndefined(view.epubLocationEndCfi),
    epubChapter: orUndefined(view.epubChapter),
    epubLocationStartChar: orUndefined(view.epubLocationStartChar),
    epubLocationList: Array.isArray(location) ? { items: location } : undefined,
    epubLocationText: typeof location === 'string' ? location : undefined,
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  };
}
