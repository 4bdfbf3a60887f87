import { checkHealth, createPromiseClient } from '@folio/grpc';
import { commerce } from '@folio/proto';
import { freshMongoUrl } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAME, startCommerce } from '../src/app.js';
import { loadCommerceConfig } from '../src/config.js';

describe('commerce service (drafted contract)', () => {
  let service: Awaited<ReturnType<typeof startCommerce>>;

  beforeAll(async () => {
    service = await startCommerce(loadCommerceConfig({ GRPC_PORT: '0', MONGO_URL: freshMongoUrl('commerce').url, LOG_LEVEL: 'silent' }));
  });
  afterAll(() => service.stop());

  it('when started, then it reports SERVING over grpc.health.v1', async () => {
    expect(await checkHealth(`127.0.0.1:${service.grpcPort}`, SERVICE_NAME)).toBe(true);
  });

  it('when a drafted RPC is called, then it answers UNIMPLEMENTED with a clear message', async () => {
    const client = createPromiseClient(commerce.CommerceServiceClient, `127.0.0.1:${service.grpcPort}`);
    const definition = commerce.CommerceServiceService as unknown as Record<string, unknown>;
    const method = Object.keys(definition)[0]!;
    const call = (client as unknown as Record<string, (request: object) => Promise<unknown>>)[method]!;
    // An empty message with every field at its default, as the generated code builds it.
    const emptyRequest = (definition[method] as { requestDeserialize(bytes: Buffer): object }).requestDeserialize(Buffer.alloc(0));
    await expect(call(emptyRequest)).rejects.toMatchObject({ code: 'UNIMPLEMENTED', message: expect.stringContaining('the catalog and storefront release') });
    client.close();
  });
});
