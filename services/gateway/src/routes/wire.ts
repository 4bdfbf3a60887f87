// Proto messages → the spec's JSON shapes. Only the fields the spec names
// leave the gateway: a proto Tenant carries settings that stay internal.
import { deriveTextKey, encryptText } from '@folio/crypto';
import { DomainError } from '@folio/errors';
import { catalog, notes, type identity } from '@folio/proto';
import type { z } from 'zod';
import type { NoteV1, NoteV2, TenantObject, TokenResponse, UserObject } from './schemas.js';

export function tenantToWire(tenant: identity.Tenant): z.output<typeof TenantObject> {
  return {
    id: tenant.id,
    name: tenant.name,
    domain: tenant.domain,
    logo: tenant.logo,
    country_code: tenant.countryCode || null,
    country_name: tenant.countryName || null,
    colors: { primary: tenant.colors?.primary ?? '', secondary: tenant.colors?.secondary ?? '' },
  };
}

export function userToWire(user: identity.User): z.output<typeof UserObject> {
  return { id: user.id, admin: user.admin, email: user.email, picture: user.picture, tenants: user.tenants.map(tenantToWire) };
}

export function tokensToWire(tokens: identity.TokenPair | undefined): z.output<typeof TokenResponse> {
  // A success without tokens is a contract breach upstream, not the client's fault.
  if (!tokens) throw new DomainError('INTERNAL', 'identity answered without tokens');
  return {
    access_token: tokens.accessToken,
    token_type: 'bearer',
    expires_in: tokens.expiresIn,
    refresh_token: tokens.refreshToken,
  };
}

// Reader's answers are rendered in reader-wire.ts.

// ------------------------------------------------------------ notes --

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

// ------------------------------------------------------------ catalog --

// Catalog's answers are rendered in render/v2/catalog.ts.

/** The `scope` query parameter as catalog's enum (`owned` is the default). */
export function catalogScope(scope: 'owned' | 'all' | undefined): catalog.Scope {
  return scope === 'all' ? catalog.Scope.SCOPE_ALL : catalog.Scope.SCOPE_OWNED;
}
