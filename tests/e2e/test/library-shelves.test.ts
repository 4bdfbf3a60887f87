// Library shelves, the shelf filter, the X-AppBase-Version switch and
// favorites, end to end against ./dev up with the demo dataset.
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, clientIp, loginByEmail, type Tokens } from './client.js';
import { sharedLogin } from './reader-helpers.js';

type Section = Record<string, any>;

const NORTHWIND_SHELVES = ['continue_reading', 'latest_issues', 'fiction', 'nonfiction', 'magazines', 'audio'];

describe('library shelves (running stack)', () => {
  let ana: Tokens;
  const ip = clientIp();
  const get = (path: string, headers: Record<string, string> = {}, token = ana.access_token) =>
    api('GET', path, { token, headers: { ...ip, 'x-svc-tenant-id': '1', ...headers } });

  /** Every shelf of every page, in order. */
  async function allShelves(query: string, headers: Record<string, string> = {}): Promise<Section[]> {
    const shelves: Section[] = [];
    for (let page = 1; ; page++) {
      const response = await get(`/api/v2/library?page=${page}${query}`, headers);
      expect(response.status, response.text).toBe(200);
      shelves.push(...response.body.data);
      if (page >= response.body.meta.last_page) return shelves;
    }
  }

  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
  });

  it('when ana opens the library, then shelves come paged: continue reading, latest issues, then one per collection', async () => {
    const first = await get('/api/v2/library');
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['meta', 'data']);
    // Four shelves per page, six shelves in Northwind.
    expect(first.body.meta).toEqual({ current_page: 1, from: 1, to: 4, last_page: 2, per_page: 4, total: 6 });
    const second = await get('/api/v2/library?page=2');
    expect(second.body.meta).toEqual({ current_page: 2, from: 5, to: 6, last_page: 2, per_page: 4, total: 6 });
    const shelves = [...first.body.data, ...second.body.data];
    expect(shelves.map((shelf: Section) => shelf.filter_value)).toEqual(NORTHWIND_SHELVES);
    for (const shelf of shelves) {
      expect(Object.keys(shelf)).toEqual(['filter_name', 'filter_value', 'title', 'data']);
      expect(shelf.filter_name).toBe('section');
    }
    const beyond = await get('/api/v2/library?page=3');
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta).toMatchObject({ current_page: 3, from: null, to: null, total: 6 });
  });

  it('when a shelf has nothing ana can read, then it keeps its place with empty data', async () => {
    const shelves = await allShelves('');
    const byName = new Map(shelves.map((shelf) => [shelf.filter_value, shelf.data.map((issue: { id: number }) => issue.id)]));
    expect(byName.get('latest_issues')).toEqual([1009, 1005, 1001, 1003]);
    expect(byName.get('fiction')).toEqual([1009, 1001]);
    // 1006 (revoked) and 1008 (pay-per-use, unowned) are all of non-fiction; 1002 and 1007 of the magazines.
    expect(byName.get('nonfiction')).toEqual([]);
    expect(byName.get('magazines')).toEqual([]);
    expect(byName.get('audio')).toEqual([1003]);
  });

  it.each([
    ['es', ['Continuar leyendo', 'Últimas publicaciones', 'Ficción', 'No ficción', 'Revistas', 'Audiolibros']],
    ['pt', ['Continuar lendo', 'Últimas publicações', 'Ficção', 'Não ficção', 'Revistas', 'Audiolivros']],
    ['it', ['Continua a leggere', 'Ultime pubblicazioni', 'Narrativa', 'Saggistica', 'Riviste', 'Audiolibri']],
    ['en', ['Continue reading', 'Latest issues', 'Fiction', 'Non-fiction', 'Magazines', 'Audiobooks']],
  ])('when X-App-Lang is %s, then shelf titles (collections included) are localized', async (lang, titles) => {
    const shelves = await allShelves('', { 'x-app-lang': lang });
    expect(shelves.map((shelf) => shelf.title)).toEqual(titles);
  });

  it('when per_page is given, then it limits the items of every shelf', async () => {
    const response = await get('/api/v2/library?per_page=1&scope=all');
    expect(response.status).toBe(200);
    expect(response.body.meta.per_page).toBe(4);
    const latest = response.body.data.find((shelf: Section) => shelf.filter_value === 'latest_issues');
    expect(latest.data.map((issue: { id: number }) => issue.id)).toEqual([1009]);
    for (const shelf of response.body.data) expect(shelf.data.length).toBeLessThanOrEqual(1);
  });

  it('when paging values are out of range, then 422 names each', async () => {
    const response = await get('/api/v2/library?page=0&per_page=101');
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors).sort()).toEqual(['page', 'per_page']);
  });

  it('when Editorial Sur is opened, then its own collections come as shelves', async () => {
    const response = await get('/api/v2/library', { 'x-svc-tenant-id': '2', 'x-app-lang': 'pt' });
    expect(response.status).toBe(200);
    expect(response.body.data.map((shelf: Section) => [shelf.filter_value, shelf.title])).toEqual([
      ['continue_reading', 'Continuar lendo'],
      ['latest_issues', 'Últimas publicações'],
      ['novelas', 'Romances'],
      ['revistas', 'Revistas'],
    ]);
  });
});

