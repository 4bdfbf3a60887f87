// The catch-up after a start from a snapshot, against the real store: every
// change written after the snapshot (creates, edits, withdrawals, drafts,
// deletes) is in the restored view, in the order written, when the changes
// fill change buckets past the catch-up's page size and span several of them.
import { createLogger } from '@folio/logger';
import { freshDatabase } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainIssue, temporaryDetails } from '../../test/support/issue-record.js';
import { CatalogSync } from '../domain/catalog-sync.js';
import { CatalogView } from '../domain/catalog-view.js';
import { CatalogSnapshots } from '../domain/snapshot.js';
import { SnapshotRefresh } from '../domain/snapshot-refresh.js';
import type { IssueInput, StoredIssue } from '../domain/repositories.js';
import { CHANGE_BUCKET_MS } from './change-buckets.js';
import { openCatalogRepositories, type MongoCatalogRepositories } from './index.js';
import { MongoSnapshotRepository } from './snapshots.js';

const logger = createLogger({ service: 'catalog-catch-up-test', level: 'silent' });
/** Smaller than a bucket's changes below, so that pages end inside a run of buckets. */
const PAGE = 7;
/** Reaches back past every change below: they are stamped up to a few buckets before the snapshot's mark. */
const OVERLAP_MS = 10 * CHANGE_BUCKET_MS;

function issue(id: number, fields: Partial<IssueInput> = {}): IssueInput {
  return {
    _id: id,
    tenant_id: 1,
    name: `Issue ${id}`,
    slug: `issue-${id}`,
    type: 'epub',
    lang: 'en',
    author: 'Ann Author',
    publisher: 'Folio',
    bisac: '',
    external_id: '',
    published_at: new Date(Date.UTC(2020, 0, 1) + id * 60_000),
    number_of_pages: 100,
    description: `About issue ${id}`,
    tags: { author: ['Ann Author'], keyword: [`k${id}`], edition: [] },
    collections: [],
    cover_url: null,
    state: 'published',
    ...fields,
  };
}

