// GET /api/v2/user/my-content and /user/continue-reading, as the gateway calls them.
import { catalog } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANA, BRUNO, CARLA } from './support/dataset.js';
import { idsOf, startTestCatalog, type TestCatalog } from './support/harness.js';

describe('my content', () => {
  let t: TestCatalog;
  const list = (userId: number, tenantIds: number[], perPage = 0, cursor = '') => t.client.listMyContent({ tenantIds, userId, perPage, cursor });

  beforeAll(async () => {
    t = await startTestCatalog({ reader: true });
  });
  afterAll(() => t?.stop());

  it('when ana lists her content, then it holds every readable issue of her tenants, newest first, without physical items or commerce fields', async () => {
    const { section, meta } = await list(ANA, [1, 2], 100);
    // Tenant 1: 1009 (gift), 1001 (purchase), 1003 (free); 1005 is physical, 1006 revoked.
    // Tenant 2: everything, through her plan (including the subscription-only 2005).
    expect(idsOf(section)).toEqual([1009, 1001, 2002, 2001, 1003, 2005, 2003, 2004]);
    expect(section).toMatchObject({ kind: catalog.SectionKind.SECTION_KIND_MY_CONTENT, filter: { name: 'section', value: 'my_content' }, meta: undefined });
    expect(section!.data.every((item) => item.commerce === undefined && item.tenantId > 0)).toBe(true);
    expect(meta).toEqual({ perPage: 100, nextCursor: undefined, prevCursor: undefined });
  });

  it('when no per_page is given, then pages hold 6 items', async () => {
    const { section, meta } = await list(ANA, [1, 2]);
    expect(section!.data).toHaveLength(6);
    expect(meta!.perPage).toBe(6);
    expect(meta!.prevCursor).toBeUndefined();
    expect(meta!.nextCursor).toEqual(expect.any(String));
  });

  it('when ana walks the cursors forward and back, then every item comes once and prev leads back', async () => {
    const first = await list(ANA, [1, 2], 3);
    const second = await list(ANA, [1, 2], 3, first.meta!.nextCursor!);
    const third = await list(ANA, [1, 2], 3, second.meta!.nextCursor!);

    expect(idsOf(first.section)).toEqual([1009, 1001, 2002]);
    expect(idsOf(second.section)).toEqual([2001, 1003, 2005]);
    expect(idsOf(third.section)).toEqual([2003, 2004]);
    expect(first.meta!.prevCursor).toBeUndefined();
    expect(second.meta!.prevCursor).toEqual(expect.any(String));
    expect(third.meta!.nextCursor).toBeUndefined();

    const back = await list(ANA, [1, 2], 3, third.meta!.prevCursor!);
    expect(idsOf(back.section)).toEqual([2001, 1003, 2005]);
    const backToStart = await list(ANA, [1, 2], 3, back.meta!.prevCursor!);
    expect(idsOf(backToStart.section)).toEqual([1009, 1001, 2002]);
    expect(backToStart.meta!.prevCursor).toBeUndefined();
    expect(backToStart.meta!.nextCursor).toEqual(expect.any(String));
  });

  it('when a cursor is tampered with, then it is INVALID_ARGUMENT on cursor', async () => {
    const { meta } = await list(ANA, [1, 2], 3);
    const cursor = meta!.nextCursor!;
    const [body, signature] = cursor.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), t: 0 })).toString('base64url');
    for (const bad of [`${forgedBody}.${signature}`, `${body}.${signature!.slice(1)}x`, 'garbage', `${cursor}.extra`]) {
      await expect(list(ANA, [1, 2], 3, bad)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { fieldErrors: { cursor: expect.any(Array) } } });
    }
  });

  it("when a user replays another user's cursor, then it is INVALID_ARGUMENT on cursor", async () => {
    const { meta } = await list(ANA, [1, 2], 3);
    await expect(list(BRUNO, [1], 3, meta!.nextCursor!)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('when per_page is outside 1-100, then it is INVALID_ARGUMENT on per_page', async () => {
    await expect(list(ANA, [1, 2], 101)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { fieldErrors: { per_page: expect.any(Array) } } });
    await expect(list(ANA, [1, 2], -1)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('when carla owns one issue and one is free, then both are her content', async () => {
    expect(idsOf((await list(CARLA, [3])).section)).toEqual([3002, 3001]);
  });

  it("when bruno's plan covers one issue, then it is in his content next to his grants", async () => {
    // 1007 (admin grant), 1001 (purchase), 1004 (plan), 1003 (free).
    expect(idsOf((await list(BRUNO, [1])).section)).toEqual([1001, 1007, 1004, 1003]);
  });

  it('when reader has positions, then continue reading renders them across tenants, most recent first, with page meta', async () => {
    t.reader!.positions.set(ANA, [
      { tenantId: 2, issueId: 2004, readAt: '2026-05-03T10:00:00Z' },
      { tenantId: 1, issueId: 1009, readAt: '2026-05-02T10:00:00Z' },
      { tenantId: 1, issueId: 1001, readAt: '2026-05-01T10:00:00Z' },
    ]);
    const page1 = await t.client.listContinueReading({ tenantIds: [1, 2], userId: ANA, page: 0, perPage: 2 });
    expect(page1.section).toMatchObject({ kind: catalog.SectionKind.SECTION_KIND_CONTINUE_READING, filter: { name: 'section', value: 'continue_reading' } });
    expect(page1.section!.data.map((item) => [item.id, item.tenantId])).toEqual([
      [2004, 2],
      [1009, 1],
    ]);
    expect(page1.section!.meta).toEqual({ currentPage: 1, from: 1, to: 2, lastPage: 2, perPage: 2, total: 3 });
    const page2 = await t.client.listContinueReading({ tenantIds: [1, 2], userId: ANA, page: 2, perPage: 2 });
    expect(idsOf(page2.section)).toEqual([1001]);
  });
});
