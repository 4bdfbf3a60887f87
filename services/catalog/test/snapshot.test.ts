// Starting from a snapshot of the view: a second replica on the same database
// starts from what the first one stored, catches up with later writes, and
// falls back to reading the whole catalog when the snapshot is unusable.
import { createLogger } from '@folio/logger';
import { catalog } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalog, type RunningCatalog } from '../src/app.js';
import { changeBucket } from '../src/data/change-buckets.js';
import { seedCatalog, type CatalogDataset } from '../src/seed.js';
import { ANA, BRUNO, FABIO, dataset } from './support/dataset.js';
import { idsOf, startTestCatalog, type CatalogClient, type TestCatalog } from './support/harness.js';
import { createPromiseClient } from '@folio/grpc';

const { SCOPE_ALL, SCOPE_OWNED } = catalog.Scope;
const base = { page: 0, perPage: 0 };
const QUERIES = ['cafe', 'Cro\u0301nicas', 'lucia', 'ri', 'night ferry', 'the', 'zanzibar'];

/** Everything a client sees of the view: searches, shelves and content of a few users. */
async function everythingSeenBy(client: CatalogClient) {
  const seen: unknown[] = [];
  for (const userId of [ANA, BRUNO, FABIO]) {
    for (const tenantId of [1, 2, 4, 6]) {
      for (const scope of [SCOPE_OWNED, SCOPE_ALL]) {
        seen.push(await client.listLibrarySections({ ...base, tenantId, userId, scope, perPage: 100 }));
        seen.push(await client.filterLibrary({ ...base, tenantId, userId, scope, filterName: 'section', filterValue: 'latest_issues', perPage: 100 }));
        for (const query of QUERIES) seen.push(await client.searchStore({ tenantId, userId, query, page: 0, scope }));
      }
    }
    for (const query of QUERIES) seen.push(await client.searchGlobal({ tenantIds: [1, 2, 4, 6], userId, query, page: 0, appTenantId: 1 }));
    seen.push(await client.listMyContent({ tenantIds: [1, 2, 4, 6], userId, perPage: 100, cursor: '' }));
  }
  return seen;
}

