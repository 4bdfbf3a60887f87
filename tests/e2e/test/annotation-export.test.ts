// The annotation export, end to end against ./dev up: a new user
// highlights in two issues (EPUB and PDF positions, v1 and v2, with and
// without a comment), then exports. Both formats contain every note, in
// plain text; the W3C one validates against the Web Annotation shape
// (fixtures/schemas/w3c-web-annotation-collection.schema.json).
import { readFileSync } from 'node:fs';
import { uniqueEmail, uniqueName } from '@folio/testing';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, type Tokens } from './client.js';
import { api, session, STORE, v2, type ReaderSessionBody } from './reader-helpers.js';

const schema = JSON.parse(readFileSync(new URL('../fixtures/schemas/w3c-web-annotation-collection.schema.json', import.meta.url), 'utf8')) as object;
const EPUB_CFI = 'http://www.idpf.org/epub/linking/cfi/epub-cfi.html';

interface Annotation {
  id: string;
  type: string;
  motivation: string;
  created: string;
  modified: string;
  body?: { type: string; value: string };
  target: { source: string; selector: { type: string; exact?: string; value?: string; conformsTo?: string; startSelector?: { value: string } }[] };
}

describe('annotation export (running stack)', () => {
  let user: Tokens;
  let full: ReaderSessionBody; // 1003, free, tenant 1
  let preview: ReaderSessionBody; // 1001, a preview session, tenant 1
  const texts = {
    epub: 'The keeper climbed the spiral stairs',
    pdf: 'el trigo de este año',
    v1: 'the night ferry "left" <early> & late',
    multiline: 'first line\nsecond line',
  };
  const created: Record<string, { id: number; createdAt: string }> = {};

  beforeAll(async () => {
    user = await loginByEmail(uniqueEmail('export'));
    [full, preview] = await Promise.all([session(user.access_token, 1, 1003), session(user.access_token, 1, 1001, { preview: true })]);
    const note = (text: string, extra: Record<string, unknown> = {}) => ({
      uuid: uniqueName('n'),
      color: 'yellow',
      totalLength: text.length,
      totalText: text,
      ...extra,
    });
    const post = async (key: string, path: string, headers: Record<string, string>, body: unknown, token?: string) => {
      const response = await api('POST', path, { token, headers, body });
      if (response.status !== 201) throw new Error(`setup note ${key} answered ${response.status}: ${response.text}`);
      created[key] = response.body as { id: number; createdAt: string };
    };
    await post(
      'epub',
      '/api/v2/reader/notes',
      v2(1, preview.token),
      note(texts.epub, {
        annotationText: 'Opening line',
        epubLocationStartCfi: 'epubcfi(/6/2[chapter-1]!/4/2/1:0)',
        epubLocationEndCfi: 'epubcfi(/6/2[chapter-1]!/4/2/1:36)',
        epubLocation: ['text/chapter-1.xhtml'],
      }),
      user.access_token,
    );
    await post('pdf', '/api/v2/reader/notes', v2(1, full.token), note(texts.pdf, { startPage: 3, startPageStartOffset: 40, endPage: 3 }), user.access_token);
    await post(
      'v1',
      '/api/v1/notes',
      { host: STORE[1], 'reader-token': full.token },
      note(texts.v1, { annotationText: 'from v1', epubLocation: 'epubcfi(/6/4!/4/2/1:0)' }),
    );
    await post('multiline', '/api/v2/reader/notes', v2(1, full.token), note(texts.multiline), user.access_token);
  });

  const exportAs = (format: string) => api('GET', `/api/v2/user/annotations/export?format=${format}`, { token: user.access_token });

  it('when the W3C format is asked for, then every note is one Annotation with the highlighted text, its position and times, and the document validates', async () => {
    const response = await exportAs('w3c');

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json; ?profile="http:\/\/www\.w3\.org\/ns\/anno\.jsonld"/);
    const collection = JSON.parse(response.text) as { type: string; total: number; first: { items: Annotation[] } };
    const ajv = new Ajv({ allErrors: true, strict: false });
    const valid = ajv.validate(schema, collection);
    expect(ajv.errors ?? [], ajv.errorsText(ajv.errors)).toEqual([]);
    expect(valid).toBe(true);
    expect(collection).toMatchObject({ type: 'AnnotationCollection', total: 4 });

    const byId = new Map(collection.first.items.map((item) => [item.id, item]));
    expect([...byId.keys()].sort()).toEqual(
      Object.values(created)
        .map((note) => `urn:folio:note:${note.id}`)
        .sort(),
    );
    const epub = byId.get(`urn:folio:note:${created.epub!.id}`)!;
    expect(epub).toMatchObject({
      type: 'Annotation',
      motivation: 'commenting',
      created: created.epub!.createdAt,
      body: { type: 'TextualBody', value: 'Opening line' },
      target: { source: 'urn:folio:tenant:1:issue:1001' },
    });
    expect(epub.target.selector[0]).toEqual({ type: 'TextQuoteSelector', exact: texts.epub });
    expect(epub.target.selector[1]).toMatchObject({
      type: 'RangeSelector',
      startSelector: { type: 'FragmentSelector', conformsTo: EPUB_CFI, value: 'epubcfi(/6/2[chapter-1]!/4/2/1:0)' },
      endSelector: { type: 'FragmentSelector', conformsTo: EPUB_CFI, value: 'epubcfi(/6/2[chapter-1]!/4/2/1:36)' },
    });
    const pdf = byId.get(`urn:folio:note:${created.pdf!.id}`)!;
    expect(pdf).toMatchObject({ motivation: 'highlighting', target: { source: 'urn:folio:tenant:1:issue:1003' } });
    expect(pdf.body).toBeUndefined();
    expect(pdf.target.selector).toEqual([
      { type: 'TextQuoteSelector', exact: texts.pdf },
      { type: 'FragmentSelector', conformsTo: 'http://tools.ietf.org/rfc/rfc3778', value: 'page=3' },
    ]);
    const v1 = byId.get(`urn:folio:note:${created.v1!.id}`)!;
    expect(v1.target.selector).toEqual([
      { type: 'TextQuoteSelector', exact: texts.v1 },
      { type: 'FragmentSelector', conformsTo: EPUB_CFI, value: 'epubcfi(/6/4!/4/2/1:0)' },
    ]);
  });

  it('when Markdown is asked for, then every note is quoted in plain text under its store and issue', async () => {
    const response = await exportAs('markdown');

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/markdown; ?charset=utf-8/);
    const markdown = response.text;
    expect(markdown).toMatch(/^# Annotations\n/);
    expect(markdown).toContain('4 notes of ');
    expect(markdown.match(/^## /gm)).toHaveLength(1);
    expect(markdown).toContain('## Northwind Reader');
    expect(markdown.match(/^### /gm)).toHaveLength(2);
    for (const text of Object.values(texts)) {
      for (const line of text.split('\n')) expect(markdown).toContain(`> ${line}`);
    }
    expect(markdown).toContain('Opening line');
    expect(markdown).toContain('from v1');
    expect(markdown).toContain('page 3');
  });

  it('when the format is missing or unknown, then 422 names it; without a token, 401', async () => {
    expect((await api('GET', '/api/v2/user/annotations/export', { token: user.access_token })).status).toBe(422);
    const unknown = await exportAs('pdf');
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ errors: { format: expect.any(Array) } });
    expect((await api('GET', '/api/v2/user/annotations/export?format=w3c')).status).toBe(401);
  });
});
