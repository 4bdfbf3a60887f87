// Short queries in scripts written without spaces (running stack): one
// character can be a word there, so store search takes 1 character (2
// elsewhere) and in-issue search 1 (4 elsewhere). Finding a word inside a
// sentence is pinned by catalog's and reader's own tests (the demo data has
// no Chinese or Japanese text).
import { beforeAll, describe, expect, it } from 'vitest';
import { clientIp, sharedLogin, type Tokens } from './client.js';
import { api, session, v2, type ReaderSessionBody } from './reader-helpers.js';

describe('short Chinese and Japanese queries (running stack)', () => {
  let ana: Tokens;
  let epub: ReaderSessionBody;
  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
    epub = await session(ana.access_token, 1, 1001);
  });

  const store = (query: string) =>
    api('GET', `/api/v2/search/store?query=${encodeURIComponent(query)}`, { token: ana.access_token, headers: { ...clientIp(), 'x-svc-tenant-id': '1' } });
  const inIssue = (search: string) =>
    api('GET', `/api/v2/reader/issue-text-content?search=${encodeURIComponent(search)}`, { token: ana.access_token, headers: v2(1, epub.token) });

  it('when the store is searched for one or two Han characters, then it answers, while one Latin letter is still 422', async () => {
    for (const query of ['都', '東京']) {
      const response = await store(query);
      expect({ query, status: response.status }).toEqual({ query, status: 200 });
      expect(response.body.data).toEqual(expect.any(Array));
    }
    expect((await store('a')).status).toBe(422);
  });

  it('when an issue is searched for a two-character Japanese word, then it answers, while three Latin letters are still 422', async () => {
    const response = await inIssue('首都');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(expect.any(Array));
    const short = await inIssue('abc');
    expect(short.status).toBe(422);
    expect(short.body.errors.search).toEqual(['The search field must be at least 4 characters.']);
  });
});