describe('library filter (running stack)', () => {
  let ana: Tokens;
  const ip = clientIp();
  const get = (path: string, headers: Record<string, string> = {}) =>
    api('GET', path, { token: ana.access_token, headers: { ...ip, 'x-svc-tenant-id': '1', ...headers } });

  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
  });

  it('when latest_issues is filtered, then one section with full page meta, newest first', async () => {
    const response = await get('/api/v2/library/filter?section=latest_issues&scope=all');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['filter_name', 'filter_value', 'title', 'data', 'meta']);
    expect(response.body).toMatchObject({ filter_name: 'section', filter_value: 'latest_issues', title: 'Latest issues' });
    expect(response.body.meta).toEqual({ current_page: 1, from: 1, to: 7, last_page: 1, per_page: 8, total: 7 });
    const published = response.body.data.map((issue: { published_at: string }) => issue.published_at);
    expect(published).toEqual([...published].sort().reverse());
  });

  it('when the filter is paged, then pages follow each other without gaps and the meta says where they are', async () => {
    const ids: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const response = await get(`/api/v2/library/filter?section=latest_issues&scope=all&per_page=3&page=${page}`);
      expect(response.status).toBe(200);
      const expectedTo = Math.min(page * 3, 7);
      expect(response.body.meta).toEqual({ current_page: page, from: (page - 1) * 3 + 1, to: expectedTo, last_page: 3, per_page: 3, total: 7 });
      ids.push(...response.body.data.map((issue: { id: number }) => issue.id));
    }
    expect(ids).toEqual([1009, 1002, 1005, 1001, 1003, 1006, 1008]);
    const past = await get('/api/v2/library/filter?section=latest_issues&scope=all&per_page=3&page=4');
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toEqual({ current_page: 4, from: null, to: null, last_page: 3, per_page: 3, total: 7 });
  });

  it.each([
    ['fiction', 'owned', [1009, 1001]],
    ['fiction', 'all', [1009, 1001]],
    ['nonfiction', 'owned', []],
    ['nonfiction', 'all', [1006, 1008]],
    ['magazines', 'all', [1002]],
    ['audio', 'owned', [1003]],
  ])('when the collection %s is filtered with scope=%s, then its issues', async (section, scope, ids) => {
    const response = await get(`/api/v2/library/filter?section=${section}&scope=${scope}`);
    expect(response.status).toBe(200);
    expect(response.body.filter_value).toBe(section);
    expect(response.body.data.map((issue: { id: number }) => issue.id)).toEqual(ids);
    expect(response.body.meta).toMatchObject({ total: ids.length, from: ids.length ? 1 : null, to: ids.length || null, last_page: 1 });
  });

  it('when continue_reading is filtered, then it is a section like the others, localized', async () => {
    const response = await get('/api/v2/library/filter?section=continue_reading', { 'x-app-lang': 'it' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ filter_name: 'section', filter_value: 'continue_reading', title: 'Continua a leggere' });
    expect(response.body.meta).toMatchObject({ current_page: 1, per_page: 8 });
  });

  it('when the section is unknown, then 404', async () => {
    const response = await get('/api/v2/library/filter?section=poetry');
    expect(response.status).toBe(404);
    expect(response.body.message).toEqual(expect.any(String));
  });

  it('when the filter is missing, has another name, or comes twice, then 422 names the key', async () => {
    const missing = await get('/api/v2/library/filter');
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toHaveProperty('section');
    const other = await get('/api/v2/library/filter?author=mara');
    expect(other.status).toBe(422);
    expect(other.body.errors).toHaveProperty('author');
    const two = await get('/api/v2/library/filter?section=fiction&collection=audio');
    expect(two.status).toBe(422);
    expect(Object.keys(two.body.errors).sort()).toEqual(['collection', 'section']);
    const repeated = await get('/api/v2/library/filter?section=fiction&section=audio');
    expect(repeated.status).toBe(422);
    expect(repeated.body.errors).toHaveProperty('section');
  });
});

