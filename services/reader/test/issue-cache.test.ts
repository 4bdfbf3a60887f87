// Reader keeps catalog's issue metadata for ISSUE_CACHE_TTL_MS (the reader
// settings show it on every open): a second read within the TTL does not
// reach catalog, a missing issue is asked again every time (it may be
// published a moment later), and a TTL of 0 turns the cache off.
import { createLogger } from '@folio/logger';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GrpcPeers } from '../src/peers/grpc-peers.js';
import { startCatalogStandIn, type StandIns } from './support/peer-stand-ins.js';
import { dataset } from './support/stack.js';

describe('issue metadata from catalog', () => {
  let catalog: StandIns;
  const opened: GrpcPeers[] = [];
  const peersWith = (issueCacheTtlMs: number) => {
    const peers = new GrpcPeers(
      // Identity and commerce are never called here.
      { identity: '127.0.0.1:1', commerce: '127.0.0.1:1', catalog: catalog.catalogAddress, deadlineMs: 1_000, tenantCacheTtlMs: 0, issueCacheTtlMs },
      createLogger({ service: 'test', level: 'silent' }),
    );
    opened.push(peers);
    return peers;
  };
  /** GetIssue calls that reached the stand-in while `reads` ran. */
  const callsDuring = async (reads: () => Promise<unknown>) => {
    const before = catalog.getIssueCalls();
    await reads();
    return catalog.getIssueCalls() - before;
  };

  beforeAll(async () => {
    catalog = await startCatalogStandIn(dataset);
  });
  afterEach(() => {
    for (const peers of opened.splice(0)) peers.close();
  });
  afterAll(async () => {
    await catalog?.stop();
  });

  it('when an issue is read twice within the TTL, then catalog is asked once and both answers are its metadata', async () => {
    const peers = peersWith(60_000);
    const answers: unknown[] = [];
    expect(await callsDuring(async () => answers.push(await peers.issue(1, 1003), await peers.issue(1, 1003)))).toBe(1);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ id: 1003, tenantId: 1, name: dataset.issues.find((issue) => issue.id === 1003)!.name });
  });

  it('when an issue is not in the tenant, then every read asks catalog again and is NOT_FOUND', async () => {
    const peers = peersWith(60_000);
    const reads = async () => {
      await expect(peers.issue(2, 1003)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(peers.issue(2, 1003)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    };
    expect(await callsDuring(reads)).toBe(2);
  });

  it('when the TTL is 0, then every read asks catalog', async () => {
    const peers = peersWith(0);
    expect(await callsDuring(async () => [await peers.issue(1, 1003), await peers.issue(1, 1003)])).toBe(2);
  });
});
