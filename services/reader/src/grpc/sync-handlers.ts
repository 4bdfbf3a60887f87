// gRPC entry point of ReaderSyncService (e-reader files, KOReader progress
// sync): decode, call the use case, encode. No rules live here.
import type { ServiceHandlers } from '@folio/grpc';
import type { readerSync } from '@folio/proto';
import type { KosyncLookup, KosyncProgress } from '../domain/kosync.js';
import type { PublicationFiles } from '../domain/publication-files.js';

export function readerSyncHandlers(app: { files: PublicationFiles; kosync: KosyncProgress }): ServiceHandlers<typeof readerSync.ReaderSyncServiceService> {
  return {
    async getPublicationFile(request) {
      const found = await app.files.get({ tenantId: request.tenantId, userId: request.userId, issueId: request.issueId });
      return {
        contentType: found.contentType,
        title: found.title,
        files: found.files.map((file) => ({ url: file.url, mediaType: file.mediaType, size: file.size, title: file.title, duration: file.duration })),
      };
    },

    async listAudioDurations(request) {
      return { durations: await app.files.audioDurations({ tenantId: request.tenantId, issueIds: request.issueIds }) };
    },

    async pushProgress(request) {
      const pushed = await app.kosync.push({
        tenantId: request.tenantId,
        userId: request.userId,
        document: request.document,
        progress: request.progress,
        percentage: request.percentage,
        device: request.device,
        deviceId: request.deviceId,
        lookup: lookupOf(request),
      });
      return { ...pushed, match: pushed.match ?? '' };
    },

    async pullProgress(request) {
      const progress = await app.kosync.pull({ tenantId: request.tenantId, userId: request.userId, document: request.document, lookup: lookupOf(request) });
      return {
        progress: progress ? { ...progress, match: progress.match ?? '', progressMatch: progress.progressMatch ?? '' } : undefined,
      };
    },
  };
}

/** v2 without identifiers arrives as an empty list: the domain refuses an empty list the client sent, so none were sent. */
function lookupOf(request: { matchIdentifiers: boolean; identifiers: readonly { type: string; value: string }[] }): KosyncLookup {
  if (!request.matchIdentifiers) return { version: 1 };
  return { version: 2, identifiers: request.identifiers.length > 0 ? request.identifiers.map(({ type, value }) => ({ type, value })) : undefined };
}
