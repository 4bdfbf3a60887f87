// Reading positions from the reader service (continue reading). The shelf is
// a convenience: when reader is not deployed yet (UNIMPLEMENTED), down
// (UNAVAILABLE) or slow (DEADLINE_EXCEEDED) the answer is simply empty and
// the library still renders; only unexpected failures are logged as warnings.
import { DomainError } from '@folio/errors';
import type { PromiseClient } from '@folio/grpc';
import type { Logger } from '@folio/logger';
import type { reader } from '@folio/proto';
import type { ReadingPosition, ReadingPositionsPort } from '../domain/ports.js';

const EXPECTED_OUTAGES = new Set(['UNIMPLEMENTED', 'UNAVAILABLE', 'DEADLINE_EXCEEDED']);

export class ReaderPositions implements ReadingPositionsPort {
  constructor(
    private readonly client: PromiseClient<reader.ReaderServiceClient>,
    private readonly options: { deadlineMs: number; logger: Logger },
  ) {}

  async list(userId: number, tenantIds: readonly number[], page: number, perPage: number): Promise<{ positions: ReadingPosition[]; total: number }> {
    try {
      const response = await this.client.listContinueReading({ userId, tenantIds: [...tenantIds], page, perPage }, { deadlineMs: this.options.deadlineMs });
      return {
        positions: response.positions.map((position) => ({ tenantId: position.tenantId, issueId: position.issueId, readAt: position.readAt })),
        total: response.total,
      };
    } catch (error) {
      const code = error instanceof DomainError ? error.code : 'INTERNAL';
      if (EXPECTED_OUTAGES.has(code)) this.options.logger.debug({ code }, 'reader unavailable; continue reading is empty');
      else this.options.logger.warn({ err: error }, 'reader failed; continue reading is empty');
      return { positions: [], total: 0 };
    }
  }
}
