// Reader keeps catalog's issue metadata for ISSUE_CACHE_TTL_MS (the reader
// settings show it on every open): a second read within the TTL does not
// reach catalog, a missing issue is asked again every time (it may be
// published a moment later), and a TTL of 0 turns the cache off.
import { createLogger } from '@folio/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcPeers } from '../src/peers/grpc-peers.js';
import { startCatalogStandIn, type StandIns } from './support/peer-stand-ins.js';
import { dataset } from './support/stack.js';

describe('issue metadata from catalog', () => {
  let catalog: StandIns;
  const peersWith = (issueCacheTtlMs: number) =>
    new GrpcPeers(
      // Identity and commerce are never called here.
      { identity: '127.0.0.1:1', commerce: '127.0.0.1:1', catalog: catalog.catalogAddress, deadlineMs: 1_000, tenantCacheTtlMs: 0, issueCacheTtlMs },
      createLogger({ service: 'test', level: 'silent' }),
    );

  beforeAll(async () => {
    catalog = await startCatalogStandIn(dataset);
  });
  afterAll(async () => {
    await catalog?.stop();
  });

  it('when an issue is read twice within the TTL, then catalog is asked once and both answers are its metadata', async () => {
    const peers = peersWith(60_000);
    try {
      const before = catalog.getIssueCalls();
      const [first, second] = [await peers.issue(1, 1003), await peers.issue(1, 1003)];
      expect(catalog.getIssueCalls() - before).toBe(1);
      expect(second).toEqual(first);
      expect(first).toMatchObject({ id: 1003, tenantId: 1, name: dataset.issues.find((issue) => issue.id === 1003)!.name });
    } finally {
      peers.close();
    }
  });

  it('when an issue is not in the tenant, then every read asks catalog again and is NOT_FOUND', async () => {
    const peers = peersWith(60_000);
    try {
      const before = catalog.getIssueCalls();
      await expect(peers.issue(2, 1003)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(peers.issue(2, 1003)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(catalog.getIssueCalls() - before).toBe(2);
    } finally {
      peers.close();
    }
  });

  it('when the TTL is 0, then every read asks catalog', async () => {
    const peers = peersWith(0);
    try {
      const before = catalog.getIssueCalls();
      await peers.issue(1, 1003);
      await peers.issue(1, 1003);
      expect(catalog.getIssueCalls() - before).toBe(2);
    } finally {
      peers.close();
    }
  });
});