describe('X-AppBase-Version selects the filter keys of library sections (running stack)', () => {
  let ana: Tokens;
  const ip = clientIp();
  const get = (path: string, version?: string) =>
    api('GET', path, { token: ana.access_token, headers: { ...ip, 'x-svc-tenant-id': '1', ...(version && { 'x-appbase-version': version }) } });

  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
  });

  it.each(['1.28.0', '1.28', '1.30.2', '2.0.0', 'v1.28.0'])('when the version is %s (>= 1.28.0), then sections carry filter_params only', async (version) => {
    const library = await get('/api/v2/library', version);
    expect(library.status).toBe(200);
    expect(library.body.data.map((shelf: Section) => Object.keys(shelf))).toEqual(library.body.data.map(() => ['filter_params', 'title', 'data']));
    expect(library.body.data.map((shelf: Section) => shelf.filter_params)).toEqual([
      'section=continue_reading',
      'section=latest_issues',
      'section=fiction',
      'section=nonfiction',
    ]);
    const filter = await get('/api/v2/library/filter?section=latest_issues', version);
    expect(Object.keys(filter.body)).toEqual(['filter_params', 'title', 'data', 'meta']);
    expect(filter.body.filter_params).toBe('section=latest_issues');
  });

  it.each([['1.9.0'], ['1.27.9'], ['0.99'], ['1.28.0-beta'], [undefined]])(
    'when the version is %s (older, compared numerically, a pre-release of 1.28.0, or absent), then sections carry filter_name and filter_value',
    async (version) => {
      const library = await get('/api/v2/library', version);
      expect(library.status).toBe(200);
      for (const shelf of library.body.data) {
        expect(Object.keys(shelf)).toEqual(['filter_name', 'filter_value', 'title', 'data']);
      }
      const filter = await get('/api/v2/library/filter?section=latest_issues', version);
      expect(filter.body).toMatchObject({ filter_name: 'section', filter_value: 'latest_issues' });
      expect(filter.body).not.toHaveProperty('filter_params');
    },
  );

  it('when a filter_params value is sent back as the query string, then it selects the same shelf', async () => {
    const library = await get('/api/v2/library', '1.28.0');
    const fiction = library.body.data.find((shelf: Section) => shelf.filter_params === 'section=fiction');
    const filter = await get(`/api/v2/library/filter?${fiction.filter_params}`, '1.28.0');
    expect(filter.status).toBe(200);
    expect(filter.body.data).toEqual(fiction.data);
  });

  it('when search sections are asked with a new version, then they still carry the pair', async () => {
    const search = await get('/api/v2/search/store?query=atlas', '1.28.0');
    expect(search.status).toBe(200);
    expect(search.body).toMatchObject({ filter_name: 'search', filter_value: 'atlas' });
    expect(search.body).not.toHaveProperty('filter_params');
  });
});

describe('favorites (running stack)', () => {
  let reader: Tokens;
  const ip = clientIp();
  const call = (method: 'GET' | 'POST', issueId: number, tenantId = 1, token = reader.access_token) =>
    api(method, `/api/v2/library/${issueId}/favorite-issues`, { token, headers: { ...ip, 'x-svc-tenant-id': String(tenantId) } });

  beforeAll(async () => {
    reader = await loginByEmail(uniqueEmail('favorites'));
  });

  it('when a reader toggles a favorite, then GET false, POST true, GET true, POST false, GET false', async () => {
    const states: [number, unknown][] = [];
    for (const method of ['GET', 'POST', 'GET', 'POST', 'GET'] as const) {
      const response = await call(method, 1002);
      states.push([response.status, response.body]);
    }
    expect(states).toEqual([
      [200, { is_favorite: false }],
      [200, { is_favorite: true }],
      [200, { is_favorite: true }],
      [200, { is_favorite: false }],
      [200, { is_favorite: false }],
    ]);
  });

  it('when one reader marks a favorite, then another reader does not see it', async () => {
    const other = await loginByEmail(uniqueEmail('favorites-other'));
    expect((await call('POST', 1009)).body).toEqual({ is_favorite: true });
    expect((await call('GET', 1009, 1, other.access_token)).body).toEqual({ is_favorite: false });
    expect((await call('GET', 1009)).body).toEqual({ is_favorite: true });
  });

  it('when a member of Editorial Sur sets a favorite there, then it is per tenant', async () => {
    const surReader = await loginByEmail(uniqueEmail('favorites-sur'), { appTenantId: 2 });
    expect((await call('POST', 2004, 2, surReader.access_token)).body).toEqual({ is_favorite: true });
    expect((await call('GET', 2004, 2, surReader.access_token)).body).toEqual({ is_favorite: true });
    expect((await call('GET', 2004, 2)).body).toEqual({ is_favorite: false });
  });

  it('when the reader is not a member of the store, then toggling a favorite there is 403 and changes nothing', async () => {
    const refused = await call('POST', 2004, 2);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: expect.any(String) });
    expect((await call('GET', 2004, 2)).body).toEqual({ is_favorite: false });
  });

  it('when the issue is not in the tenant of X-Svc-Tenant-Id, then 404', async () => {
    expect((await call('GET', 2004, 1)).status).toBe(404);
    expect((await call('POST', 2004, 1)).status).toBe(404);
    expect((await call('GET', 999_999)).status).toBe(404);
  });

  it('when the issue id is not a positive integer, then 422', async () => {
    const response = await api('POST', '/api/v2/library/abc/favorite-issues', { token: reader.access_token, headers: { ...ip, 'x-svc-tenant-id': '1' } });
    expect(response.status).toBe(422);
    expect(response.body.errors).toHaveProperty('issue_id');
  });
});
