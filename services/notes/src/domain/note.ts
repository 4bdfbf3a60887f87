// The note aggregate. A note is a highlight (and optional comment) of one
// user on one issue in one tenant: the scope of the reader session it was
// made in. What the use cases need from storage is in repositories.ts.

/** The verified reader session a call acts for. */
export interface NoteScope {
  tenantId: number;
  userId: number;
  issueId: number;
}

/**
 * The general EPUB location in the form the client created it in: v2 sends an
 * array, v1 a string. Kept as sent; the gateway converts for the other version.
 */
export type EpubLocation = { form: 'list'; items: string[] } | { form: 'text'; text: string };

export const PDF_KEYS = ['startPage', 'startPageStartOffset', 'startPageLength', 'endPage', 'endPageLength'] as const;
export const EPUB_KEYS = ['epubLocationStartCfi', 'epubLocationEndCfi', 'epubChapter', 'epubLocationStartChar'] as const;
export type PdfKey = (typeof PDF_KEYS)[number];
export type EpubKey = (typeof EPUB_KEYS)[number];

export type PdfPosition = Record<PdfKey, number | null>;
export type EpubPosition = Record<EpubKey, string | null> & { epubLocation: EpubLocation | null };

/** What a create request fixes for good: text and position never change afterwards. */
export interface NoteContent extends PdfPosition, EpubPosition {
  uuid: string;
  color: string;
  totalLength: number;
  /** Plaintext; the gateway encrypts it per response with the reader-token's key. */
  totalText: string;
  annotationText: string | null;
}

export interface Note extends NoteContent {
  id: number;
  scope: NoteScope;
  createdAt: Date;
  updatedAt: Date;
}

/** The mutable part of a note. `annotationText` undefined keeps the comment, null clears it. */
export interface NoteChange {
  color: string;
  annotationText?: string | null;
  updatedAt: Date;
}
