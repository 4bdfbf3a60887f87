// KOReader progress sync (kosync), per store. A push is kept per user and
// document (the protocol's own record, for any document); when the document
// is the KOReader hash of an issue of this store (computed at ingest), it
// also moves the user's reading position of that issue, mapped from
// KOReader's progress: the chapter of an xpointer `/body/DocFragment[n]...`
// (else the chapter at the percentage, weighted by words) for EPUB, the page
// for PDF. A pull answers the newer of the KOReader record and the position
// saved through the API, as KOReader progress. One rule for both, the API's
// (isNewerPosition): the newest timestamp wins and a stale write never
// replaces a newer one.
//
// The document is kept exactly as the client sent it (matching it to an
// issue compares lower-cased, as ingest computes the hash). Protocol v2, as
// koreader-sync-server's v2 controller defines it, lets a client name the
// document by several identifiers (type + digest, strongest first): the
// record is found by walking them in the client's order, each tried as a
// record of its own before as an alias; identifiers other than the record's
// become the user's aliases, created but never repointed while their record
// lives, and never shadowing a record of their own, so a weak identifier can
// fail to match but cannot move a position onto another book. Each record
// keeps the identifiers of the client that wrote its progress (and the
// progress they were written with), so a reader is told what it shares
// with that writer (`progress_match`) apart from how the record was found
// (`match`).
import { invalidArgument } from '@folio/errors';
import type { Logger } from '@folio/logger';
import { storedLocation, type LastLocation, type ReadingPositions } from './positions.js';
import type { IssueKey, PositionKey } from './repositories.js';

/** One name of a document in protocol v2: an opaque type label and a digest. */
export interface KosyncIdentifier {
  type: string;
  value: string;
}

/** KOReader's record of a user's progress in a document, as the protocol keeps it. */
export interface KosyncRecord {
  userId: number;
  /** The store the push came to. */
  tenantId: number;
  document: string;
  progress: string;
  percentage: number;
  device: string;
  deviceId: string;
  timestamp: Date;
  /** The identifiers of the client that wrote `progress` (empty when it named none). */
  identifiers: KosyncIdentifier[];
  /** The progress string those identifiers were written with: they describe no other. */
  identifiersFor: string;
}

/** Another digest of a document whose record is stored under `canonical`. */
export interface KosyncAlias {
  userId: number;
  digest: string;
  /** The type the alias was registered under (reported when a request names no types). */
  type: string;
  canonical: string;
}

/** Where KOReader records are kept and documents are matched to issues (data/kosync.ts). */
export interface KosyncRepository {
  find(userId: number, document: string): Promise<KosyncRecord | null>;
  /** Writes the record unless a later one is stored (newest timestamp wins); false when refused. */
  saveIfNewer(record: KosyncRecord): Promise<boolean>;
  /** The issue of the store whose downloadable file has this KOReader hash. */
  issueOf(tenantId: number, documentHash: string): Promise<number | null>;
  findAlias(userId: number, digest: string): Promise<KosyncAlias | null>;
  /** Writes the alias (a new one, or one whose record is gone: the caller checked). */
  saveAlias(alias: KosyncAlias): Promise<void>;
  /** The user's records and aliases. */
  deleteAllOf(userId: number): Promise<number>;
}

/** What the mapping needs of an issue's structure (a manifest's chapters or pages). */
export interface IssueStructure {
  epub: { spine: { href: string; words: number }[] } | null;
  pdf: { pages: unknown[] } | null;
}

/** The reading position reader stores for a user and issue (as much as KOReader needs of it). */
export interface StoredPosition {
  location: Record<string, unknown>;
  read_at: Date;
}

export interface KosyncProgressView {
  document: string;
  progress: string;
  percentage: number;
  device: string;
  deviceId: string;
  /** Unix seconds. */
  timestamp: number;
  /** v2 only: the type of the identifier that found the record, or `exact`. */
  match?: string;
  /** v2 only: the strongest identifier shared with the writer of `progress`, or `none`. */
  progressMatch?: string;
}

/** A request's protocol: v1 names one document; v2 may name identifiers (undefined: none). */
export type KosyncLookup = { version: 1 } | { version: 2; identifiers: KosyncIdentifier[] | undefined };

/** How a position saved through our API shows in KOReader. */
export const API_DEVICE = { device: 'Folio', deviceId: 'folio' } as const;

