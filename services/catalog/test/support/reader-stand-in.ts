// STAND-IN for the reader service's ListContinueReading: positions are
// whatever the test puts in `positions`, most recent first, paged like reader
// pages them. The real reader stores a position only for content it has built
// (EPUB, PDF page images, audio tracks), which these tests do not need; every
// other RPC answers UNIMPLEMENTED.
import { startGrpcServer, type ServiceHandlers } from '@folio/grpc';
import { unimplementedHandlers } from '@folio/testing';
import { createLogger } from '@folio/logger';
import { reader } from '@folio/proto';

export interface ReaderStandIn {
  address: string;
  positions: Map<number, reader.ReadingPosition[]>;
  stop(): Promise<void>;
}

export async function startReaderStandIn(): Promise<ReaderStandIn> {
  const positions = new Map<number, reader.ReadingPosition[]>();
  const handlers: ServiceHandlers<typeof reader.ReaderServiceService> = {
    ...unimplementedHandlers(reader.ReaderServiceService, 'the reader release'),
    async listContinueReading(request) {
      const mine = (positions.get(request.userId) ?? []).filter((position) => request.tenantIds.includes(position.tenantId));
      const start = (Math.max(1, request.page) - 1) * request.perPage;
      return { positions: mine.slice(start, start + request.perPage), total: mine.length };
    },
  };
  const server = await startGrpcServer({
    logger: createLogger({ service: 'reader-stand-in', level: 'silent' }),
    port: 0,
    host: '127.0.0.1',
    services: [{ name: 'svc.reader.v1.ReaderService', definition: reader.ReaderServiceService, handlers }],
  });
  return { address: `127.0.0.1:${server.port}`, positions, stop: () => server.shutdown(1_000) };
}
