// gRPC entry point of reader: decode the request, call a use case, encode the
// reply as reader's typed messages (grpc/mappers.ts). No rules live here, and
// no HTTP shapes: the gateway renders the answers.
import { invalidArgument } from '@folio/errors';
import type { ServiceHandlers } from '@folio/grpc';
import { reader } from '@folio/proto';
import type { Downloads } from '../domain/downloads.js';
import type { ReadingPositions } from '../domain/positions.js';
import type { OpdsProgressions } from '../domain/progression.js';
import type { Publications } from '../domain/publications.js';
import type { SearchSession, TextSearch } from '../domain/search.js';
import type { ReaderSessions } from '../domain/sessions.js';
import type { ReaderSettings } from '../domain/settings.js';
import type { ContentUploads } from '../domain/uploads.js';
import { contentStatusToProto, uploadHeaderFromProto } from './content-mappers.js';
import {
  contentToProto,
  downloadToProto,
  locationFromProto,
  locationToProto,
  pageTextToProto,
  progressionFromProto,
  positionToProto,
  progressionToProto,
  publicationToProto,
  settingsViewToProto,
  storedSessionToProto,
  textHitToProto,
  userSettingsFromProto,
  userSettingsToProto,
} from './mappers.js';

export interface UseCases {
  sessions: ReaderSessions;
  settings: ReaderSettings;
  positions: ReadingPositions;
  downloads: Downloads;
  search: TextSearch;
  publications: Publications;
  progressions: OpdsProgressions;
  uploads: ContentUploads;
}

/** An upload's file: every message after the header, as bytes (a second header is the caller's bug). */
async function* chunksOf(messages: AsyncIterator<reader.UploadContentRequest>): AsyncGenerator<Uint8Array> {
  for (;;) {
    const next = await messages.next();
    if (next.done) return;
    if (next.value.header) throw invalidArgument('Only the first message of an upload is its header.');
    if (next.value.chunk && next.value.chunk.length > 0) yield next.value.chunk;
  }
}

/** The verified session a search names (INVALID_ARGUMENT without one: a caller's bug, never a client's). */
function sessionOf(context: reader.ReaderContext | undefined): SearchSession {
  if (!context) throw invalidArgument('The given data was invalid.', { session: ['is required'] });
  return { tenantId: context.tenantId, userId: context.userId, issueId: context.issueId, preview: context.preview, previewLimit: context.previewLimit ?? null };
}

export function readerHandlers(app: UseCases): ServiceHandlers<typeof reader.ReaderServiceService> {
  return {
    async createReaderSession(request) {
      const opened = await app.sessions.openV2({
        tenantId: request.tenantId,
        userId: request.userId,
        issueId: request.issueId,
        preview: request.preview,
        resumeToken: request.resumeReaderToken,
      });
      return { content: contentToProto(opened.content), sessionId: opened.sessionId, readerToken: opened.token, publicId: opened.publicId ?? '' };
    },

    async exchangeSessionToken(request) {
      const opened = await app.sessions.exchangeV1({
        storeTenantId: request.storeTenantId,
        token: request.token,
        reader: request.reader,
        engineHost: request.engineHost,
        preview: request.preview,
      });
      return { content: contentToProto(opened.content), sessionId: opened.sessionId, readerToken: opened.token, publicId: opened.publicId ?? '' };
    },

    async getReaderSession(request) {
      return { session: storedSessionToProto(await app.sessions.get(request.storeTenantId, request.publicId)) };
    },

    async deleteReaderSession(request) {
      return { session: storedSessionToProto(await app.sessions.delete(request.storeTenantId, request.publicId)) };
    },

    async verifyReaderToken(request) {
      const claims = await app.sessions.verifyForGateway(request.readerToken, request.expectedTenantId);
      return {
        context: {
          sessionId: String(claims.sessionId),
          tenantId: claims.tenantId,
          userId: claims.userId,
          issueId: claims.issueId,
          preview: claims.preview,
          previewLimit: claims.previewLimit ?? undefined,
          expiresAt: Math.floor(claims.expiresAt.getTime() / 1000),
        },
      };
    },

    async getReaderSettings(request) {
      const { view, positionVersion } = await app.settings.get({
        tenantId: request.tenantId,
        userId: request.userId,
        issueId: request.issueId,
        readerToken: request.readerToken,
        location: request.location,
        lang: request.lang,
      });
      return { settings: settingsViewToProto(view), positionVersion: positionVersion ?? undefined };
    },

    async updateUserReaderSettings(request) {
      return { settings: userSettingsToProto(await app.settings.update(request.userId, userSettingsFromProto(request.settings))) };
    },

    async saveLastLocation(request) {
      const result = await app.positions.save({
        tenantId: request.tenantId,
        userId: request.userId,
        issueId: request.issueId,
        location: locationFromProto(request.location),
        expected: request.expected,
      });
      return { location: locationToProto(result.location), version: result.version ?? '', saved: result.saved };
    },

    async getDownload(request) {
      return { download: downloadToProto(await app.downloads.get(request)) };
    },
    async searchIssueText(request) {
      const hits = await app.search.search({ session: sessionOf(request.session), search: request.search, issueId: request.issueId });
      return { hits: hits.map(textHitToProto) };
    },

    async listIssueTextContent(request) {
      return { records: (await app.search.pageText(request)).map(pageTextToProto) };
    },

    async listContinueReading(request) {
      return app.positions.continueReading(request);
    },

    async getPublicationManifest(request) {
      return { publication: publicationToProto(await app.publications.manifest(request)) };
    },

    async getPositionList(request) {
      return { positions: (await app.publications.positions(request)).map(positionToProto) };
    },

    async getProgression(request) {
      return { progression: progressionToProto(await app.progressions.get(request)) };
    },

    async saveProgression(request) {
      const result = await app.progressions.save({
        tenantId: request.tenantId,
        userId: request.userId,
        issueId: request.issueId,
        progression: progressionFromProto(request.progression),
      });
      return { progression: progressionToProto(result.progression), saved: result.saved };
    },

    async uploadContent(requests) {
      const messages = requests[Symbol.asyncIterator]();
      const first = await messages.next();
      if (first.done || !first.value.header) throw invalidArgument('The first message of an upload is its header.', { header: ['is required'] });
      return { status: contentStatusToProto(await app.uploads.upload(uploadHeaderFromProto(first.value.header), chunksOf(messages))) };
    },

    async getContentStatus(request) {
      return { status: contentStatusToProto(await app.uploads.status(request.tenantId, request.issueId)) };
    },
  };
}
