// Reading positions: the last location of a user in an issue (shape checked
// against the issue's content: EPUB chapter in the spine, PDF page in range,
// audio track and seek within the tracks), and the continue-reading list.
import { invalidArgument, permissionDenied } from '@folio/errors';
import { PositionRepository } from '../data/repositories.js';
import type { ManifestDoc } from '../data/schemas.js';
import type { Peers } from './ports.js';
import type { ReaderSessions } from './sessions.js';
import { isObject } from './settings.js';

export type LastLocation = { chapterHref: string; cfi: string } | { page: number } | { currentSeek: number; currentTrack: number };

export class ReadingPositions {
  constructor(
    private readonly deps: {
      sessions: ReaderSessions;
      positions: PositionRepository;
      peers: Pick<Peers, 'access'>;
    },
  ) {}

  /**
   * PUT /api/v2/reader/{issue_id}/last-location; last write wins. Only for an
   * issue the user can read: a saved position puts the issue in
   * continue-reading, which must not list issues the user has no access to.
   */
  async save(input: { tenantId: number; userId: number; issueId: number; body: unknown }): Promise<{ last_location: LastLocation }> {
    const manifest = await this.deps.sessions.readableManifest(input.tenantId, input.issueId);
    const access = await this.deps.peers.access(input.tenantId, input.userId, input.issueId);
    if (!access.canRead) throw permissionDenied('You do not have access to this issue.');
    const location = validateLocation(manifest, isObject(input.body) ? input.body.lastLocation : undefined);
    await this.deps.positions.save({
      _id: PositionRepository.idOf(input.userId, input.tenantId, input.issueId),
      user_id: input.userId,
      tenant_id: input.tenantId,
      issue_id: input.issueId,
      location: location as Record<string, unknown>,
      read_at: new Date(),
    });
    return { last_location: location };
  }

  async continueReading(input: { userId: number; tenantIds: number[]; page: number; perPage: number }) {
    const perPage = input.perPage > 0 ? Math.min(input.perPage, 100) : 6;
    const page = input.page > 0 ? input.page : 1;
    const tenantIds = [...new Set(input.tenantIds)].filter((id) => Number.isInteger(id) && id > 0);
    if (tenantIds.length === 0) return { positions: [], total: 0 };
    const { positions, total } = await this.deps.positions.recent(input.userId, tenantIds, (page - 1) * perPage, perPage);
    return {
      positions: positions.map((position) => ({ tenantId: position.tenant_id, issueId: position.issue_id, readAt: new Date(position.read_at).toISOString() })),
      total,
    };
  }
}

const field = 'lastLocation';

export function validateLocation(manifest: ManifestDoc, value: unknown): LastLocation {
  const errors: Record<string, string[]> = {};
  const fail = (name: string, reason: string) => (errors[name] ??= []).push(reason);
  const done = <T extends LastLocation>(location: T): T => {
    if (Object.keys(errors).length) throw invalidArgument('The given data was invalid.', errors);
    return location;
  };
  if (!isObject(value)) {
    fail(field, 'is required and must be an object');
    return done({ page: 0 });
  }
  if (manifest.epub) {
    const { chapterHref, cfi } = value;
    const hrefs = new Set(manifest.epub.spine.map((chapter) => chapter.href));
    if (typeof chapterHref !== 'string' || chapterHref.length === 0 || chapterHref.length > 1024) fail(`${field}.chapterHref`, 'must be a string');
    else if (!hrefs.has(chapterHref.split('#')[0]!)) fail(`${field}.chapterHref`, 'must be a chapter of the issue (an href of its spine)');
    if (typeof cfi !== 'string' || cfi.length > 2048 || !/^epubcfi\(\/.+\)$/.test(cfi)) fail(`${field}.cfi`, 'must be an EPUB CFI, epubcfi(...)');
    return done({ chapterHref: chapterHref as string, cfi: cfi as string });
  }
  if (manifest.pdf) {
    const count = manifest.pdf.pages.length;
    const { page } = value;
    if (typeof page !== 'number' || !Number.isInteger(page) || page < 1 || page > count) fail(`${field}.page`, `must be an integer between 1 and ${count}`);
    return done({ page: page as number });
  }
  if (manifest.audio) {
    const tracks = manifest.audio.tracks;
    const { currentSeek, currentTrack } = value;
    const trackOk = typeof currentTrack === 'number' && Number.isInteger(currentTrack) && currentTrack >= 0 && currentTrack < tracks.length;
    if (!trackOk) fail(`${field}.currentTrack`, `must be an integer between 0 and ${tracks.length - 1}`);
    if (typeof currentSeek !== 'number' || !Number.isFinite(currentSeek) || currentSeek < 0) fail(`${field}.currentSeek`, 'must be a number of seconds, 0 or more');
    else if (trackOk) {
      // Durations are sent rounded to whole seconds; a seek up to that rounding is inside the track.
      const duration = Math.ceil(tracks[currentTrack as number]!.duration);
      if (currentSeek > duration) fail(`${field}.currentSeek`, `must not exceed the track's duration (${duration} s)`);
    }
    return done({ currentSeek: currentSeek as number, currentTrack: currentTrack as number });
  }
  fail(field, 'the issue has no readable content');
  return done({ page: 0 });
}
