// My content end to end against ./dev up: every publication ana can read
// across her tenants (purchases, the gift, the subscription of Editorial Sur,
// the free audiobook), without physical, revoked or uncovered items, never
// with commerce fields; and the opaque cursor walked both ways.
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, clientIp, loginByEmail, type Tokens } from './client.js';
import { ISSUE_SUMMARY_KEYS } from './issue-summary.js';
import { sharedLogin } from './reader-helpers.js';

type Item = { id: number; tenant_id: number; published_at: string } & Record<string, unknown>;
interface Page {
  filter_name: string;
  filter_value: string;
  title: string;
  data: Item[];
  meta: { per_page: number; next_cursor: string | null; prev_cursor: string | null };
  /** On 422. */
  message?: string;
  errors?: Record<string, string[]>;
}

describe('my content (running stack)', () => {
  let ana: Tokens;
  const ip = clientIp();
  const myContent = (query = '', token = ana.access_token, headers: Record<string, string> = {}) =>
    api<Page>('GET', `/api/v2/user/my-content${query}`, { token, headers: { ...ip, ...headers } });
  const cursorQuery = (perPage: number, cursor: string | null) => `?per_page=${perPage}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  let everything: Item[];

  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
    const response = await myContent('?per_page=100');
    expect(response.status, response.text).toBe(200);
    everything = response.body.data;
  });

  it('when ana lists her content, then a my_content section with cursor meta, 6 per page by default', async () => {
    const response = await myContent();
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['filter_name', 'filter_value', 'title', 'data', 'meta']);
    expect(response.body).toMatchObject({ filter_name: 'section', filter_value: 'my_content', title: 'My content' });
    expect(response.body.data).toHaveLength(6);
    expect(response.body.meta).toEqual({ per_page: 6, next_cursor: expect.any(String), prev_cursor: null });
  });

  it('when she owns, was given, subscribes to or gets free content, then it is all there, across both tenants', () => {
    const mine = everything.filter((item) => item.tenant_id === 1 || item.tenant_id === 2).map((item) => item.id);
    // Northwind: purchased 1001, gift 1009, free 1003. Editorial Sur: the plan covers every issue, 2005 (subscription-only) included.
    expect(mine.sort()).toEqual([1001, 1003, 1009, 2001, 2002, 2003, 2004, 2005]);
  });

  it('when an item is physical (1005), revoked (1006) or subscription-only without a plan (1004), then it is left out', () => {
    const ids = everything.map((item) => item.id);
    for (const excluded of [1005, 1006, 1004, 1002, 1007, 1008]) expect(ids).not.toContain(excluded);
  });

  it('when items are listed, then newest first with every issue-summary field and never commerce fields', () => {
    for (const item of everything) expect(Object.keys(item)).toEqual(ISSUE_SUMMARY_KEYS);
    const keys = everything.map((item) => `${item.published_at}#${String(item.id).padStart(10, '0')}`);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(everything.find((item) => item.id === 2003)).toMatchObject({ tenant_id: 2, type: 'audio', number_of_pages: null });
  });

  it('when scope=all is sent, then it is ignored', async () => {
    const response = await myContent('?per_page=100&scope=all');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(everything);
  });

  it.each([1, 2, 3])('when walked with per_page %i, then next visits every item exactly once and prev walks back', async (perPage) => {
    const pages: Item[][] = [];
    let cursor: string | null = null;
    let last: Page | undefined;
    do {
      const response = await myContent(cursorQuery(perPage, cursor));
      expect(response.status, response.text).toBe(200);
      const page: Page = response.body;
      expect(page.meta.per_page).toBe(perPage);
      expect(page.data.length).toBeGreaterThan(0);
      expect(page.data.length).toBeLessThanOrEqual(perPage);
      if (pages.length === 0) expect(page.meta.prev_cursor).toBeNull();
      else expect(page.meta.prev_cursor).toEqual(expect.any(String));
      pages.push(page.data);
      cursor = page.meta.next_cursor;
      last = page;
      expect(pages.length).toBeLessThanOrEqual(everything.length);
    } while (cursor);
    const visited = pages.flat().map((item) => item.id);
    expect(visited).toEqual(everything.map((item) => item.id));
    expect(new Set(visited).size).toBe(visited.length);
    expect(pages.length).toBe(Math.ceil(everything.length / perPage));

    // Back from the last page: each prev page is the page before it, until the first (prev_cursor null).
    const back: Item[][] = [];
    let prev = last!.meta.prev_cursor;
    while (prev) {
      const response = await myContent(cursorQuery(perPage, prev));
      expect(response.status, response.text).toBe(200);
      back.unshift(response.body.data);
      expect(response.body.meta.next_cursor).toEqual(expect.any(String));
      prev = response.body.meta.prev_cursor;
    }
    expect(back).toEqual(pages.slice(0, -1));
  });

  it('when a cursor is tampered with, then 422 on cursor', async () => {
    const first = await myContent('?per_page=2');
    const cursor = first.body.meta.next_cursor!;
    const flipped = cursor.slice(0, -2) + (cursor.at(-2) === 'A' ? 'B' : 'A') + cursor.at(-1);
    for (const bad of [flipped, `x${cursor}`, 'not-a-cursor', cursor.split('.')[0]!]) {
      const response = await myContent(cursorQuery(2, bad));
      expect(response.status, bad).toBe(422);
      expect(response.body).toMatchObject({ errors: { cursor: [expect.any(String)] } });
    }
  });

  it("when another user's cursor is sent, then 422 (cursors are bound to their user)", async () => {
    const other = await loginByEmail(uniqueEmail('my-content-other'));
    const theirs = await myContent('?per_page=1', other.access_token);
    expect(theirs.status).toBe(200);
    const mine = await myContent('?per_page=1');
    const response = await myContent(cursorQuery(1, mine.body.meta.next_cursor), other.access_token);
    expect(response.status).toBe(422);
    expect(response.body.errors).toHaveProperty('cursor');
  });

  it('when per_page is 0, 101 or not a number, then 422 on per_page', async () => {
    for (const perPage of ['0', '101', 'six']) {
      const response = await myContent(`?per_page=${perPage}`);
      expect(response.status, perPage).toBe(422);
      expect(Object.keys(response.body.errors ?? {})).toEqual(['per_page']);
    }
    expect((await myContent('?per_page=1')).status).toBe(200);
    expect((await myContent('?per_page=100')).status).toBe(200);
  });

  it('when a new reader lists their content, then only the free audiobook of their tenant', async () => {
    const reader = await loginByEmail(uniqueEmail('my-content'));
    const response = await myContent('', reader.access_token, { 'x-app-lang': 'pt' });
    expect(response.status).toBe(200);
    expect(response.body.title).toBe('Meu conteúdo');
    expect(response.body.data.map((item) => item.id)).toEqual([1003]);
    expect(response.body.meta).toEqual({ per_page: 6, next_cursor: null, prev_cursor: null });
  });

  it('when X-Svc-Tenant-Id is sent, then 412 (multi-tenant endpoint)', async () => {
    expect((await myContent('', ana.access_token, { 'x-svc-tenant-id': '1' })).status).toBe(412);
  });
});
