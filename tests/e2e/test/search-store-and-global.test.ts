// Store search (one tenant, scope honored) and global search (the user's
// tenants, tenant_id on each item, never commerce fields), end to end against
// ./dev up: normalization and accents, prefixes, ranking, the empty shape,
// the 2-128 bounds and the storefront_search flag (204).
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, clientIp, loginByEmail, type Tokens } from './client.js';
import { COMMERCE_KEYS, ISSUE_SUMMARY_KEYS } from './issue-summary.js';
import { sharedLogin } from './reader-helpers.js';

type Item = { id: number; tenant_id: number } & Record<string, any>;

describe('store search (running stack)', () => {
  let ana: Tokens;
  const ip = clientIp();
  const search = (query: string, { tenantId = 1, extra = '', lang }: { tenantId?: number; extra?: string; lang?: string } = {}, token = ana.access_token) =>
    api('GET', `/api/v2/search/store?query=${encodeURIComponent(query)}${extra}`, {
      token,
      headers: { ...ip, 'x-svc-tenant-id': String(tenantId), ...(lang && { 'x-app-lang': lang }) },
    });
  const ids = (response: { body: { data: Item[] } }) => response.body.data.map((item) => item.id);

  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
  });

  it('when ana searches her store, then a search section with page meta and plain issue summaries', async () => {
    const response = await search('lighthouse');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['filter_name', 'filter_value', 'title', 'data', 'meta']);
    expect(response.body).toMatchObject({ filter_name: 'search', filter_value: 'lighthouse', title: 'Search results' });
    // The EPUB and her hardcover; the EPUB also has it in its keywords and description.
    expect(ids(response)).toEqual([1001, 1005]);
    for (const item of response.body.data) expect(Object.keys(item)).toEqual(ISSUE_SUMMARY_KEYS);
    expect(response.body.meta).toEqual({ current_page: 1, from: 1, to: 2, last_page: 1, per_page: 8, total: 2 });
  });

  it('when she types "cafe" in Editorial Sur, then "Café con Letras" is found (accent-insensitive)', async () => {
    for (const query of ['cafe', 'Café', 'CAFÉ', 'Cafe\u0301']) {
      const response = await search(query, { tenantId: 2 });
      expect(response.status, query).toBe(200);
      expect(ids(response), query).toEqual([2004]);
      expect(response.body.data[0].name).toBe('Café con Letras');
    }
  });

  it('when the query arrives decomposed (NFD), then it is NFC-normalized: filter_value is the composed text', async () => {
    const decomposed = 'Cro\u0301nicas';
    expect(decomposed).not.toBe(decomposed.normalize('NFC'));
    const response = await search(decomposed, { tenantId: 2 });
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual([2001]);
    expect(response.body.data[0].name).toBe('Crónicas del Río');
    expect(response.body.filter_value).toBe('Crónicas'.normalize('NFC'));
    // And without any accent.
    expect(ids(await search('cronicas del rio', { tenantId: 2 }))[0]).toBe(2001);
  });

  it('when the last word is a prefix, then it matches', async () => {
    expect(ids(await search('lightho'))).toEqual([1001, 1005]);
    expect(ids(await search('balc', { extra: '&scope=all' }))).toEqual([1006]);
    expect(ids(await search('ferr', { tenantId: 2 }))).toEqual(expect.arrayContaining([2001, 2003]));
  });

  it('when results tie on recency, then relevance ranks them: a title and keyword match beats a title match', async () => {
    // 1001 and 1005 were published at the same instant; "atlas" is in 1001's title, keywords and description.
    expect(ids(await search('atlas', { extra: '&scope=all' }))).toEqual([1001, 1005]);
  });

  it('when more query words match, then the issue ranks higher than a newer one matching fewer', async () => {
    // "sea" and "Ellison" both match 1001 and 1003; 1009 (newest) and 1005 only match "Ellison".
    const found = ids(await search('sea ellison', { extra: '&scope=all' }));
    expect(found.slice(0, 2).sort()).toEqual([1001, 1003]);
    expect(found.slice(2)).toEqual([1009, 1005]);
  });

  it('when author, publisher or description match, then the issue is found', async () => {
    expect(ids(await search('Theo Brandt', { extra: '&scope=all' }))).toEqual([1006]);
    expect(ids(await search('Northwind Audio'))[0]).toBe(1003);
    expect(ids(await search('coastlines'))).toEqual([1001]);
  });

  it('when scope=all, then unowned issues come too, with the commerce fields', async () => {
    const owned = await search('harbor');
    expect(ids(owned)).toEqual([]);
    const all = await search('harbor', { extra: '&scope=all', lang: 'es' });
    expect(all.status).toBe(200);
    // 1007 has no price: not individually acquirable, so not in the storefront.
    expect(ids(all)).toEqual([1002]);
    expect(Object.keys(all.body.data[0])).toEqual([...ISSUE_SUMMARY_KEYS, ...COMMERCE_KEYS]);
    expect(all.body.data[0]).toMatchObject({
      can_be_bought: true,
      prices: [{ currency: 'USD', amount: 4.99, discount: { amount: 2.49, percentage: 50 } }],
      purchase_link: 'http://northwind.localhost:8080/app/purchase/1002',
      status: 'Adquirir',
    });
    expect(all.body.title).toBe('Resultados de búsqueda');
  });

  it('when nothing matches, then empty data, from/to null, last_page 1, total 0', async () => {
    const response = await search('zyxwvut');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      filter_name: 'search',
      filter_value: 'zyxwvut',
      title: 'Search results',
      data: [],
      meta: { current_page: 1, from: null, to: null, last_page: 1, per_page: 8, total: 0 },
    });
  });

  it('when the query has 1 or 129 characters, is blank or missing, then 422 on query', async () => {
    for (const query of ['a', ' a ', 'x'.repeat(129)]) {
      const response = await search(query);
      expect(response.status, query).toBe(422);
      expect(Object.keys(response.body.errors)).toEqual(['query']);
    }
    const missing = await api('GET', '/api/v2/search/store', { token: ana.access_token, headers: { ...ip, 'x-svc-tenant-id': '1' } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.query).toEqual(['The query field is required.']);
  });

  it('when the query has 2 or 128 characters (counted after NFC), then it is accepted', async () => {
    expect((await search('ab')).status).toBe(200);
    expect((await search('x'.repeat(128))).status).toBe(200);
    // 128 accented letters sent decomposed are 256 code units but 128 characters once composed.
    expect((await search('e\u0301'.repeat(128))).status).toBe(200);
  });

  it('when the tenant has storefront_search off (Livraria Atlântica), then 204 with no body', async () => {
    const reader = await loginByEmail(uniqueEmail('search-off'));
    for (const query of ['mar', 'livraria']) {
      const response = await search(query, { tenantId: 3 }, reader.access_token);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
    }
    const carla = await sharedLogin('carla@example.com');
    const own = await search('mar', { tenantId: 3, extra: '&scope=all' }, carla.access_token);
    expect(own.status).toBe(204);
    expect(own.text).toBe('');
  });
});