const DOCUMENT = /^[A-Za-z0-9_-]{1,128}$/;
/** koreader-sync-server's identifier rules (lib/identifiers.lua). */
export const IDENTIFIER_RULES = {
  maxCount: 8,
  type: /^[a-z][a-z0-9-]{0,31}$/,
  value: /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/,
} as const;
const EXACT = 'exact';
const XPOINTER_CHAPTER = /^\/body\/DocFragment\[(\d{1,6})\]/;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The chapter (0-based) at a share of the book, by words. */
function chapterAt(manifest: IssueStructure, percentage: number): number {
  const spine = manifest.epub!.spine;
  const total = spine.reduce((sum, chapter) => sum + chapter.words, 0);
  if (total <= 0) return Math.min(spine.length - 1, Math.floor(percentage * spine.length));
  let words = 0;
  for (const [index, chapter] of spine.entries()) {
    words += chapter.words;
    if (words / total > percentage) return index;
  }
  return spine.length - 1;
}

/** KOReader's progress of an issue as our last location; null when it cannot be placed. */
export function locationOfProgress(manifest: IssueStructure, progress: string, percentage: number): LastLocation | null {
  if (manifest.epub && manifest.epub.spine.length > 0) {
    const spine = manifest.epub.spine;
    const fragment = XPOINTER_CHAPTER.exec(progress);
    const index = fragment ? Math.min(spine.length, Math.max(1, Number(fragment[1]))) - 1 : chapterAt(manifest, percentage);
    // The chapter's start: EPUB CFI step 2(n+1) of the spine.
    return { chapterHref: spine[index]!.href, cfi: `epubcfi(/6/${2 * (index + 1)}!/4/2)` };
  }
  if (manifest.pdf && manifest.pdf.pages.length > 0) {
    const pages = manifest.pdf.pages.length;
    const page = /^\d{1,6}$/.test(progress.trim()) ? Number(progress.trim()) : Math.ceil(percentage * pages);
    return { page: Math.min(pages, Math.max(1, page)) };
  }
  return null;
}

/** Our last location as KOReader progress (an xpointer of the chapter, or the page) and a share of the book. */
export function progressOfLocation(manifest: IssueStructure, location: LastLocation): { progress: string; percentage: number } | null {
  if (manifest.epub && 'chapterHref' in location) {
    const spine = manifest.epub.spine;
    const index = spine.findIndex((chapter) => chapter.href === location.chapterHref.split('#')[0]);
    if (index < 0) return null;
    const total = spine.reduce((sum, chapter) => sum + chapter.words, 0);
    const before = spine.slice(0, index).reduce((sum, chapter) => sum + chapter.words, 0);
    return { progress: `/body/DocFragment[${index + 1}]/body`, percentage: total > 0 ? before / total : index / spine.length };
  }
  if (manifest.pdf && 'page' in location) {
    return { progress: String(location.page), percentage: location.page / manifest.pdf.pages.length };
  }
  return null;
}

export class KosyncProgress {
  constructor(
    private readonly deps: {
      kosync: KosyncRepository;
      manifests: { find(issue: IssueKey): Promise<IssueStructure | null> };
      positions: { find(key: PositionKey): Promise<StoredPosition | null> };
      readingPositions: Pick<ReadingPositions, 'save'>;
      logger: Logger;
    },
  ) {}

