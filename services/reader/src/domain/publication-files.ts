// The files an e-reader downloads for an issue (OPDS acquisition): the EPUB
// or the PDF as ingested, or the tracks of an audiobook, signed like the
// download record's (expiring after the URL lifetime or at the end of the
// user's grant). Only for an issue the user can read.
import { extname } from 'node:path';
import { failedPrecondition, invalidArgument, notFound, permissionDenied } from '@folio/errors';
import type { MediaUrls } from '../media/signing.js';
import type { Peers } from './ports.js';
import type { IssueKey } from './repositories.js';

/** What a download needs of an issue's manifest: its type and the storage keys of its files. */
export interface DownloadableManifest {
  type: string;
  title: string;
  epub: { file_key: string; size: number } | null;
  pdf: { file_key?: string | undefined; size?: number | undefined } | null;
  audio: { tracks: { title: string; key: string; duration: number; size: number }[] } | null;
}

export interface PublicationFileView {
  url: string;
  mediaType: string;
  size: number;
  title: string;
  /** Seconds; 0 for documents. */
  duration: number;
}

const AUDIO_TYPES: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.m4b': 'audio/mp4',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.wav': 'audio/wav',
};

export class PublicationFiles {
  constructor(
    private readonly deps: {
      manifests: { find(issue: IssueKey): Promise<DownloadableManifest | null> };
      peers: Pick<Peers, 'access'>;
      urls: Pick<MediaUrls, 'signed'>;
    },
  ) {}

  async get(input: { tenantId: number; userId: number; issueId: number }): Promise<{ contentType: string; title: string; files: PublicationFileView[] }> {
    const manifest = await this.deps.manifests.find({ tenantId: input.tenantId, issueId: input.issueId });
    if (!manifest) throw notFound('Issue not found.');
    if (manifest.type === 'physical') throw failedPrecondition('This issue has no digital content to download.', 'NO_DIGITAL_CONTENT');
    const access = await this.deps.peers.access(input.tenantId, input.userId, input.issueId);
    if (!access.canRead) throw permissionDenied('You do not have access to this issue.');
    const sign = (key: string) => this.deps.urls.signed(key, { notAfter: access.expiresAt });

    const document = (key: string, mediaType: string, size: number): PublicationFileView => ({
      url: sign(key),
      mediaType,
      size,
      title: manifest.title,
      duration: 0,
    });
    if (manifest.epub)
      return { contentType: 'epub', title: manifest.title, files: [document(manifest.epub.file_key, 'application/epub+zip', manifest.epub.size)] };
    if (manifest.pdf) {
      if (!manifest.pdf.file_key) throw failedPrecondition('This PDF is served as page images only until it is ingested again.', 'FILE_NOT_INGESTED');
      return { contentType: 'pdf', title: manifest.title, files: [document(manifest.pdf.file_key, 'application/pdf', manifest.pdf.size ?? 0)] };
    }
    if (manifest.audio) {
      return {
        contentType: 'audio',
        title: manifest.title,
        files: manifest.audio.tracks.map((track) => ({
          url: sign(track.key),
          mediaType: AUDIO_TYPES[extname(track.key).toLowerCase()] ?? 'application/octet-stream',
          size: track.size,
          title: track.title,
          duration: track.duration,
        })),
      };
    }
    throw failedPrecondition('This issue has no digital content to download.', 'NO_DIGITAL_CONTENT');
  }

  /**
   * How long each audiobook among the issues plays, all tracks together
   * (public metadata for catalog feeds: no access check). Other issues are
   * left out. The manifests come from the manifest cache, one lookup each.
   */
  async audioDurations(input: { tenantId: number; issueIds: number[] }): Promise<{ issueId: number; seconds: number }[]> {
    const ids = [...new Set(input.issueIds)];
    if (ids.length > MAX_DURATIONS) throw invalidArgument(`At most ${MAX_DURATIONS} issues at once.`);
    const manifests = await Promise.all(ids.map((issueId) => this.deps.manifests.find({ tenantId: input.tenantId, issueId })));
    return ids.flatMap((issueId, index) => {
      const tracks = manifests[index]?.audio?.tracks;
      if (!tracks?.length) return [];
      return [{ issueId, seconds: tracks.reduce((sum, track) => sum + track.duration, 0) }];
    });
  }
}

const MAX_DURATIONS = 100;