describe('global search (running stack)', () => {
  let ana: Tokens;
  const ip = clientIp();
  const search = (query: string, headers: Record<string, string> = {}, token = ana.access_token) =>
    api('GET', `/api/v2/search/global?query=${encodeURIComponent(query)}`, { token, headers: { ...ip, ...headers } });

  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
  });

  it('when ana searches everywhere, then what she can read in both of her tenants comes in one ranking, each with tenant_id', async () => {
    // Mara Ellison writes in Northwind, Lucía Ferreyra in Editorial Sur.
    const response = await search('mara lucia');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ filter_name: 'search', filter_value: 'mara lucia', title: 'Search results' });
    const found = (response.body.data as Item[]).map((item) => [item.tenant_id, item.id]);
    expect(found).toEqual(
      expect.arrayContaining([
        [1, 1001],
        [1, 1009],
        [2, 2001],
        [2, 2003],
      ]),
    );
    expect(new Set(found.map(([tenantId]) => tenantId))).toEqual(new Set([1, 2]));
    for (const item of response.body.data as Item[]) expect(Object.keys(item)).toEqual(ISSUE_SUMMARY_KEYS);
    expect(response.body.meta).toMatchObject({ current_page: 1, per_page: 8 });
  });

  it('when scope=all is sent, then it is ignored: still no commerce fields and only readable issues', async () => {
    const response = await api('GET', '/api/v2/search/global?query=harbor&scope=all', { token: ana.access_token, headers: ip });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    const atlas = await api('GET', '/api/v2/search/global?query=atlas&scope=all', { token: ana.access_token, headers: ip });
    expect(atlas.body.data.map((item: Item) => item.id)).toEqual(expect.arrayContaining([1001]));
    for (const item of atlas.body.data as Item[]) expect(item).not.toHaveProperty('can_be_read');
  });

  it('when the query is accent-free, then accented titles of either tenant are found', async () => {
    const response = await search('cafe');
    expect(response.body.data.map((item: Item) => [item.tenant_id, item.id])).toEqual([[2, 2004]]);
  });

  it('when a new reader searches, then only their tenant and what they can read', async () => {
    const reader = await loginByEmail(uniqueEmail('global'));
    const response = await search('mara', {}, reader.access_token);
    expect(response.status).toBe(200);
    // Only the free audiobook of Northwind.
    expect(response.body.data.map((item: Item) => [item.tenant_id, item.id])).toEqual([[1, 1003]]);
  });

  it('when the app tenant (X-CustomApp-Tenant-Id 3) has storefront_search off, then 204 with no body', async () => {
    const response = await search('mara', { 'x-customapp-tenant-id': '3' });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await search('mara', { 'x-customapp-tenant-id': '2' })).status).toBe(200);
  });

  it('when nothing matches, then the empty shape', async () => {
    const response = await search('zyxwvut');
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toEqual({ current_page: 1, from: null, to: null, last_page: 1, per_page: 8, total: 0 });
  });

  it('when the query is out of bounds, X-CustomApp-Tenant-Id is malformed or X-Svc-Tenant-Id is sent, then 422 or 412', async () => {
    expect((await search('a')).status).toBe(422);
    expect((await search('x'.repeat(129))).status).toBe(422);
    const badApp = await search('mara', { 'x-customapp-tenant-id': 'three' });
    expect(badApp.status).toBe(422);
    expect(badApp.body.errors).toHaveProperty('X-CustomApp-Tenant-Id');
    expect((await search('mara', { 'x-svc-tenant-id': '1' })).status).toBe(412);
  });
});