  async push(input: {
    tenantId: number;
    userId: number;
    document: string;
    progress: string;
    percentage: number;
    device: string;
    deviceId: string;
    lookup: KosyncLookup;
  }): Promise<{ document: string; timestamp: number; match?: string }> {
    const sent = validDocument(input.document);
    const identifiers = input.lookup.version === 2 ? validIdentifiers(input.lookup.identifiers, sent) : undefined;
    const errors: Record<string, string[]> = {};
    if (typeof input.progress !== 'string' || input.progress.length > 4096) errors.progress = ['The progress must be a string of at most 4096 characters.'];
    if (!Number.isFinite(input.percentage) || input.percentage < 0 || input.percentage > 1)
      errors.percentage = ['The percentage must be a number between 0 and 1.'];
    if ((input.device ?? '').length > 256) errors.device = ['The device may not be greater than 256 characters.'];
    if ((input.deviceId ?? '').length > 256) errors.device_id = ['The device_id may not be greater than 256 characters.'];
    // Storage refuses NUL (PostgreSQL under FerretDB): bad input, not a 500.
    for (const [name, value] of [
      ['progress', input.progress],
      ['device', input.device],
      ['device_id', input.deviceId],
    ] as const) {
      if (typeof value === 'string' && value.includes('\u0000')) (errors[name] ??= []).push(`The ${name} must not contain NUL characters.`);
    }
    if (Object.keys(errors).length) throw invalidArgument('The given data was invalid.', errors);

    // v1 writes under the document as sent; v2 under the record it resolves to, or a new one under the document.
    const names = identifiers ?? [{ type: '', value: sent }];
    const resolved = input.lookup.version === 2 ? await this.resolve(input.userId, names) : null;
    const document = resolved?.record.document ?? sent;
    const match = input.lookup.version === 2 ? (resolved?.match ?? (names[0]!.type || EXACT)) : undefined;
    const reply = (timestamp: number) => ({ document, timestamp, ...(match && { match }) });

    const now = new Date();
    const record: KosyncRecord = {
      userId: input.userId,
      tenantId: input.tenantId,
      document,
      progress: input.progress,
      percentage: input.percentage,
      device: input.device ?? '',
      deviceId: input.deviceId ?? '',
      timestamp: now,
      // Recorded even when empty, so a later write never leaves an earlier client's set beside its progress.
      identifiers: identifiers ?? [],
      identifiersFor: input.progress,
    };
    if (!(await this.deps.kosync.saveIfNewer(record))) {
      const kept = await this.deps.kosync.find(input.userId, document);
      return reply(kept ? seconds(kept.timestamp) : seconds(now));
    }
    if (identifiers) await this.registerAliases(input.userId, document, identifiers);

    const issueId = await this.deps.kosync.issueOf(input.tenantId, document.toLowerCase());
    if (issueId !== null) {
      const manifest = await this.deps.manifests.find({ tenantId: input.tenantId, issueId });
      const location = manifest ? locationOfProgress(manifest, input.progress, input.percentage) : null;
      if (location) {
        try {
          // The API's rule: saved only when no later position is stored.
          await this.deps.readingPositions.save({ tenantId: input.tenantId, userId: input.userId, issueId, location, readAt: now });
        } catch (error) {
          // No access (any more) or a position our rules refuse: KOReader's own record is kept regardless.
          this.deps.logger.info({ err: error, issue_id: issueId }, 'kosync progress not applied to the reading position');
        }
      }
    }
    return reply(seconds(now));
  }

  async pull(input: { tenantId: number; userId: number; document: string; lookup: KosyncLookup }): Promise<KosyncProgressView | null> {
    const sent = validDocument(input.document);
    let record: KosyncRecord | null;
    let matched: { match: string; progressMatch: string } | undefined;
    if (input.lookup.version === 1) {
      // v1 reads the document as sent, and follows no alias.
      record = await this.deps.kosync.find(input.userId, sent);
    } else {
      const identifiers = validIdentifiers(input.lookup.identifiers, sent);
      const resolved = await this.resolve(input.userId, identifiers ?? [{ type: '', value: sent }]);
      record = resolved?.record ?? null;
      if (resolved) matched = { match: resolved.match, progressMatch: progressMatch(resolved, identifiers ?? [{ type: '', value: sent }]) };
      // Nothing found: an issue of this store may still be this document, written by the API alone.
      else matched = { match: identifiers?.[0]!.type || EXACT, progressMatch: '' };
      matched.progressMatch ||= matched.match;
    }
    const document = record?.document ?? sent;
    const fromKoreader: KosyncProgressView | null = record
      ? {
          document,
          progress: record.progress,
          percentage: record.percentage,
          device: record.device,
          deviceId: record.deviceId,
          timestamp: seconds(record.timestamp),
          ...(matched && { match: matched.match, progressMatch: matched.progressMatch }),
        }
      : null;

    const issueId = await this.deps.kosync.issueOf(input.tenantId, document.toLowerCase());
    if (issueId === null) return fromKoreader;
    const position = await this.deps.positions.find({ userId: input.userId, tenantId: input.tenantId, issueId });
    // Newest wins; on a tie KOReader's own record (its exact xpointer) is the better answer.
    if (!position || (record && new Date(position.read_at).getTime() <= record.timestamp.getTime())) return fromKoreader;
    const manifest = await this.deps.manifests.find({ tenantId: input.tenantId, issueId });
    const location = storedLocation(position.location);
    const mapped = manifest && location ? progressOfLocation(manifest, location) : null;
    if (!mapped) return fromKoreader;
    // The API's position is written against the store's own file, whose hash is this document: it vouches as a v1 writer does.
    return {
      document,
      ...mapped,
      device: API_DEVICE.device,
      deviceId: API_DEVICE.deviceId,
      timestamp: seconds(new Date(position.read_at)),
      ...(matched && { match: matched.match, progressMatch: matched.match }),
    };
  }

