// Issue summaries, the seed and the in-memory view's sync, health.
import { checkHealth } from '@folio/grpc';
import { catalog } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAME } from '../src/app.js';
import { seedCatalog, type CatalogDataset } from '../src/seed.js';
import { ANA, dataset } from './support/dataset.js';
import { idsOf, startTestCatalog, type TestCatalog } from './support/harness.js';

describe('issues', () => {
  let t: TestCatalog;

  beforeAll(async () => {
    t = await startTestCatalog();
  });
  afterAll(() => t?.stop());

  it('when started, then it reports SERVING over grpc.health.v1', async () => {
    expect(await checkHealth(`127.0.0.1:${t.service.grpcPort}`, SERVICE_NAME)).toBe(true);
  });

  it("when an issue is read, then its summary has every field of the spec's table, formatted", async () => {
    const { issue, tags, collections } = await t.client.getIssue({ tenantId: 1, issueId: 1001 });
    expect(issue).toEqual({
      id: 1001,
      tenantId: 1,
      name: "The Lighthouse Keeper's Atlas",
      slug: 'the-lighthouse-keepers-atlas',
      coverUrl: 'http://127.0.0.1:8080/media/covers/1001.svg',
      publishedAtMs: Date.parse('2026-03-02T09:00:00Z'),
      type: 'epub',
      description: 'A lighthouse keeper inherits an atlas of coastlines that do not exist.',
      externalId: 'NW-EPUB-1001',
      numberOfPages: 212,
      lang: 'en',
      author: 'Mara Ellison',
      publisher: 'Northwind Editions',
      bisac: 'FICTION / Literary',
      commerce: undefined,
    });
    expect(tags).toEqual({ author: ['Mara Ellison'], keyword: ['lighthouse', 'atlas', 'sea'], edition: ['first'] });
    expect(collections).toEqual(['fiction']);
  });

  it('when an audiobook is read, then number_of_pages is absent (null) and type is audio', async () => {
    const { issue } = await t.client.getIssue({ tenantId: 1, issueId: 1003 });
    expect(issue).toMatchObject({ type: 'audio', numberOfPages: undefined, publishedAtMs: Date.parse('2026-01-20T10:30:00Z') });
  });

  it('when the issue belongs to another tenant, then it is NOT_FOUND', async () => {
    await expect(t.client.getIssue({ tenantId: 2, issueId: 1001 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('when several issues are asked for, then the known ones of the tenant come in request order', async () => {
    const { issues } = await t.client.batchGetIssues({ tenantId: 1, issueIds: [1009, 2001, 1001, 42] });
    expect(issues.map((issue) => issue.id)).toEqual([1009, 1001]);
  });

  it('when the dataset is seeded again, then nothing changes and nothing is duplicated', async () => {
    const again = await seedCatalog(t.db, dataset as unknown as CatalogDataset);
    expect(again.issues).toEqual({ inserted: 0, updated: 0, unchanged: dataset.issues.length });
    expect(again.collections).toEqual({ inserted: 0, updated: 0, unchanged: dataset.collections.length });
    expect(await t.db.collection('issues').countDocuments()).toBe(dataset.issues.length);
  });

  it('when another process changes an issue, then the catch-up applies it to listings and search', async () => {
    const changed = structuredClone(dataset) as unknown as CatalogDataset;
    const nightFerry = changed.issues.find((issue) => issue.id === 1009)!;
    nightFerry.name = 'Night Ferry to Zanzibar';
    nightFerry.published_at = '2024-01-01 00:00:00';
    const written = await seedCatalog(t.db, changed);
    expect(written.issues).toMatchObject({ updated: 1, inserted: 0 });

    // GetIssue reads through to MongoDB for new issues only; listings wait for the catch-up.
    const search = () => t.client.searchStore({ tenantId: 1, userId: ANA, query: 'zanzibar', page: 0, scope: catalog.Scope.SCOPE_ALL });
    expect(idsOf((await search()).section)).toEqual([]);
    expect(await t.service.catchUpIndex()).toBeGreaterThanOrEqual(1);
    expect(idsOf((await search()).section)).toEqual([1009]);
    const { section } = await t.client.filterLibrary({
      tenantId: 1,
      userId: ANA,
      filterName: 'section',
      filterValue: 'latest_issues',
      page: 0,
      perPage: 0,
      scope: catalog.Scope.SCOPE_OWNED,
    });
    expect(idsOf(section).at(-1)).toBe(1009);
  });
});