describe('starting from a snapshot', () => {
  let t: TestCatalog;
  const replicas: { service: RunningCatalog; client: CatalogClient }[] = [];

  /** Another replica of the service on the same database. */
  async function startReplica() {
    const service = await startCatalog({ ...t.config, SNAPSHOT_INTERVAL_MS: 0 }, createLogger({ service: 'catalog-replica', level: 'silent' }));
    const client = createPromiseClient(catalog.CatalogServiceClient, `127.0.0.1:${service.grpcPort}`, { defaultDeadlineMs: 10_000 });
    replicas.push({ service, client });
    return { service, client };
  }

  /** Chunk documents of a snapshot (the head names the snapshot too, but has no `n`). */
  const chunksOf = (snapshotId: string) => snapshots().countDocuments({ snapshot_id: snapshotId, n: { $gte: 0 } });
  const snapshots = () => t.db.collection<{ _id: string; snapshot_id?: string; chunks?: number; fingerprint?: string; data?: unknown }>('snapshots');

  beforeAll(async () => {
    // Small chunks: the demo catalog's snapshot spans several chunk documents.
    t = await startTestCatalog({ env: { SNAPSHOT_CHUNK_BYTES: '2048' } });
  });
  afterAll(async () => {
    for (const replica of replicas) {
      replica.client.close();
      await replica.service.stop();
    }
    await t?.stop();
  });

  it('when the first replica started on a fresh database, then it read the whole catalog and stored a snapshot in chunks', async () => {
    expect(t.service.startedFrom).toMatchObject({ source: 'database', issues: dataset.issues.length });
    await t.service.writeSnapshot();
    const head = await snapshots().findOne({ _id: 'head' });
    expect(head).toMatchObject({ issues: dataset.issues.length });
    expect(head!.chunks).toBeGreaterThan(1);
    expect(await chunksOf(head!.snapshot_id!)).toBe(head!.chunks);
  });

  it('when a replica starts after the snapshot was written, then it starts from it and answers exactly like the writer', async () => {
    const replica = await startReplica();
    expect(replica.service.startedFrom).toMatchObject({ source: 'snapshot', issues: dataset.issues.length });
    expect(await everythingSeenBy(replica.client)).toEqual(await everythingSeenBy(t.client));
  });

  it('when an issue changes and another is removed after the snapshot, then a replica started from it shows both (catch-up)', async () => {
    const changed = structuredClone(dataset) as unknown as CatalogDataset;
    changed.issues.find((issue) => issue.id === 1009)!.name = 'Night Ferry to Zanzibar';
    await seedCatalog(t.db, changed);
    const now = new Date();
    await t.db.collection('issues').updateOne({ _id: 2004 as never }, { $set: { deleted_at: now, updated_at: now, change_bucket: changeBucket(now) } });
    expect(await t.service.catchUpIndex()).toBeGreaterThanOrEqual(2);

    const replica = await startReplica();
    expect(replica.service.startedFrom).toMatchObject({ source: 'snapshot', issues: dataset.issues.length - 1 });
    expect(replica.service.startedFrom.source === 'snapshot' && replica.service.startedFrom.caughtUp).toBeGreaterThanOrEqual(2);
    const zanzibar = await replica.client.searchStore({ tenantId: 1, userId: ANA, query: 'zanzibar', page: 0, scope: SCOPE_ALL });
    expect(idsOf(zanzibar.section)).toEqual([1009]);
    const cafe = await replica.client.searchStore({ tenantId: 2, userId: ANA, query: 'cafe', page: 0, scope: SCOPE_ALL });
    expect(idsOf(cafe.section)).toEqual([]);
    expect(await everythingSeenBy(replica.client)).toEqual(await everythingSeenBy(t.client));
  });

  it('when the writer stores a newer snapshot, then the head moves and the one before the previous is deleted', async () => {
    const first = await snapshots().findOne({ _id: 'head' });
    const written = await t.service.writeSnapshot();
    expect(written).toMatchObject({ written: true });
    const second = await snapshots().findOne({ _id: 'head' });
    expect(second!.snapshot_id).not.toBe(first!.snapshot_id);
    expect(await t.service.writeSnapshot()).toEqual({ written: false, reason: 'unchanged' });

    const now = new Date();
    await t.db
      .collection('issues')
      .updateOne({ _id: 1001 as never }, { $set: { name: 'Renamed once more', updated_at: now, change_bucket: changeBucket(now) } });
    await t.service.catchUpIndex();
    expect(await t.service.writeSnapshot()).toMatchObject({ written: true });
    expect(await chunksOf(first!.snapshot_id!)).toBe(0);
    expect(await chunksOf(second!.snapshot_id!)).toBe(second!.chunks);
  });

  it('when a chunk of the snapshot is corrupt, then a replica ignores it, reads the whole catalog and answers the same', async () => {
    const head = await snapshots().findOne({ _id: 'head' });
    const chunkId = `${head!.snapshot_id}:1`;
    const chunk = await snapshots().findOne({ _id: chunkId });
    const bytes = Buffer.from((chunk!.data as { buffer: Uint8Array }).buffer);
    bytes[10] = bytes[10]! ^ 0xff;
    await snapshots().updateOne({ _id: chunkId }, { $set: { data: bytes } });

    const replica = await startReplica();
    expect(replica.service.startedFrom).toMatchObject({ source: 'database', snapshotIgnored: 'its bytes do not match their checksum' });
    expect(await everythingSeenBy(replica.client)).toEqual(await everythingSeenBy(t.client));
  });

  it('when the snapshot was written by another version, then a replica ignores it and reads the whole catalog', async () => {
    await snapshots().updateOne({ _id: 'head' }, { $set: { fingerprint: 'from-another-build' } });
    const replica = await startReplica();
    expect(replica.service.startedFrom.source === 'database' && replica.service.startedFrom.snapshotIgnored).toMatch(/another version/);
    const zanzibar = await replica.client.searchStore({ tenantId: 1, userId: ANA, query: 'zanzibar', page: 0, scope: SCOPE_ALL });
    expect(idsOf(zanzibar.section)).toEqual([1009]);
  });
});
