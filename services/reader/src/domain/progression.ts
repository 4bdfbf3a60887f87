// OPDS Progression 1.0 (opds-community/drafts, opds-progression-1.0.md): the
// reading position as OPDS 2 apps sync it across devices, a share of the
// publication read (`progression`) with URI references inside it, the time it
// was read (`modified`) and the device (id and name). It is the same position
// as the API's last location and KOReader's progress: a PUT saves the last
// location it maps to, under the API's rule (isNewerPosition, compared with
// `modified`), so it shows in continue-reading and in a KOReader pull, and a
// GET answers whatever saved the position last, mapped back. What the app sent
// (its exact share, references, title and device) is kept beside the position
// and answered as sent while the position is still the one it saved.
import { invalidArgument, permissionDenied } from '@folio/errors';
import type { Peers } from './ports.js';
import { storedLocation, type LastLocation, type ReadingPositions } from './positions.js';
import type { ReaderSessions } from './sessions.js';
import { positionIdOf, type ContentManifest, type PositionRecord, type PositionRepository } from './repositories.js';

export interface ProgressionDevice {
  /** A URI, not meant to be shown. */
  id: string;
  name: string;
}

export interface Progression {
  modified: Date;
  device: ProgressionDevice;
  /** Share of the publication read, 0..1. */
  progression: number;
  references: string[];
  title: string | null;
}

/** A Progression PUT as the app sent it, kept beside the position it saved (data/progression.ts). */
export interface ProgressionRecord {
  /** The position's id (positionIdOf). */
  _id: string;
  user_id: number;
  tenant_id: number;
  issue_id: number;
  /** The saved position's `read_at`: the record describes that position only while it is still stored. */
  read_at: Date;
  device: ProgressionDevice;
  progression: number;
  references: string[];
  title: string | null;
}

export interface ProgressionRepository {
  find(positionId: string): Promise<ProgressionRecord | null>;
  /** Writes the record unless one of a later position is stored. */
  saveIfNewer(record: ProgressionRecord): Promise<void>;
  /** Account erasure; returns how many went. */
  deleteAllOf(userId: number): Promise<number>;
}

/** How a position saved without a device (the API, KOReader's push) shows to OPDS apps. */
export const API_PROGRESSION_DEVICE: ProgressionDevice = { id: 'urn:folio:api', name: 'Folio' };

const LIMITS = { references: 32, reference: 2048, title: 1024, deviceId: 512, deviceName: 256 } as const;
const CFI = /^epubcfi\(\/.+\)$/;

/** The path of a URI reference (no fragment, query or leading `/` or `./`), decoded; '' for a bare fragment. */
function pathOf(reference: string): string {
  const path = reference.split('#')[0]!.split('?')[0]!;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Kept as sent: a malformed escape only fails to match.
  }
  return decoded.replace(/^(\.\/|\/)+/, '');
}

const fragmentOf = (reference: string) => (reference.includes('#') ? reference.slice(reference.indexOf('#') + 1) : '');

/** A reference names a file of ours when its path is the file's href or ends with it (apps resolve hrefs from another base). */
const names = (path: string, href: string) => path.length > 0 && (path === href || path.endsWith(`/${href}`));

/** A media fragment's start `t=` in seconds (`t=67`, `t=npt:67.5,80`, `t=1:02:03`); null when absent. */
function secondsOf(fragment: string): number | null {
  const param = fragment.split('&').find((part) => part.startsWith('t='));
  if (!param) return null;
  const start = param.slice(2).replace(/^npt:/, '').split(',')[0]!;
  const clock = /^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(start);
  if (clock) return Number(clock[1] ?? 0) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
  return /^\d+(\.\d+)?$/.test(start) ? Number(start) : null;
}

