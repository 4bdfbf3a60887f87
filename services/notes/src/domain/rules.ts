// What a note may contain. The spec fixes the fields and `totalLength >= 1`;
// the size limits below are ours (the spec names none) and generous enough
// for a highlight spanning pages, while keeping one note far below the gRPC
// message limit. Messages follow the platform's wording ("The x field is
// required."), keyed by the client's camelCase field names.
import { invalidFields } from './errors.js';
import { EPUB_KEYS, PDF_KEYS, type EpubLocation, type NoteContent } from './note.js';

export const LIMITS = {
  uuid: 64,
  color: 32,
  totalText: 100_000,
  annotationText: 10_000,
  /** Each EPUB position string, and each item of a v2 epubLocation. */
  epubString: 2_048,
  epubLocationItems: 100,
  /** A v1 epubLocation string. */
  epubLocationText: 4_096,
} as const;

/** A create request as decoded from the wire: undefined is absent or null. */
export interface NoteDraft {
  uuid?: string | undefined;
  color?: string | undefined;
  totalLength?: number | undefined;
  totalText?: string | undefined;
  annotationText?: string | undefined;
  startPage?: number | undefined;
  startPageStartOffset?: number | undefined;
  startPageLength?: number | undefined;
  endPage?: number | undefined;
  endPageLength?: number | undefined;
  epubLocationStartCfi?: string | undefined;
  epubLocationEndCfi?: string | undefined;
  epubChapter?: string | undefined;
  epubLocationStartChar?: string | undefined;
  epubLocation?: EpubLocation | undefined;
}

/** `totalLength` -> `total length`, as the messages name fields. */
const label = (field: string) => field.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
const chars = (value: string) => [...value].length;

class FieldErrors {
  readonly errors: Record<string, string[]> = {};
  add(field: string, reason: string) {
    (this.errors[field] ??= []).push(reason);
  }
  throwIfAny() {
    if (Object.keys(this.errors).length) throw invalidFields(this.errors);
  }
}

// Storage refuses NUL (PostgreSQL under FerretDB), and no note text means anything with one.
const NUL = '\u0000';
const nulReason = (field: string) => `The ${label(field)} must not contain NUL characters.`;

function requiredString(errors: FieldErrors, field: string, value: string | undefined, max: number): void {
  if (value === undefined || value.trim() === '') errors.add(field, `The ${label(field)} field is required.`);
  else if (chars(value) > max) errors.add(field, `The ${label(field)} must not be greater than ${max} characters.`);
  else if (value.includes(NUL)) errors.add(field, nulReason(field));
}

function optionalString(errors: FieldErrors, field: string, value: string | undefined, max: number): void {
  if (value !== undefined && chars(value) > max) errors.add(field, `The ${label(field)} must not be greater than ${max} characters.`);
  else if (value?.includes(NUL)) errors.add(field, nulReason(field));
}

/** Checks a create request against the rules; returns the note's content or throws 422 with every problem. */
export function validateDraft(draft: NoteDraft): NoteContent {
  const errors = new FieldErrors();
  requiredString(errors, 'uuid', draft.uuid, LIMITS.uuid);
  requiredString(errors, 'color', draft.color, LIMITS.color);
  if (draft.totalLength === undefined) errors.add('totalLength', 'The total length field is required.');
  else if (!Number.isInteger(draft.totalLength) || draft.totalLength < 1) errors.add('totalLength', 'The total length must be at least 1.');
  // Highlighted text cannot be empty, whitespace can be what was highlighted.
  if (draft.totalText === undefined || draft.totalText === '') errors.add('totalText', 'The total text field is required.');
  else if (chars(draft.totalText) > LIMITS.totalText) errors.add('totalText', `The total text must not be greater than ${LIMITS.totalText} characters.`);
  else if (draft.totalText.includes(NUL)) errors.add('totalText', nulReason('totalText'));
  optionalString(errors, 'annotationText', draft.annotationText, LIMITS.annotationText);

  for (const key of PDF_KEYS) {
    const value = draft[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) errors.add(key, `The ${label(key)} must be an integer of at least 0.`);
  }
  if (draft.startPage !== undefined && draft.endPage !== undefined && draft.endPage < draft.startPage) {
    errors.add('endPage', 'The end page must be greater than or equal to the start page.');
  }
  for (const key of EPUB_KEYS) optionalString(errors, key, draft[key], LIMITS.epubString);
  checkEpubLocation(errors, draft.epubLocation);

  // A note is positioned in a PDF or in an EPUB; responses null the other kind.
  const hasPdf = PDF_KEYS.some((key) => draft[key] !== undefined);
  if (hasPdf) {
    for (const key of [...EPUB_KEYS, 'epubLocation'] as const) {
      if (draft[key] !== undefined) errors.add(key, `The ${label(key)} must be null when a PDF position is given.`);
    }
  }
  errors.throwIfAny();

  return {
    uuid: draft.uuid!,
    color: draft.color!,
    totalLength: draft.totalLength!,
    totalText: draft.totalText!,
    annotationText: draft.annotationText ?? null,
    startPage: draft.startPage ?? null,
    startPageStartOffset: draft.startPageStartOffset ?? null,
    startPageLength: draft.startPageLength ?? null,
    endPage: draft.endPage ?? null,
    endPageLength: draft.endPageLength ?? null,
    epubLocationStartCfi: draft.epubLocationStartCfi ?? null,
    epubLocationEndCfi: draft.epubLocationEndCfi ?? null,
    epubChapter: draft.epubChapter ?? null,
    epubLocationStartChar: draft.epubLocationStartChar ?? null,
    epubLocation: draft.epubLocation ?? null,
  };
}

/** The bounds of each form: a list (v2) by items and item length, a text (v1) by length. */
function checkEpubLocation(errors: FieldErrors, location: EpubLocation | undefined): void {
  if (!location) return;
  if (location.form === 'list') {
    if (location.items.length > LIMITS.epubLocationItems) {
      errors.add('epubLocation', `The epub location must not have more than ${LIMITS.epubLocationItems} items.`);
    }
    if (location.items.some((item) => chars(item) > LIMITS.epubString)) {
      errors.add('epubLocation', `Each epub location item must not be greater than ${LIMITS.epubString} characters.`);
    }
    if (location.items.some((item) => item.includes(NUL))) errors.add('epubLocation', nulReason('epubLocation'));
  } else {
    optionalString(errors, 'epubLocation', location.text, LIMITS.epubLocationText);
  }
}

/** Checks an update: `color` is required; `annotationText` (a string, or null to clear) is optional. */
export function validateChange(change: { color?: string | undefined; annotationText?: string | null | undefined }): void {
  const errors = new FieldErrors();
  requiredString(errors, 'color', change.color, LIMITS.color);
  if (typeof change.annotationText === 'string') optionalString(errors, 'annotationText', change.annotationText, LIMITS.annotationText);
  errors.throwIfAny();
}
