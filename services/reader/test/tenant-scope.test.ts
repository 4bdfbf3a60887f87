// The repositories ask for tenant-owned data within the tenant the caller
// names (IssueKey, PositionKey, UserInTenants, PublicSessionKey): the same
// issue, position or public session id asked for under another tenant is
// not found, against the real store.
import { freshDatabase } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReaderRepositories, type MongoReaderRepositories } from '../src/data/index.js';
import { positionIdOf, type ContentManifest, type PositionRecord } from '../src/domain/repositories.js';
import { MANIFEST_BASE } from './support/content-manifest.js';

const TENANT = 1;
const OTHER_TENANT = 2;

describe('tenant-owned data asked for under another tenant', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let store: MongoReaderRepositories;
  beforeAll(async () => {
    db = await freshDatabase('reader-tenant-scope');
    store = await openReaderRepositories(db.connection);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('when a manifest is asked for with another tenant, then it is not found, whole or summary; with its own, it is', async () => {
    const manifest: ContentManifest = { ...MANIFEST_BASE, _id: `${TENANT}:501`, tenant_id: TENANT, issue_id: 501, type: 'physical' };
    await store.manifests.save(manifest);

    expect(await store.manifests.find({ tenantId: OTHER_TENANT, issueId: 501 })).toBeNull();
    expect(await store.manifests.findSummary({ tenantId: OTHER_TENANT, issueId: 501 })).toBeNull();
    expect((await store.manifests.find({ tenantId: TENANT, issueId: 501 }))?.type).toBe('physical');
  });

  it("when a position is asked for with another tenant, then neither the position nor that tenant's shelf shows it", async () => {
    const key = { userId: 41, tenantId: TENANT, issueId: 502 };
    const position: PositionRecord = {
      _id: positionIdOf(key),
      user_id: 41,
      tenant_id: TENANT,
      issue_id: 502,
      location: { pdf: { page: 3 } },
      read_at: new Date('2026-12-01T10:00:00Z'),
    };
    expect(await store.positions.saveIfNewer(position)).toBe(true);

    expect(await store.positions.find({ ...key, tenantId: OTHER_TENANT })).toBeNull();
    expect(await store.positions.recent({ userId: 41, tenantIds: [OTHER_TENANT] }, 0, 10)).toEqual({ positions: [], total: 0 });
    expect((await store.positions.find(key))?.location).toEqual({ pdf: { page: 3 } });
    expect((await store.positions.recent({ userId: 41, tenantIds: [TENANT] }, 0, 10)).total).toBe(1);
  });

  it("when a session's public id is asked for by another store, then it is not found", async () => {
    const publicId = 'tenant-scope-public-id-0000000';
    await store.sessions.create({
      _id: await store.sessions.nextId(),
      public_id: publicId,
      tenant_id: TENANT,
      user_id: 42,
      issue_id: 503,
      preview: false,
      api: 'v1',
      reader: null,
      engine_host: null,
      created_at: new Date(),
      expires_at: new Date(Date.now() + 3_600_000),
      snapshot: {},
    });

    expect(await store.sessions.findByPublicId({ tenantId: OTHER_TENANT, publicId })).toBeNull();
    expect((await store.sessions.findByPublicId({ tenantId: TENANT, publicId }))?.user_id).toBe(42);
  });
});
