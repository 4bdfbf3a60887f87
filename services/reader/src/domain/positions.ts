// Reading positions: the last location of a user in an issue (shape checked
// against the issue's content: EPUB chapter in the spine, PDF page in range,
// audio track and seek within the tracks), and the continue-reading list.
import { createHash } from 'node:crypto';
import { invalidArgument, permissionDenied } from '@folio/errors';
import type { Peers } from './ports.js';
import type { ReaderSessions } from './sessions.js';
import { positionIdOf, type ContentManifest, type PositionRecord, type PositionRepository } from './repositories.js';

export type LastLocation = { chapterHref: string; cfi: string } | { page: number } | { currentSeek: number; currentTrack: number };

/** A saved position with its version (the HTTP ETag), or with saved = false the stored one that stays. */
export interface PositionSaveResult {
  location: LastLocation | null;
  version: string | null;
  saved: boolean;
}

/**
 * The one rule for concurrent positions (API, KOReader sync): the newest
 * timestamp wins, and a write never replaces a position saved later than its
 * own timestamp. Equal timestamps: the later write wins.
 */
export function isNewerPosition(incoming: { readAt: Date }, stored: { readAt: Date } | null): boolean {
  return stored === null || incoming.readAt.getTime() >= stored.readAt.getTime();
}

/** A stored position's version: changes with every save (time and place), opaque to clients. */
export function positionVersion(position: Pick<PositionRecord, 'location' | 'read_at'>): string {
  return createHash('sha256')
    .update(`${new Date(position.read_at).getTime()}:${JSON.stringify(position.location)}`)
    .digest('base64url')
    .slice(0, 22);
}

/** A stored location in its shape (documents are written by validateLocation, so one shape fits). */
export function storedLocation(location: Record<string, unknown>): LastLocation | null {
  if (typeof location.chapterHref === 'string' && typeof location.cfi === 'string') return { chapterHref: location.chapterHref, cfi: location.cfi };
  if (typeof location.page === 'number') return { page: location.page };
  if (typeof location.currentSeek === 'number' && typeof location.currentTrack === 'number') {
    return { currentSeek: location.currentSeek, currentTrack: location.currentTrack };
  }
  return null;
}

/**
 * Runs the tasks of one key one after another, in the order they arrive;
 * tasks of different keys run concurrently.
 */
export class SerialPerKey {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

export class ReadingPositions {
  /**
   * A replica saves one position at a time: its saves then never race each
   * other in the store, where two devices' writes of one position would
   * otherwise both miss and both insert (a duplicate key, retried), or be
   * taken in an order other than their timestamps'.
   */
  private readonly writes = new SerialPerKey();

  constructor(
    private readonly deps: {
      sessions: ReaderSessions;
      positions: PositionRepository;
      peers: Pick<Peers, 'access'>;
    },
  ) {}

  /**
   * PUT /api/v2/reader/{issue_id}/last-location. Only for an issue the user
   * can read: a saved position puts the issue in continue-reading, which must
   * not list issues the user has no access to. With `expected` the write
   * happens only over one of those versions of the stored position (`any`:
   * over any stored one); otherwise nothing is saved and the stored position
   * comes back (saved = false).
   */
  async save(input: {
    tenantId: number;
    userId: number;
    issueId: number;
    location: LastLocation | null;
    expected?: { versions: string[]; any: boolean } | undefined;
    readAt?: Date;
  }): Promise<PositionSaveResult> {
    const manifest = await this.deps.sessions.readableManifest(input.tenantId, input.issueId);
    const access = await this.deps.peers.access(input.tenantId, input.userId, input.issueId);
    if (!access.canRead) throw permissionDenied('You do not have access to this issue.');
    const location = validateLocation(manifest, input.location);
    const id = positionIdOf(input);
    return this.writes.run(id, async () => {
      let onlyOver: Date | undefined;
      if (input.expected) {
        const stored = await this.deps.positions.find(input);
        if (!stored || !(input.expected.any || input.expected.versions.includes(positionVersion(stored)))) return this.current(input);
        onlyOver = new Date(stored.read_at);
      }
      const position: PositionRecord = {
        _id: id,
        user_id: input.userId,
        tenant_id: input.tenantId,
        issue_id: input.issueId,
        location: location as Record<string, unknown>,
        // Taken in turn, so this replica's saves of the position are stamped in the order they are stored.
        read_at: input.readAt ?? new Date(),
      };
      // The repository applies isNewerPosition atomically; a refused write means another one (another replica's) got in first.
      if (!(await this.deps.positions.saveIfNewer(position, onlyOver))) return this.current(input);
      return { location, version: positionVersion(position), saved: true };
    });
  }