/** A PDF fragment's `page=` (RFC 3778); null when absent. */
function pageOf(fragment: string): number | null {
  const param = fragment.split('&').find((part) => part.startsWith('page='));
  return param && /^\d{1,6}$/.test(param.slice(5)) ? Number(param.slice(5)) : null;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The chapter (0-based) at a share of the book, by words (by chapters when no word counts). */
function chapterAt(spine: { words: number }[], share: number): number {
  const total = spine.reduce((sum, chapter) => sum + chapter.words, 0);
  if (total <= 0) return clamp(Math.floor(share * spine.length), 0, spine.length - 1);
  let words = 0;
  for (const [index, chapter] of spine.entries()) {
    words += chapter.words;
    if (words / total > share) return index;
  }
  return spine.length - 1;
}

/**
 * A progression as our last location: the chapter its references name (its
 * CFI when a reference carries one, else the chapter's start) or the chapter
 * at its share; the page of `#page=` or at the share; the track and seek of
 * `track#t=` or of `#t=` counted from the start of the audiobook, or at the share.
 */
export function locationOfProgression(manifest: ContentManifest, progression: number, references: string[]): LastLocation | null {
  if (manifest.epub && manifest.epub.spine.length > 0) {
    const spine = manifest.epub.spine;
    for (const reference of references) {
      const index = spine.findIndex((chapter) => names(pathOf(reference), chapter.href));
      if (index < 0) continue;
      const fragment = fragmentOf(reference);
      const cfi = CFI.test(fragment) && fragment.length <= LIMITS.reference ? fragment : `epubcfi(/6/${2 * (index + 1)}!/4/2)`;
      return { chapterHref: spine[index]!.href, cfi };
    }
    const index = chapterAt(spine, progression);
    // The chapter's start: EPUB CFI step 2(n+1) of the spine.
    return { chapterHref: spine[index]!.href, cfi: `epubcfi(/6/${2 * (index + 1)}!/4/2)` };
  }
  if (manifest.pdf && manifest.pdf.pages.length > 0) {
    const count = manifest.pdf.pages.length;
    const page = references.map((reference) => pageOf(fragmentOf(reference))).find((found) => found !== null);
    return { page: clamp(page ?? Math.floor(progression * count) + 1, 1, count) };
  }
  if (manifest.audio && manifest.audio.tracks.length > 0) {
    const tracks = manifest.audio.tracks;
    const total = tracks.reduce((sum, track) => sum + track.duration, 0);
    let from: number | null = null;
    for (const reference of references) {
      const seconds = secondsOf(fragmentOf(reference));
      if (seconds === null) continue;
      const path = pathOf(reference);
      if (path === '') {
        from = seconds;
        break;
      }
      // Apps know a track by its (signed) URL: its file name is the key's.
      const file = path.split('/').pop()!;
      const track = tracks.findIndex((candidate) => candidate.key.split('/').pop() === file);
      if (track >= 0) return { currentTrack: track, currentSeek: clamp(seconds, 0, Math.ceil(tracks[track]!.duration)) };
    }
    let remaining = clamp(from ?? progression * total, 0, total);
    for (const [index, track] of tracks.entries()) {
      if (remaining <= track.duration || index === tracks.length - 1)
        return { currentTrack: index, currentSeek: clamp(remaining, 0, Math.ceil(track.duration)) };
      remaining -= track.duration;
    }
  }
  return null;
}

/** Our last location as a progression: its share of the publication, a reference to its place and that place's title. */
export function progressionOfLocation(manifest: ContentManifest, location: LastLocation): Pick<Progression, 'progression' | 'references' | 'title'> | null {
  if (manifest.epub && 'chapterHref' in location) {
    const spine = manifest.epub.spine;
    const href = location.chapterHref.split('#')[0]!;
    const index = spine.findIndex((chapter) => chapter.href === href);
    if (index < 0) return null;
    const total = spine.reduce((sum, chapter) => sum + chapter.words, 0);
    const before = spine.slice(0, index).reduce((sum, chapter) => sum + chapter.words, 0);
    return { progression: total > 0 ? before / total : index / spine.length, references: [location.chapterHref], title: spine[index]!.title || null };
  }
  if (manifest.pdf && 'page' in location) {
    const count = manifest.pdf.pages.length;
    return { progression: clamp((location.page - 1) / count, 0, 1), references: [`#page=${location.page}`], title: null };
  }
  if (manifest.audio && 'currentTrack' in location) {
    const tracks = manifest.audio.tracks;
    const track = tracks[location.currentTrack];
    if (!track) return null;
    const total = tracks.reduce((sum, candidate) => sum + candidate.duration, 0);
    const seconds = tracks.slice(0, location.currentTrack).reduce((sum, candidate) => sum + candidate.duration, 0) + location.currentSeek;
    // Milliseconds are as precise as a player seeks.
    const at = Math.round(seconds * 1000) / 1000;
    return { progression: total > 0 ? clamp(at / total, 0, 1) : 0, references: [`#t=${at}`], title: track.title || null };
  }
  return null;
}

/** The draft's document checked against our limits (the gateway has checked its shape); the errors name its fields. */
function validProgression(input: Progression): Progression {
  const errors: Record<string, string[]> = {};
  const fail = (name: string, reason: string) => (errors[name] ??= []).push(reason);
  const text = (name: string, value: string, max: number, required: boolean) => {
    if (typeof value !== 'string' || (required && value.trim().length === 0)) fail(name, 'is required');
    else if (value.length > max) fail(name, `may not be longer than ${max} characters`);
    // Storage refuses NUL (PostgreSQL under FerretDB): bad input, not a 500.
    else if (value.includes('\u0000')) fail(name, 'must not contain NUL characters');
  };
  if (!(input.modified instanceof Date) || Number.isNaN(input.modified.getTime())) fail('modified', 'must be an ISO 8601 date and time');
  text('device.id', input.device?.id, LIMITS.deviceId, true);
  if (typeof input.device?.id === 'string' && !URL.canParse(input.device.id)) fail('device.id', 'must be a URI (e.g. urn:uuid:...)');
  text('device.name', input.device?.name, LIMITS.deviceName, true);
  if (!Number.isFinite(input.progression) || input.progression < 0 || input.progression > 1) fail('progression', 'must be a number between 0 and 1');
  if (input.references.length > LIMITS.references) fail('references', `may not have more than ${LIMITS.references} items`);
  input.references.forEach((reference, index) => text(`references.${index}`, reference, LIMITS.reference, true));
  if (input.title !== null) text('title', input.title, LIMITS.title, false);
  if (Object.keys(errors).length) throw invalidArgument('The given data was invalid.', errors);
  return input;
}

export class OpdsProgressions {
  constructor(
    private readonly deps: {
      sessions: Pick<ReaderSessions, 'readableManifest'>;
      positions: Pick<PositionRepository, 'find'>;
      readingPositions: Pick<ReadingPositions, 'save'>;
      progressions: ProgressionRepository;
      peers: Pick<Peers, 'access'>;
    },
  ) {}

  /** GET: the stored position as a progression; null when none is stored. */
  async get(input: { tenantId: number; userId: number; issueId: number }): Promise<Progression | null> {
    const manifest = await this.deps.sessions.readableManifest(input.tenantId, input.issueId);
    const access = await this.deps.peers.access(input.tenantId, input.userId, input.issueId);
    if (!access.canRead) throw permissionDenied('You do not have access to this issue.');
    const position = await this.deps.positions.find(input);
    return position ? this.render(manifest, position) : null;
  }

  /**
   * PUT: saved as the reading position unless a position read later than
   * `modified` is stored (saved = false, with that one). A `modified` in the
   * future counts as now: a device's fast clock must not hold the others' later positions off.
   */
  async save(input: {
    tenantId: number;
    userId: number;
    issueId: number;
    progression: Progression;
  }): Promise<{ saved: boolean; progression: Progression | null }> {
    const sent = validProgression(input.progression);
    const manifest = await this.deps.sessions.readableManifest(input.tenantId, input.issueId);
    const location = locationOfProgression(manifest, sent.progression, sent.references);
    if (!location)
      throw invalidArgument('The given data was invalid.', { progression: ['cannot be placed in this issue (it has no chapters, pages or tracks)'] });
    const readAt = new Date(Math.min(sent.modified.getTime(), Date.now()));
    // Access and the location's rules are the API's (ReadingPositions.save).
    const result = await this.deps.readingPositions.save({ tenantId: input.tenantId, userId: input.userId, issueId: input.issueId, location, readAt });
    const position = await this.deps.positions.find(input);
    if (!result.saved) return { saved: false, progression: position ? await this.render(manifest, position) : null };
    const record: ProgressionRecord = {
      _id: positionIdOf(input),
      user_id: input.userId,
      tenant_id: input.tenantId,
      issue_id: input.issueId,
      read_at: readAt,
      device: { id: sent.device.id, name: sent.device.name },
      progression: sent.progression,
      references: sent.references,
      title: sent.title,
    };
    await this.deps.progressions.saveIfNewer(record);
    return { saved: true, progression: { ...sent, modified: readAt } };
  }

  async eraseUser(userId: number): Promise<number> {
    return this.deps.progressions.deleteAllOf(userId);
  }

  /** As the app sent it while its position is the stored one; otherwise mapped from the stored location, device "Folio". */
  private async render(manifest: ContentManifest, position: PositionRecord): Promise<Progression | null> {
    const readAt = new Date(position.read_at);
    const sent = await this.deps.progressions.find(position._id);
    if (sent && new Date(sent.read_at).getTime() === readAt.getTime()) {
      return { modified: readAt, device: sent.device, progression: sent.progression, references: sent.references, title: sent.title };
    }
    const location = storedLocation(position.location);
    const mapped = location ? progressionOfLocation(manifest, location) : null;
    return mapped ? { modified: readAt, device: API_PROGRESSION_DEVICE, ...mapped } : null;
  }
}
