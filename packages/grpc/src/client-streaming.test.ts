// Client-streaming calls (reader's UploadContent) through startGrpcServer and
// createPromiseClient: the handler reads an async iterable of messages, the
// client writes an iterable only as fast as the server takes it, and an early
// refusal stops the client's source.
import { createLogger } from '@folio/logger';
import { reader } from '@folio/proto';
import { DomainError } from '@folio/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPromiseClient, startGrpcServer, type GrpcServer, type ServiceHandlers } from './index.js';

const MB = 1024 * 1024;
const unimplemented = async () => {
  throw new DomainError('UNIMPLEMENTED', 'not here');
};

describe('client-streaming calls', () => {
  let server: GrpcServer;
  let client: ReturnType<typeof createPromiseClient<reader.ReaderServiceClient>>;
  let consumed = 0;

  beforeAll(async () => {
    const handlers = Object.fromEntries(Object.keys(reader.ReaderServiceService).map((name) => [name, unimplemented])) as unknown as ServiceHandlers<
      typeof reader.ReaderServiceService
    >;
    handlers.uploadContent = async (requests) => {
      consumed = 0;
      let header: reader.UploadContentHeader | undefined;
      for await (const message of requests) {
        if (!header) {
          header = message.header;
          if (header?.mediaType === 'text/plain') throw new DomainError('INVALID_ARGUMENT', 'not a file type', { reason: 'UNSUPPORTED_MEDIA_TYPE' });
          continue;
        }
        consumed += message.chunk?.length ?? 0;
        // A slow store: the client must wait for it rather than pile messages up.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return {
        status: {
          state: reader.ContentState.CONTENT_STATE_QUEUED,
          contentHash: 'h',
          bytes: consumed,
          mediaType: header!.mediaType,
          uploadedAt: '',
          progress: 0,
          findings: [],
          metadata: undefined,
        },
      };
    };
    server = await startGrpcServer({
      logger: createLogger({ service: 'test', level: 'silent' }),
      port: 0,
      host: '127.0.0.1',
      services: [{ name: 'svc.reader.v1.ReaderService', definition: reader.ReaderServiceService, handlers }],
    });
    client = createPromiseClient(reader.ReaderServiceClient, `127.0.0.1:${server.port}`, { defaultDeadlineMs: 30_000 });
  });

  afterAll(async () => {
    client.close();
    await server.shutdown(1_000);
  });

  const header = (mediaType: string): reader.UploadContentRequest => ({
    header: { tenantId: 1, issueId: 2, issueType: 'epub', mediaType, declaredBytes: 0, title: '', authors: [], uploadedBy: '' },
  });

  it('when the source is larger than the transport buffers, then it is produced only as fast as the handler reads it', async () => {
    let produced = 0;
    let furthestAhead = 0;
    async function* source(): AsyncGenerator<reader.UploadContentRequest> {
      yield header('application/epub+zip');
      for (let i = 0; i < 40; i += 1) {
        produced += MB;
        furthestAhead = Math.max(furthestAhead, produced - consumed);
        yield { chunk: Buffer.alloc(MB, i) };
      }
    }
    const response = await client.uploadContent(source());
    expect(response.status?.bytes).toBe(40 * MB);
    // The client's window (4), the server stream's buffer (16 messages) and the HTTP/2 windows
    // hold about 20 MB; without backpressure all 40 would be ahead.
    expect(furthestAhead).toBeLessThan(24 * MB);
  });

  it('when the handler refuses after the header, then the call rejects with its error and the source stops', async () => {
    let produced = 0;
    async function* source(): AsyncGenerator<reader.UploadContentRequest> {
      yield header('text/plain');
      for (let i = 0; i < 200; i += 1) {
        produced += 1;
        yield { chunk: Buffer.alloc(MB) };
      }
    }
    await expect(client.uploadContent(source())).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { reason: 'UNSUPPORTED_MEDIA_TYPE' } });
    expect(produced).toBeLessThan(200);
  });

  it('when the source fails, then the call is cancelled and rejects with the source error', async () => {
    async function* source(): AsyncGenerator<reader.UploadContentRequest> {
      yield header('application/epub+zip');
      yield { chunk: Buffer.alloc(1024) };
      throw new DomainError('RESOURCE_EXHAUSTED', 'too large', { reason: 'FILE_TOO_LARGE' });
    }
    await expect(client.uploadContent(source())).rejects.toMatchObject({ message: 'too large', details: { reason: 'FILE_TOO_LARGE' } });
  });
});