describe('catching up after a start from a snapshot', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let store: MongoCatalogRepositories;

  /** A replica's view as app.ts fills it: from the stored snapshot plus a catch-up, or from the whole catalog. */
  async function startView(options: { snapshotWrites?: boolean; readAheadIssues?: number } = {}) {
    const view = new CatalogView(temporaryDetails);
    const sync = new CatalogSync(view, store, logger, { batchSize: PAGE, overlapMs: OVERLAP_MS, readAheadIssues: options.readAheadIssues });
    const snapshots = new CatalogSnapshots(
      { view, sync, store: new MongoSnapshotRepository(db.connection, 4_096), logger },
      { intervalMs: options.snapshotWrites ? 60_000 : 0 },
    );
    return { view, sync, snapshots, loaded: await snapshots.loadView() };
  }

  const live = (view: CatalogView) =>
    view
      .tenant(1)!
      .heldNewestFirst()
      .map(plainIssue)
      .sort((a, b) => a.id - b.id);

  beforeAll(async () => {
    db = await freshDatabase('catalog_catch_up');
    store = await openCatalogRepositories(db.connection);
  });
  afterAll(async () => {
    await db?.connection.close();
    await db?.drop();
  });

  it('when issues are created, edited, withdrawn, made drafts and deleted after the snapshot, then a replica started from it holds exactly what a full load reads', async () => {
    const oldEnough = new Date(Date.now() - 3 * OVERLAP_MS);
    await store.issues.insertMany(
      Array.from({ length: 20 }, (_, k) => issue(1 + k)),
      oldEnough,
    );
    const writer = await startView();
    expect(writer.loaded).toMatchObject({ source: 'database', issues: 20 });
    await writer.snapshots.writeSnapshot();

    // Stamped in five buckets before the snapshot's mark (as by writers whose clocks run behind), some
    // holding more changes than a page: a page that ends with a bucket must not skip the next one.
    const mark = writer.sync.highWater!.getTime();
    const bucketStart = (back: number) => new Date((Math.floor(mark / CHANGE_BUCKET_MS) - back) * CHANGE_BUCKET_MS);
    const at = (back: number, ms: number) => new Date(bucketStart(back).getTime() + ms);
    const stored = new Map<number, StoredIssue>();
    const keep = (doc: StoredIssue | null) => {
      expect(doc).not.toBeNull();
      stored.set(doc!._id, doc!);
      return doc!;
    };
    for (let k = 0; k < 20; k++) stored.set(1 + k, (await store.issues.findAnyInTenant(1, 1 + k))!);
    // Bucket -5: twelve new issues (more than a page), one of them a draft.
    for (let k = 0; k < 12; k++) keep(await store.issues.insert(issue(100 + k, k === 3 ? { state: 'draft' } : {}), at(5, k)));
    // Bucket -4: issue 1 edited, then edited again; issue 2 withdrawn.
    keep(await store.issues.replace(issue(1, { name: 'First edit' }), stored.get(1)!.updated_at, at(4, 0)));
    keep(await store.issues.replace(issue(1, { name: 'Second edit' }), stored.get(1)!.updated_at, at(4, 1)));
    keep(await store.issues.replace(issue(2, { state: 'withdrawn' }), stored.get(2)!.updated_at, at(4, 2)));
    // Bucket -3: issue 3 deleted; a new issue created and deleted again; the draft published.
    keep(await store.issues.tombstone(stored.get(3)!, at(3, 0)));
    keep(await store.issues.tombstone(keep(await store.issues.insert(issue(200), at(3, 1))), at(3, 2)));
    keep(await store.issues.replace(issue(103, { state: 'published', name: 'Published draft' }), stored.get(103)!.updated_at, at(3, 3)));
    // Buckets -2 and -1: issue 4 made a draft again, then edits of eight more (a page and a bit over two buckets).
    keep(await store.issues.replace(issue(4, { state: 'draft' }), stored.get(4)!.updated_at, at(2, 0)));
    for (let k = 0; k < 8; k++)
      keep(await store.issues.replace(issue(10 + k, { description: `Edited ${k}` }), stored.get(10 + k)!.updated_at, at(k < 4 ? 2 : 1, 1 + k)));

    const replica = await startView();
    const full = new CatalogView(temporaryDetails);
    await new CatalogSync(full, store, logger).load();

    expect(replica.loaded).toMatchObject({ source: 'snapshot' });
    // Every changed document read once, as it is now (issues 1, 103 and 200 were written twice):
    // 12 new, issues 1 to 4, issue 200 and the 8 edited.
    expect(replica.loaded.source === 'snapshot' && replica.loaded.caughtUp).toBe(12 + 4 + 1 + 8);
    expect(live(replica.view)).toEqual(live(full));
    const byId = (id: number) => replica.view.issueById(id);
    expect(byId(1)?.name).toBe('Second edit');
    expect(byId(2)?.listed).toBe(false);
    expect(byId(3)).toBeUndefined();
    expect(byId(4)).toBeUndefined();
    expect(byId(103)?.name).toBe('Published draft');
    expect(byId(200)).toBeUndefined();
    expect(byId(111)?.name).toBe('Issue 111');
    expect(byId(17)?.description).toBe('Edited 7');
    expect(replica.view.issueCount).toBe(20 - 2 + 12);
    // Read ahead of the restore up to a cap of two pages, the rest after it: the same view.
    const capped = await startView({ readAheadIssues: 2 * PAGE });
    expect(capped.loaded.source === 'snapshot' && capped.loaded.caughtUp).toBe(12 + 4 + 1 + 8);
    expect(live(capped.view)).toEqual(live(full));

    // The replica took 25 changes at its start: past the refresh's threshold it stores a snapshot
    // of its view, once (two checks), and the next replica starts from that one.
    const refresh = new SnapshotRefresh({ ...replica, logger }, { changes: 10, checkMs: 60_000, minGapMs: 60_000 });
    const headBefore = await new MongoSnapshotRepository(db.connection).head();
    await refresh.check();
    await refresh.check();
    const headAfter = await new MongoSnapshotRepository(db.connection).head();
    expect(headAfter?.snapshot_id).not.toBe(headBefore?.snapshot_id);
    expect(headAfter?.previous?.snapshot_id).toBe(headBefore?.snapshot_id);
    expect(headAfter?.watermark.getTime()).toBe(replica.sync.highWater!.getTime());
    const next = await startView();
    expect(next.loaded).toMatchObject({ source: 'snapshot', snapshotId: headAfter?.snapshot_id });
    expect(live(next.view)).toEqual(live(full));
  });

  it('when changes pile up in one bucket and the next, then the pages of a catch-up hold each change once, in (updated_at, _id) order', async () => {
    const start = new Date(Math.floor(Date.now() / CHANGE_BUCKET_MS) * CHANGE_BUCKET_MS - 2 * CHANGE_BUCKET_MS);
    // Written in an order other than the ids', with equal updated_at within a bucket.
    const ids = Array.from({ length: 15 }, (_, k) => 1_000 + ((k * 7) % 15));
    for (const [k, id] of ids.entries()) await store.issues.insertMany([issue(id)], new Date(start.getTime() + (k < 10 ? 0 : CHANGE_BUCKET_MS + k)));

    const seen: StoredIssue[] = [];
    let after: { updated_at: Date; _id: number } | undefined;
    for (;;) {
      const page = await store.issues.changedSince(start, PAGE, after);
      seen.push(...page);
      const last = page.at(-1);
      if (!last || page.length < PAGE) break;
      after = { updated_at: last.updated_at, _id: last._id };
    }

    const ours = seen.filter((doc) => doc._id >= 1_000);
    const key = (doc: StoredIssue) => [new Date(doc.updated_at).getTime(), doc._id] as const;
    expect(ours.map((doc) => doc._id).sort()).toEqual([...ids].sort());
    expect(ours.map(key)).toEqual([...ours].sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1]).map(key));
  });
});