  /** The stored position of the user in the issue, with its version. */
  async current(input: { tenantId: number; userId: number; issueId: number }): Promise<PositionSaveResult> {
    const stored = await this.deps.positions.find(input);
    return { location: stored ? storedLocation(stored.location) : null, version: stored ? positionVersion(stored) : null, saved: false };
  }

  async continueReading(input: { userId: number; tenantIds: number[]; page: number; perPage: number }) {
    const perPage = input.perPage > 0 ? Math.min(input.perPage, 100) : 6;
    const page = input.page > 0 ? input.page : 1;
    const tenantIds = [...new Set(input.tenantIds)].filter((id) => Number.isInteger(id) && id > 0);
    if (tenantIds.length === 0) return { positions: [], total: 0 };
    const { positions, total } = await this.deps.positions.recent({ userId: input.userId, tenantIds }, (page - 1) * perPage, perPage);
    return {
      positions: positions.map((position) => ({ tenantId: position.tenant_id, issueId: position.issue_id, readAt: new Date(position.read_at).toISOString() })),
      total,
    };
  }
}

const field = 'lastLocation';

/**
 * The position's rules for the issue's content: EPUB a chapter of the spine
 * and an EPUB CFI, PDF a page in range, audio a track and a seek within it.
 * Another content type's shape is refused on the fields this one needs.
 */
export function validateLocation(manifest: ContentManifest, value: LastLocation | null): LastLocation {
  const errors: Record<string, string[]> = {};
  const fail = (name: string, reason: string) => (errors[name] ??= []).push(reason);
  const done = <T extends LastLocation>(location: T): T => {
    if (Object.keys(errors).length) throw invalidArgument('The given data was invalid.', errors);
    return location;
  };
  if (value === null) {
    fail(field, 'is required and must be an object');
    return done({ page: 0 });
  }
  if (manifest.epub) {
    const { chapterHref, cfi } = 'chapterHref' in value ? value : { chapterHref: undefined, cfi: undefined };
    const hrefs = new Set(manifest.epub.spine.map((chapter) => chapter.href));
    if (typeof chapterHref !== 'string' || chapterHref.length === 0 || chapterHref.length > 1024) fail(`${field}.chapterHref`, 'must be a string');
    else if (!hrefs.has(chapterHref.split('#')[0]!)) fail(`${field}.chapterHref`, 'must be a chapter of the issue (an href of its spine)');
    if (typeof cfi !== 'string' || cfi.length > 2048 || !/^epubcfi\(\/.+\)$/.test(cfi)) fail(`${field}.cfi`, 'must be an EPUB CFI, epubcfi(...)');
    // Storage refuses NUL (PostgreSQL under FerretDB): a fragment or a CFI with one is bad input, not a 500.
    if (typeof chapterHref === 'string' && chapterHref.includes('\u0000')) fail(`${field}.chapterHref`, 'must not contain NUL characters');
    if (typeof cfi === 'string' && cfi.includes('\u0000')) fail(`${field}.cfi`, 'must not contain NUL characters');
    return done({ chapterHref: chapterHref!, cfi: cfi! });
  }
  if (manifest.pdf) {
    const count = manifest.pdf.pages.length;
    const page = 'page' in value ? value.page : undefined;
    if (page === undefined || !Number.isInteger(page) || page < 1 || page > count) fail(`${field}.page`, `must be an integer between 1 and ${count}`);
    return done({ page: page! });
  }
  if (manifest.audio) {
    const tracks = manifest.audio.tracks;
    const { currentSeek, currentTrack } = 'currentTrack' in value ? value : { currentSeek: undefined, currentTrack: undefined };
    const trackOk = currentTrack !== undefined && Number.isInteger(currentTrack) && currentTrack >= 0 && currentTrack < tracks.length;
    if (!trackOk) fail(`${field}.currentTrack`, `must be an integer between 0 and ${tracks.length - 1}`);
    if (currentSeek === undefined || !Number.isFinite(currentSeek) || currentSeek < 0) fail(`${field}.currentSeek`, 'must be a number of seconds, 0 or more');
    else if (trackOk) {
      // Durations are sent rounded to whole seconds; a seek up to that rounding is inside the track.
      const duration = Math.ceil(tracks[currentTrack]!.duration);
      if (currentSeek > duration) fail(`${field}.currentSeek`, `must not exceed the track's duration (${duration} s)`);
    }
    return done({ currentSeek: currentSeek!, currentTrack: currentTrack! });
  }
  fail(field, 'the issue has no readable content');
  return done({ page: 0 });
}
