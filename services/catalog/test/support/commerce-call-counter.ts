// A transparent spy in front of the real commerce service: it forwards
// BatchGetAccess and ListAccessibleIssues unchanged and counts them, so tests
// can check that catalog makes one commerce call per request, not one per item.
import { createPromiseClient, startGrpcServer, type ServiceHandlers } from '@folio/grpc';
import { unimplementedHandlers } from '@folio/testing';
import { createLogger } from '@folio/logger';
import { commerce } from '@folio/proto';

export interface CommerceCallCounter {
  address: string;
  calls: { batchGetAccess: number; listAccessibleIssues: number };
  stop(): Promise<void>;
}

export async function startCommerceCallCounter(target: string): Promise<CommerceCallCounter> {
  const client = createPromiseClient(commerce.CommerceServiceClient, target, { defaultDeadlineMs: 10_000 });
  const calls = { batchGetAccess: 0, listAccessibleIssues: 0 };
  const handlers: ServiceHandlers<typeof commerce.CommerceServiceService> = {
    ...unimplementedHandlers(commerce.CommerceServiceService, 'the real commerce service, not through this counter'),
    async batchGetAccess(request) {
      calls.batchGetAccess += 1;
      return client.batchGetAccess(request);
    },
    async listAccessibleIssues(request) {
      calls.listAccessibleIssues += 1;
      return client.listAccessibleIssues(request);
    },
  };
  const server = await startGrpcServer({
    logger: createLogger({ service: 'commerce-call-counter', level: 'silent' }),
    port: 0,
    host: '127.0.0.1',
    services: [{ name: 'svc.commerce.v1.CommerceService', definition: commerce.CommerceServiceService, handlers }],
  });
  return {
    address: `127.0.0.1:${server.port}`,
    calls,
    async stop() {
      await server.shutdown(1_000);
      client.close();
    },
  };
}
