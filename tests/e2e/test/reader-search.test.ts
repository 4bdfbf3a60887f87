// In-issue text search in both API versions, end to end against ./dev up:
// hits, snippets and locations for an EPUB and a PDF, v2 (`<mark>`, CFI or
// `page:<n>,offset:<c>`) and v1 (`<b>`, `page_<n>_section_<m>`), the limits
// (4-128 characters, 422) and the refusals (403, 404), and the v1 bulk text.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Tokens } from './client.js';
import { api, session, sharedLogin, STORE, v2, type ReaderSessionBody } from './reader-helpers.js';

interface Hit {
  location: string;
  snippet: string;
  query_words: string[];
}

describe('in-issue text search (running stack)', () => {
  let ana: Tokens;
  let epub: ReaderSessionBody; // 1001, Northwind
  let pdf: ReaderSessionBody; // 2002, Editorial Sur
  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
    [epub, pdf] = await Promise.all([session(ana.access_token, 1, 1001), session(ana.access_token, 2, 2002)]);
  });

  const searchV2 = (tenantId: number, readerToken: string, search: string) =>
    api<Hit[]>('GET', `/api/v2/reader/issue-text-content?search=${encodeURIComponent(search)}`, {
      token: ana.access_token,
      headers: v2(tenantId, readerToken),
    });
  const searchV1 = (host: string, readerToken: string, issueId: number, search: string) =>
    api<Hit[]>('GET', `/api/v1/issue-text-content?issue_id=${issueId}&search=${encodeURIComponent(search)}`, {
      headers: { host, 'reader-token': readerToken },
    });

  describe('API v2', () => {
    it('when an EPUB is searched, then hits by relevance with <mark> snippets and range CFIs into the matched chapter', async () => {
      const response = await searchV2(1, epub.token, 'keeper atlas');
      expect(response.status).toBe(200);
      const hits = response.body;
      expect(hits.length).toBeGreaterThanOrEqual(2);
      for (const hit of hits) {
        expect(hit.query_words).toEqual(['keeper', 'atlas']);
        expect(hit.location).toMatch(/^epubcfi\(\/6\/\d+\[chapter-\d\]!(\/\d+)+,\/\d+:\d+,\/\d+:\d+\)$/);
        expect(hit.snippet).toMatch(/<mark>(keeper|atlas)<\/mark>/i);
      }
      // The paragraphs holding both words rank above those holding one.
      expect(hits[0]!.snippet).toContain('<mark>atlas</mark>');
      expect(hits[0]!.snippet).toContain('<mark>keeper</mark>');
      const third = hits.find((hit) => hit.location.includes('[chapter-3]'));
      expect(third?.snippet).toContain('at the <mark>keeper</mark> herself');
    });

    it('when a PDF is searched without accents, then the accented word matches and the location is page and offset in the page text', async () => {
      const response = await searchV2(2, pdf.token, 'sequia');
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(1);
      const [hit] = response.body;
      expect(hit!.query_words).toEqual(['sequia']);
      expect(hit!.snippet).toContain('<mark>sequía</mark>');
      expect(hit!.location).toMatch(/^page:1,offset:\d+$/);

      // The offset points at the match in the page text the v1 bulk route returns.
      const offset = Number(hit!.location.split('offset:')[1]);
      const page = await api('GET', '/api/v1/issue-text-content/1?issue_id=2002', { headers: { host: STORE[2] } });
      const text = (page.body as { text: string }[]).map((record) => record.text).join('\n\n');
      expect(text.slice(offset, offset + 'sequía'.length)).toBe('sequía');
    });

    it('when the last word is typed only in part, then it matches as a prefix', async () => {
      const response = await searchV2(2, pdf.token, 'empanad');
      expect(response.body.map((hit) => hit.location)).toEqual([expect.stringMatching(/^page:3,offset:\d+$/)]);
    });

    it('when nothing matches, then an empty array', async () => {
      const response = await searchV2(1, epub.token, 'zeppelin');
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
    });

    it.each([
      ['too short', 'kee'],
      ['too long', 'k'.repeat(129)],
      ['missing', undefined],
    ])('when search is %s, then 422 naming search', async (_what, search) => {
      const path = search === undefined ? '/api/v2/reader/issue-text-content' : `/api/v2/reader/issue-text-content?search=${search}`;
      const response = await api('GET', path, { token: ana.access_token, headers: v2(1, epub.token) });
      expect(response.status).toBe(422);
      expect(response.body.errors).toHaveProperty('search');
    });

    it('when search has exactly 4 or 128 characters, then it is accepted', async () => {
      expect((await searchV2(1, epub.token, 'lamp')).status).toBe(200);
      expect((await searchV2(1, epub.token, `keeper ${'x'.repeat(121)}`)).status).toBe(200);
    });

    it('when the issue has no text (audiobook), then 404', async () => {
      const audio = await session(ana.access_token, 2, 2003);
      const response = await searchV2(2, audio.token, 'canoa');
      expect(response.status).toBe(404);
    });
  });

  describe('API v1 (store host, reader-token only)', () => {
    it('when an EPUB is searched, then <b> snippets and page_<spine position>_section_<paragraph> locations', async () => {
      const response = await searchV1(STORE[1], epub.token, 1001, 'keeper');
      expect(response.status).toBe(200);
      expect(response.body.map((hit) => hit.location).sort()).toEqual(['page_1_section_2', 'page_2_section_2', 'page_3_section_2']);
      for (const hit of response.body) {
        expect(hit.snippet).toContain('<b>keeper</b>');
        expect(hit.snippet).not.toContain('<mark>');
        expect(hit.query_words).toEqual(['keeper']);
      }
    });

    it('when a PDF is searched, then the page and paragraph of the match', async () => {
      const response = await searchV1(STORE[2], pdf.token, 2002, 'bibliotecas tren');
      expect(response.status).toBe(200);
      expect(response.body[0]).toEqual({
        location: 'page_2_section_1',
        snippet: expect.stringMatching(/<b>tren<\/b>.*<b>bibliotecas<\/b>/),
        query_words: ['bibliotecas', 'tren'],
      });
    });

    it('when the store cannot read the issue, then 403', async () => {
      // ana has no access to 1002; 2002 is not an issue of Northwind.
      expect((await searchV1(STORE[1], epub.token, 1002, 'ferry')).status).toBe(403);
      expect((await searchV1(STORE[1], epub.token, 2002, 'trigo')).status).toBe(403);
    });

    it('when the issue has no indexed text, then 404', async () => {
      expect((await searchV1(STORE[1], epub.token, 1003, 'ferry')).status).toBe(404);
    });

    it("when the reader-token is missing, corrupt or of another store's tenant, then 403", async () => {
      expect((await api('GET', '/api/v1/issue-text-content?issue_id=1001&search=keeper', { headers: { host: STORE[1] } })).status).toBe(403);
      expect((await searchV1(STORE[1], 'corrupt', 1001, 'keeper')).status).toBe(403);
      expect((await searchV1(STORE[1], pdf.token, 1001, 'keeper')).status).toBe(403);
    });

    it('when search is outside 4-128 characters or issue_id is missing, then 422', async () => {
      expect((await searchV1(STORE[1], epub.token, 1001, 'abc')).status).toBe(422);
      const noIssue = await api('GET', '/api/v1/issue-text-content?search=keeper', { headers: { host: STORE[1], 'reader-token': epub.token } });
      expect(noIssue.status).toBe(422);
      expect(noIssue.body.errors).toHaveProperty('issue_id');
    });
  });

  describe('API v1 bulk text (no authentication, the store’s issues only)', () => {
    it('when a PDF page is asked for, then its sections with ids, page, section, location and text', async () => {
      const response = await api('GET', '/api/v1/issue-text-content/2?issue_id=2002', { headers: { host: STORE[2] } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        {
          id: 2,
          issue_id: 2002,
          page: 2,
          section: 1,
          location: 'page_2_section_1',
          text: 'Crónica: un viaje en tren de Bahía Blanca a Carmen de Patagones, con paradas en estaciones que hoy son museos y bibliotecas.',
        },
      ]);
    });

    it('when an EPUB chapter is asked for, then its paragraphs in order', async () => {
      const response = await api('GET', '/api/v1/issue-text-content/1?issue_id=1001', { headers: { host: STORE[1] } });
      expect(response.status).toBe(200);
      const records = response.body as { section: number; location: string; text: string }[];
      expect(records.map((record) => record.location)).toEqual(records.map((_, i) => `page_1_section_${i + 1}`));
      expect(records.some((record) => record.text.startsWith('The keeper climbed the spiral stairs'))).toBe(true);
    });

    it("when the issue is another store's, then 404", async () => {
      expect((await api('GET', '/api/v1/issue-text-content/1?issue_id=1001', { headers: { host: STORE[2] } })).status).toBe(404);
    });
  });
});
