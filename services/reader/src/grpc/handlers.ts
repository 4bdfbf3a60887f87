// gRPC entry point of reader: decode the request, call a use case, encode the
// reply (`body_json` = the HTTP body of the route). No rules live here.
import { invalidArgument } from '@folio/errors';
import type { ServiceHandlers } from '@folio/grpc';
import { reader } from '@folio/proto';
import type { Downloads } from '../domain/downloads.js';
import type { ReadingPositions } from '../domain/positions.js';
import type { TextSearch } from '../domain/search.js';
import type { ReaderSessions } from '../domain/sessions.js';
import type { ReaderSettings } from '../domain/settings.js';

export interface UseCases {
  sessions: ReaderSessions;
  settings: ReaderSettings;
  positions: ReadingPositions;
  downloads: Downloads;
  search: TextSearch;
}

/** A client body passed through as JSON text: 422 when it is not JSON. */
function parseBody(json: string): unknown {
  if (json.trim() === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw invalidArgument('The given data was invalid.', { body: ['must be a JSON object'] });
  }
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
      return { bodyJson: JSON.stringify(opened.body), sessionId: opened.sessionId, readerToken: opened.token, publicId: opened.publicId ?? '' };
    },

    async exchangeSessionToken(request) {
      const opened = await app.sessions.exchangeV1({
        storeTenantId: request.storeTenantId,
        token: request.token,
        reader: request.reader,
        engineHost: request.engineHost,
        preview: request.preview,
      });
      return { bodyJson: JSON.stringify(opened.body), sessionId: opened.sessionId, readerToken: opened.token, publicId: opened.publicId ?? '' };
    },

    async getReaderSession(request) {
      return { bodyJson: JSON.stringify(await app.sessions.get(request.storeTenantId, request.publicId)) };
    },

    async deleteReaderSession(request) {
      return { bodyJson: JSON.stringify(await app.sessions.delete(request.storeTenantId, request.publicId)) };
    },

    async verifyReaderToken(request) {
      const claims = await app.sessions.verify(request.readerToken, request.expectedTenantId);
      return {
        context: {
          sessionId: String(claims.sessionId),
          tenantId: claims.tenantId,
          userId: claims.userId,
          issueId: claims.issueId,
          preview: claims.preview,
        },
      };
    },

    async getReaderSettings(request) {
      const body = await app.settings.get({
        tenantId: request.tenantId,
        userId: request.userId,
        issueId: request.issueId,
        readerToken: request.readerToken,
        location: request.location,
        lang: request.lang,
      });
      return { bodyJson: JSON.stringify(body) };
    },

    async updateUserReaderSettings(request) {
      return { bodyJson: JSON.stringify(await app.settings.update(request.userId, parseBody(request.requestJson))) };
    },

    async saveLastLocation(request) {
      const body = await app.positions.save({
        tenantId: request.tenantId,
        userId: request.userId,
        issueId: request.issueId,
        body: parseBody(request.requestJson),
      });
      return { bodyJson: JSON.stringify(body) };
    },

    async getDownload(request) {
      return { bodyJson: JSON.stringify(await app.downloads.get(request)) };
    },

    async searchIssueText(request) {
      const hits = await app.search.search({
        readerToken: request.readerToken,
        expectedTenantId: request.expectedTenantId,
        search: request.search,
        api: request.api === reader.SearchApi.SEARCH_API_V1 ? 'v1' : 'v2',
        issueId: request.issueId,
      });
      return { hits };
    },

    async listIssueTextContent(request) {
      return { records: await app.search.pageText(request) };
    },

    async listContinueReading(request) {
      return app.positions.continueReading(request);
    },
  };
}
