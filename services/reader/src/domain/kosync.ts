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
import { invalidArgument } from '@folio/errors';
import type { Logger } from '@folio/logger';
import { storedLocation, type LastLocation, type ReadingPositions } from './positions.js';

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
}

/** Where KOReader records are kept and documents are matched to issues (data/kosync.ts). */
export interface KosyncStore {
  find(userId: number, document: string): Promise<KosyncRecord | null>;
  /** Writes the record unless a later one is stored (newest timestamp wins); false when refused. */
  saveIfNewer(record: KosyncRecord): Promise<boolean>;
  /** The issue of the store whose downloadable file has this KOReader hash. */
  issueOf(tenantId: number, documentHash: string): Promise<number | null>;
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
}

/** How a position saved through our API shows in KOReader. */
export const API_DEVICE = { device: 'Folio', deviceId: 'folio' } as const;

const DOCUMENT = /^[A-Za-z0-9_-]{1,128}$/;
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
      kosync: KosyncStore;
      manifests: { find(tenantId: number, issueId: number): Promise<IssueStructure | null> };
      positions: { find(userId: number, tenantId: number, issueId: number): Promise<StoredPosition | null> };
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
  }): Promise<{ document: string; timestamp: number }> {
    const document = validDocument(input.document);
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
    };
    if (!(await this.deps.kosync.saveIfNewer(record))) {
      const kept = await this.deps.kosync.find(input.userId, document);
      return { document, timestamp: kept ? seconds(kept.timestamp) : seconds(now) };
    }

    const issueId = await this.deps.kosync.issueOf(input.tenantId, document);
    if (issueId !== null) {
      const manifest = await this.deps.manifests.find(input.tenantId, issueId);
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
    return { document, timestamp: seconds(now) };
  }

  async pull(input: { tenantId: number; userId: number; document: string }): Promise<KosyncProgressView | null> {
    const document = validDocument(input.document);
    const record = await this.deps.kosync.find(input.userId, document);
    const fromKoreader: KosyncProgressView | null = record
      ? {
          document,
          progress: record.progress,
          percentage: record.percentage,
          device: record.device,
          deviceId: record.deviceId,
          timestamp: seconds(record.timestamp),
        }
      : null;

    const issueId = await this.deps.kosync.issueOf(input.tenantId, document);
    if (issueId === null) return fromKoreader;
    const position = await this.deps.positions.find(input.userId, input.tenantId, issueId);
    // Newest wins; on a tie KOReader's own record (its exact xpointer) is the better answer.
    if (!position || (record && new Date(position.read_at).getTime() <= record.timestamp.getTime())) return fromKoreader;
    const manifest = await this.deps.manifests.find(input.tenantId, issueId);
    const location = storedLocation(position.location);
    const mapped = manifest && location ? progressOfLocation(manifest, location) : null;
    if (!mapped) return fromKoreader;
    return { document, ...mapped, device: API_DEVICE.device, deviceId: API_DEVICE.deviceId, timestamp: seconds(new Date(position.read_at)) };
  }

  async eraseUser(userId: number): Promise<number> {
    return this.deps.kosync.deleteAllOf(userId);
  }
}

function validDocument(document: string): string {
  const value = (document ?? '').trim();
  if (!DOCUMENT.test(value))
    throw invalidArgument('The given data was invalid.', { document: ['The document must be 1-128 letters, digits, - or _ (KOReader sends an MD5 hex).'] });
  return value.toLowerCase();
}