  /**
   * The record the names lead to, walking them in the caller's order: each
   * digest as a record of its own, then as an alias whose record still
   * lives. `match` is the caller's type of the name that resolved, else the
   * alias's type, else `exact`.
   */
  private async resolve(userId: number, names: KosyncIdentifier[]): Promise<{ record: KosyncRecord; match: string } | null> {
    for (const name of names) {
      const own = await this.deps.kosync.find(userId, name.value);
      if (own) return { record: own, match: name.type || EXACT };
      const alias = await this.deps.kosync.findAlias(userId, name.value);
      const target = alias ? await this.deps.kosync.find(userId, alias.canonical) : null;
      if (alias && target) return { record: target, match: name.type || alias.type || EXACT };
    }
    return null;
  }

  /** Each identifier that is neither the record's digest nor a record of its own, unless it already names a live record. */
  private async registerAliases(userId: number, canonical: string, identifiers: KosyncIdentifier[]): Promise<void> {
    for (const { type, value } of identifiers) {
      if (value === canonical || (await this.deps.kosync.find(userId, value))) continue;
      const existing = await this.deps.kosync.findAlias(userId, value);
      if (existing && (await this.deps.kosync.find(userId, existing.canonical))) continue;
      await this.deps.kosync.saveAlias({ userId, digest: value, type, canonical });
    }
  }

  async eraseUser(userId: number): Promise<number> {
    return this.deps.kosync.deleteAllOf(userId);
  }
}

/**
 * What the reader shares with the writer of the record's progress: the first
 * of the reader's names whose digest the writer also held (the reader's type,
 * else the writer's), `none` when they share nothing; '' when the progress
 * was written by a client that named no identifiers (then the record's own
 * digest vouches for it, and the caller reports `match`).
 */
function progressMatch(resolved: { record: KosyncRecord; match: string }, reader: KosyncIdentifier[]): string {
  const { record } = resolved;
  if (record.identifiers.length === 0 || record.identifiersFor !== record.progress) return '';
  const writer = new Map(record.identifiers.map((name) => [name.value, name.type]));
  for (const name of reader) {
    const writerType = writer.get(name.value);
    if (writerType !== undefined) return name.type || writerType;
  }
  return 'none';
}

function validDocument(document: string): string {
  const value = document ?? '';
  if (!DOCUMENT.test(value))
    throw invalidArgument('The given data was invalid.', { document: ['The document must be 1-128 letters, digits, - or _ (KOReader sends an MD5 hex).'] });
  return value;
}

/** A v2 request's identifiers as koreader-sync-server accepts them; undefined when it named none. */
function validIdentifiers(identifiers: KosyncIdentifier[] | undefined, document: string): KosyncIdentifier[] | undefined {
  if (identifiers === undefined) return undefined;
  const types = new Set(identifiers.map((name) => name.type));
  const reason =
    identifiers.length === 0
      ? 'The identifiers may not be empty.'
      : identifiers.length > IDENTIFIER_RULES.maxCount
        ? `At most ${IDENTIFIER_RULES.maxCount} identifiers.`
        : identifiers.some((name) => !IDENTIFIER_RULES.type.test(name.type) || !IDENTIFIER_RULES.value.test(name.value))
          ? 'An identifier is a type (a-z, 0-9, -; at most 32) and a value (letters, digits, _ . -; at most 128).'
          : types.size !== identifiers.length
            ? 'Each identifier type may appear once.'
            : identifiers[0]!.value !== document
              ? 'The first identifier must be the document.'
              : undefined;
  if (reason) throw invalidArgument('The given data was invalid.', { identifiers: [reason] });
  return identifiers;
}
