// A store's OPDS catalog open to anonymous browsing, and the errors of the
// OPDS routes as OPDS clients read them, end to end against ./dev up.
// Aurora has `opds_public_catalog` (fixtures/tenant-settings.json): its start
// feed, publications, collections and search answer without credentials, as
// to a visitor, while the shelf and downloads still ask to sign in;
// Northwind's catalog stays closed. Errors: the Authentication for OPDS
// document on 401 in both versions, Problem Details (RFC 9457) under
// /opds/v2, an Atom feed naming the problem under /opds/v1.2.
import { uniqueEmail } from '@folio/testing';
import { DOMParser } from '@xmldom/xmldom';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, sharedLogin, type Tokens } from './client.js';
import { schemaErrors, SCHEMA } from './json-schemas.js';
import { api } from './reader-helpers.js';

const NORTHWIND = 'northwind.localhost:8080';
const AURORA = 'aurora.localhost:8080';
const ATOM = 'http://www.w3.org/2005/Atom';
const AUTH_DOCUMENT = 'http://opds-spec.org/auth/document';
const OPEN_ACCESS = 'http://opds-spec.org/acquisition/open-access';

const basic = (email: string, key: string) => ({ authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` });
const get = (path: string, host: string, headers: Record<string, string> = {}) => api('GET', path, { headers: { host, ...headers } });

interface Link {
  rel?: string | string[];
  href: string;
  type?: string;
}
interface Feed2 {
  metadata: { numberOfItems?: number };
  links: Link[];
  navigation?: Link[];
  publications?: { metadata: { identifier: string }; links: Link[] }[];
}

async function feed2(path: string, host: string, headers: Record<string, string> = {}): Promise<Feed2> {
  const response = await get(path, host, headers);
  expect(response.status, `${path}: ${response.text}`).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/opds\+json/);
  expect(schemaErrors(SCHEMA.opdsFeed, response.body)).toEqual([]);
  return response.body as Feed2;
}

function atomRoot(text: string) {
  const root = new DOMParser().parseFromString(text, 'text/xml').documentElement!;
  expect(root.namespaceURI).toBe(ATOM);
  expect(root.localName).toBe('feed');
  return root;
}

const ownLinks = (root: ReturnType<typeof atomRoot>) => Array.from(root.getElementsByTagNameNS(ATOM, 'link')).filter((link) => link.parentNode === root);

/** A 401 that tells an OPDS client how to sign in: the Authentication for OPDS document and a Basic challenge. */
function expectSignIn(response: Awaited<ReturnType<typeof get>>, realm: string) {
  expect(response.status).toBe(401);
  expect(response.headers.get('content-type')).toMatch(/^application\/opds-authentication\+json/);
  expect(response.headers.get('www-authenticate')).toMatch(new RegExp(`^Basic realm="${realm.replace('.', '\\.')}"`));
  expect(schemaErrors(SCHEMA.opdsAuthentication, response.body)).toEqual([]);
}

/** A Problem Details answer (RFC 9457) of this status. */
function expectProblem(response: Awaited<ReturnType<typeof get>>, status: number) {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ type: 'about:blank', status, title: expect.any(String), detail: expect.any(String) });
}

/** An OPDS 1.2 error: an Atom navigation feed titled with the problem, leading back to the start feed. */
function expectAtomProblem(response: Awaited<ReturnType<typeof get>>, status: number, title: RegExp) {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/atom\+xml;\s*profile=opds-catalog;\s*kind=navigation/);
  const root = atomRoot(response.text);
  expect(root.getElementsByTagNameNS(ATOM, 'title')[0]!.textContent).toMatch(title);
  expect(ownLinks(root).map((link) => link.getAttribute('rel'))).toContain('start');
}

describe('OPDS public catalogs and errors (running stack)', () => {
  let ana: Tokens;
  let anaKey: string;
  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
    const created = await api('POST', '/api/v2/user/device-keys', { token: ana.access_token, body: { label: 'OPDS public e2e' } });
    expect(created.status).toBe(201);
    anaKey = created.body.key as string;
  });

  describe('anonymous browsing', () => {
    it('when a store with a public catalog is browsed without credentials, then its feeds answer and link the Authentication document', async () => {
      const catalog = await feed2('/opds/v2/catalog', AURORA);
      expect(catalog.links).toContainEqual(expect.objectContaining({ rel: AUTH_DOCUMENT, type: 'application/opds-authentication+json' }));
      const collections = catalog.navigation!.map((link) => new URL(link.href)).filter((url) => url.searchParams.has('collection'));
      expect(collections.length).toBeGreaterThan(0);
      for (const url of collections) expect((await feed2(`${url.pathname}${url.search}`, AURORA)).links.map((link) => link.rel)).toContain(AUTH_DOCUMENT);

      const publications = await feed2('/opds/v2/publications', AURORA);
      expect(publications.metadata.numberOfItems).toBe(publications.publications!.length);
      const free = publications.publications!.find((publication) => publication.metadata.identifier === 'urn:folio:4:4001')!;
      expect(free.links).toContainEqual(expect.objectContaining({ rel: OPEN_ACCESS, href: 'http://aurora.localhost:8080/opds/download/4001' }));
      const found = await feed2('/opds/v2/search?query=lago', AURORA);
      expect(found.publications!.map((publication) => publication.metadata.identifier)).toContain('urn:folio:4:4001');
    });

    it('when the OPDS 1.2 catalog of a public store is read without credentials, then Atom feeds answer with the Authentication document linked', async () => {
      for (const path of ['/opds/v1.2/catalog', '/opds/v1.2/publications', '/opds/v1.2/search?query=lago']) {
        const response = await get(path, AURORA);
        expect(response.status, path).toBe(200);
        const root = atomRoot(response.text);
        const auth = ownLinks(root).find((link) => link.getAttribute('rel') === AUTH_DOCUMENT);
        expect(auth?.getAttribute('href')).toBe('http://aurora.localhost:8080/opds/v2/authentication');
      }
    });

    it('when a visitor opens the shelf or follows an acquisition link, then sign-in is asked for as before', async () => {
      expectSignIn(await get('/opds/v2/shelf', AURORA), 'aurora.localhost');
      expectSignIn(await get('/opds/v1.2/shelf', AURORA), 'aurora.localhost');
      expectSignIn(await get('/opds/download/4001', AURORA), 'aurora.localhost');
    });

    it('when wrong credentials are sent to a public catalog, then 401: the app learns its key is wrong', async () => {
      expectSignIn(await get('/opds/v2/catalog', AURORA, basic('ana@example.com', 'not-the-key')), 'aurora.localhost');
    });

    it("when a member signs in to a public catalog, then the feeds are the member's, without the sign-in link", async () => {
      const member = await loginByEmail(uniqueEmail('opds-public'), { appTenantId: 4 });
      const catalog = await feed2('/opds/v2/catalog', AURORA, { authorization: `Bearer ${member.access_token}` });
      expect(catalog.links.map((link) => link.rel)).not.toContain(AUTH_DOCUMENT);
    });

    it('when a store without a public catalog is browsed without credentials, then 401 as before', async () => {
      expectSignIn(await get('/opds/v2/catalog', NORTHWIND), 'northwind.localhost');
      expectSignIn(await get('/opds/v2/publications', NORTHWIND), 'northwind.localhost');
      expectSignIn(await get('/opds/v1.2/search?query=harbor', NORTHWIND), 'northwind.localhost');
    });
  });

  describe('errors as OPDS clients read them', () => {
    it('when a one-character search is sent, then 422: Problem Details naming the query (2.0), an Atom feed saying so (1.2)', async () => {
      const v2 = await get('/opds/v2/search?query=x', NORTHWIND, basic('ana@example.com', anaKey));
      expectProblem(v2, 422);
      expect(v2.body.errors.query).toEqual([expect.stringMatching(/between 2 and 128/)]);
      expectAtomProblem(await get('/opds/v1.2/search?query=x', NORTHWIND, basic('ana@example.com', anaKey)), 422, /between 2 and 128/);
      // A visitor of a public catalog gets the same answer.
      expectProblem(await get('/opds/v2/search?query=x', AURORA), 422);
    });

    it("when an unknown collection or a bad page is asked, then 404 or 422 in the version's own form", async () => {
      expectProblem(await get('/opds/v2/publications?collection=no-such-shelf', NORTHWIND, basic('ana@example.com', anaKey)), 404);
      expectAtomProblem(await get('/opds/v1.2/publications?collection=no-such-shelf', NORTHWIND, basic('ana@example.com', anaKey)), 404, /./);
      expectProblem(await get('/opds/v2/publications?page=0', NORTHWIND, basic('ana@example.com', anaKey)), 422);
      expectAtomProblem(await get('/opds/v1.2/publications?page=abc', NORTHWIND, basic('ana@example.com', anaKey)), 422, /./);
    });

    it('when a Bearer token of a non-member is sent, then 403 as Problem Details', async () => {
      expectProblem(await get('/opds/v2/catalog', 'atlantica.localhost:8080', { authorization: `Bearer ${ana.access_token}` }), 403);
    });

    it('when an OPDS 1.2 client is not signed in, then 401 with the Authentication for OPDS document and the Basic challenge', async () => {
      expectSignIn(await get('/opds/v1.2/catalog', NORTHWIND), 'northwind.localhost');
    });

    it('when a store with search turned off is asked for its OpenSearch description, then a 404 Atom feed', async () => {
      expectAtomProblem(await get('/opds/v1.2/opensearch.xml', 'atlantica.localhost:8080'), 404, /search turned off/);
    });
  });
});
