// Reader asks identity for a tenant's settings (cached for TENANT_CACHE_TTL_MS)
// and, while identity does not answer, uses the tenant as identity last
// answered it: an identity outage must not fail every reader route whenever
// a tenant's entry expires. A tenant never loaded still fails, and NOT_FOUND
// is an answer, not an outage. The stand-in listens on a Unix socket, as every
// service does under ./dev.
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '@folio/errors';
import { startGrpcServer, type GrpcServer } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { identity } from '@folio/proto';
import { unimplementedHandlers } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcPeers } from '../src/peers/grpc-peers.js';

describe('tenant settings while identity does not answer', () => {
  const logger = createLogger({ service: 'test', level: 'silent' });
  const socket = join(tmpdir(), `reader-identity-${process.pid}.sock`);
  let standIn: GrpcServer;
  let peers: GrpcPeers;

  beforeAll(async () => {
    standIn = await startGrpcServer({
      logger,
      port: 0,
      host: '127.0.0.1',
      unixSocket: socket,
      services: [
        {
          name: 'svc.identity.v1.IdentityService',
          definition: identity.IdentityServiceService,
          handlers: {
            ...unimplementedHandlers(identity.IdentityServiceService, 'the real identity service (not in this stand-in)'),
            getTenant: async ({ tenantId }: { tenantId: number }) => {
              if (tenantId !== 1) throw new DomainError('NOT_FOUND', 'Tenant not found.');
              return { tenant: { id: 1, name: 'Northwind', domain: 'northwind.localhost', lang: 'en', previewPercentage: 10, webOrigins: [] } };
            },
          } as never,
        },
      ],
    });
    peers = new GrpcPeers(
      // No cache: every read asks identity, so the fallback is what answers once it is gone.
      { identity: `unix:${socket}`, catalog: '127.0.0.1:1', commerce: '127.0.0.1:1', deadlineMs: 1_000, tenantCacheTtlMs: 0, issueCacheTtlMs: 0 },
      logger,
    );
  });
  afterAll(async () => {
    peers?.close();
    await standIn?.shutdown(1_000);
    await rm(socket, { force: true });
  });

  it('when identity stops answering, then a tenant it answered before is used as it was, one never loaded fails, and an unknown one stays NOT_FOUND', async () => {
    expect(await peers.tenant(1)).toMatchObject({ id: 1, name: 'Northwind', domain: 'northwind.localhost', previewPercentage: 10 });
    await expect(peers.tenant(3)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    await standIn.shutdown(1_000);
    expect(await peers.tenant(1)).toMatchObject({ id: 1, name: 'Northwind', domain: 'northwind.localhost', previewPercentage: 10 });
    const failure = await peers.tenant(2).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as DomainError).code).toMatch(/^(UNAVAILABLE|DEADLINE_EXCEEDED)$/);
  });
});
