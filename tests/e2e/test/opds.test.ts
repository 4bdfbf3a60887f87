// OPDS catalogs of a store, end to end against ./dev up: sign-in with a
// device key (HTTP Basic) or a JWT, the 401s of each version, every OPDS 2.0
// answer validated against the published OPDS 2.0 / Readium schemas
// (fixtures/schemas), every OPDS 1.2 answer parsed as Atom with the OPDS
// namespaces and rels, acquisition links by access, and downloads.
import { uniqueEmail } from '@folio/testing';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, sharedLogin, type Tokens } from './client.js';
import { schemaErrors, SCHEMA } from './json-schemas.js';
import { api, fetchContent, pngSize, session, v2 } from './reader-helpers.js';

const NORTHWIND = 'northwind.localhost:8080';
const AURORA = 'aurora.localhost:8080'; // free access
const ATLANTICA = 'atlantica.localhost:8080'; // search turned off

const ATOM = 'http://www.w3.org/2005/Atom';
const OPDS = 'http://opds-spec.org/2010/catalog';
const REL = {
  acquisition: 'http://opds-spec.org/acquisition',
  openAccess: 'http://opds-spec.org/acquisition/open-access',
  buy: 'http://opds-spec.org/acquisition/buy',
};

const basic = (email: string, key: string) => ({ authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` });

async function deviceKey(token: string): Promise<string> {
  const created = await api('POST', '/api/v2/user/device-keys', { token, body: { label: 'OPDS e2e' } });
  if (created.status !== 201) throw new Error(`device key: ${created.status} ${created.text}`);
  return created.body.key as string;
}

function opds2(path: string, headers: Record<string, string>, host = NORTHWIND) {
  return api('GET', path, { headers: { host, accept: 'application/opds+json', ...headers } });
}

/** A 200 OPDS 2.0 feed that validates against the published schema. */
async function feed2(path: string, headers: Record<string, string>, host = NORTHWIND) {
  const response = await opds2(path, headers, host);
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/opds\+json/);
  expect(schemaErrors(SCHEMA.opdsFeed, response.body)).toEqual([]);
  return response.body as { metadata: Record<string, unknown>; links: Link[]; navigation?: Link[]; publications?: Publication[] };
}

interface Link {
  href: string;
  rel?: string | string[];
  type?: string;
  title?: string;
  templated?: boolean;
  properties?: { price?: { currency: string; value: number }; indirectAcquisition?: { type: string }[] };
}
interface Publication {
  metadata: { identifier: string; title: string; duration?: number; numberOfPages?: number };
  links: Link[];
  images?: { href: string; type: string; width?: number; height?: number }[];
}

const idOf = (publication: Publication) => Number(publication.metadata.identifier.split(':').at(-1));
const acquisitionOf = (publication: Publication) => publication.links.find((link) => String(link.rel).startsWith('http://opds-spec.org/acquisition'));
const pathOf = (href: string) => {
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
};

/** Every publication of the storefront feed, following `next`. */
async function allPublications(headers: Record<string, string>, host = NORTHWIND): Promise<Publication[]> {
  const found: Publication[] = [];
  let path: string | undefined = '/opds/v2/publications';
  while (path) {
    const page = await feed2(path, headers, host);
    found.push(...(page.publications ?? []));
    const next = page.links.find((link) => link.rel === 'next');
    path = next ? pathOf(next.href) : undefined;
  }
  return found;
}

function atom(text: string) {
  const document = new DOMParser().parseFromString(text, 'text/xml');
  const root = document.documentElement!;
  expect(root.namespaceURI).toBe(ATOM);
  expect(root.localName).toBe('feed');
  return root;
}

const children = (element: Element, ns: string, name: string) => Array.from(element.getElementsByTagNameNS(ns, name));

describe('OPDS catalogs (running stack)', () => {
  let ana: Tokens;
  let anaKey: string;
  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
    anaKey = await deviceKey(ana.access_token);
  });

  describe('sign-in', () => {
    it('when no credentials are sent to OPDS 2.0, then 401 with a valid Authentication for OPDS document and a Basic challenge', async () => {
      const response = await opds2('/opds/v2/catalog', {});
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^application\/opds-authentication\+json/);
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm="northwind\.localhost"/);
      expect(schemaErrors(SCHEMA.opdsAuthentication, response.body)).toEqual([]);
      expect(response.body.authentication).toEqual([expect.objectContaining({ type: 'http://opds-spec.org/auth/basic' })]);
    });

    it('when a wrong key or an unknown e-mail is sent to OPDS 1.2, then 401 with a WWW-Authenticate Basic challenge', async () => {
      for (const headers of [basic('ana@example.com', 'not-the-key'), basic('nobody@example.com', anaKey), { authorization: 'Basic !!!' }]) {
        const response = await api('GET', '/opds/v1.2/catalog', { headers: { host: NORTHWIND, ...headers } });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      }
    });

    it('when the key is used on a store the user has no account in, then 401; a JWT of a non-member is 403', async () => {
      expect((await opds2('/opds/v2/catalog', basic('ana@example.com', anaKey), ATLANTICA)).status).toBe(401);
      expect((await opds2('/opds/v2/catalog', { authorization: `Bearer ${ana.access_token}` }, ATLANTICA)).status).toBe(403);
    });

    it('when a deleted key is used, then 401', async () => {
      const created = await api('POST', '/api/v2/user/device-keys', { token: ana.access_token, body: { label: 'short-lived' } });
      expect((await opds2('/opds/v2/catalog', basic('ana@example.com', created.body.key))).status).toBe(200);
      await api('DELETE', `/api/v2/user/device-keys/${created.body.id}`, { token: ana.access_token });
      expect((await opds2('/opds/v2/catalog', basic('ana@example.com', created.body.key))).status).toBe(401);
    });

    it('when a Bearer JWT of a member is sent, then the catalog answers as with a device key', async () => {
      const byKey = await feed2('/opds/v2/catalog', basic('ana@example.com', anaKey));
      const byJwt = await feed2('/opds/v2/catalog', { authorization: `Bearer ${ana.access_token}` });
      expect(byJwt.navigation).toEqual(byKey.navigation);
    });
  });

  describe('OPDS 2.0', () => {
    it('when the catalog is read, then it navigates to new issues, the shelf, every collection and templated search', async () => {
      const catalog = await feed2('/opds/v2/catalog', basic('ana@example.com', anaKey));
      const titles = catalog.navigation!.map((link) => link.title);
      expect(titles.slice(0, 2)).toEqual(['New issues', 'My shelf']);
      expect(catalog.navigation!.map((link) => pathOf(link.href))).toEqual(
        expect.arrayContaining(['/opds/v2/publications', '/opds/v2/shelf', '/opds/v2/publications?collection=fiction']),
      );
      expect(catalog.links).toContainEqual(
        expect.objectContaining({ rel: 'search', templated: true, href: 'http://northwind.localhost:8080/opds/v2/search{?query}' }),
      );
    });

    it('when the publications are listed, then acquisition links follow access: open-access free, acquisition readable, buy with price', async () => {
      const publications = await allPublications(basic('ana@example.com', anaKey));
      const byId = new Map(publications.map((publication) => [idOf(publication), publication]));
      expect(acquisitionOf(byId.get(1003)!)).toMatchObject({ rel: REL.openAccess, type: 'application/audiobook+json' });
      expect(acquisitionOf(byId.get(1001)!)).toMatchObject({
        rel: REL.acquisition,
        type: 'application/epub+zip',
        href: 'http://northwind.localhost:8080/opds/download/1001',
      });
      expect(acquisitionOf(byId.get(1002)!)).toMatchObject({
        rel: REL.buy,
        type: 'text/html',
        href: expect.stringMatching(/\/app\/purchase\/1002$/),
        properties: { price: { currency: 'USD', value: 2.49 }, indirectAcquisition: [{ type: 'application/pdf' }] },
      });
      // Pay-per-use and physical issues are not offered to e-readers.
      expect(byId.has(1008)).toBe(false);
      expect(byId.has(1005)).toBe(false);
      for (const publication of publications) expect(schemaErrors(SCHEMA.opdsPublication, publication)).toEqual([]);
    });

    it('when a publication is listed, then it has a PNG cover an e-reader can draw, and an audiobook its playing time', async () => {
      const publications = await allPublications(basic('ana@example.com', anaKey));
      const audiobook = publications.find((publication) => idOf(publication) === 1003)!;
      // The durations reader measured at ingest, all tracks together.
      const manifest = await api('GET', '/opds/download/1003', { headers: { host: NORTHWIND, ...basic('ana@example.com', anaKey) } });
      const tracks = (manifest.body as { readingOrder: { duration: number }[] }).readingOrder;
      expect(audiobook.metadata.duration).toBeCloseTo(
        tracks.reduce((sum, track) => sum + track.duration, 0),
        0,
      );
      expect(audiobook.metadata.duration).toBeGreaterThan(0);
      for (const publication of publications) {
        const png = publication.images?.find((image) => image.type === 'image/png');
        expect(png, publication.metadata.title).toMatchObject({ width: 600, height: 900 });
        const cover = await fetchContent(png!.href);
        expect(cover.status).toBe(200);
        expect(cover.headers.get('content-type')).toBe('image/png');
        expect(pngSize(cover.bytes)).toEqual({ width: 600, height: 900 });
      }
    });

    it('when a buy link is followed with the access token, then it is the purchase redirect', async () => {
      const publications = await allPublications(basic('ana@example.com', anaKey));
      const buy = acquisitionOf(publications.find((publication) => idOf(publication) === 1002)!)!;
      const response = await api('GET', `${pathOf(buy.href)}?token=${ana.access_token}`, { headers: { host: new URL(buy.href).host } });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/app/checkout?automatically_open_checkout=true');
    });

    it('when the shelf is read, then it holds exactly the issues the storefront says the user can read', async () => {
      const shelf = await feed2('/opds/v2/shelf', basic('ana@example.com', anaKey));
      const storefront = await api('GET', '/api/v2/library/filter?section=latest_issues&scope=all&per_page=100', {
        token: ana.access_token,
        headers: v2(1),
      });
      expect(storefront.status).toBe(200);
      const readable = storefront.body.data
        .filter((issue: { can_be_read: boolean; type: string }) => issue.can_be_read && issue.type !== 'physical')
        .map((issue: { id: number }) => issue.id);
      expect((shelf.publications ?? []).map(idOf).sort()).toEqual([...readable].sort());
      for (const publication of shelf.publications ?? []) expect(String(acquisitionOf(publication)!.rel)).not.toBe(REL.buy);
    });

    it('when searching, then the templated search answers a valid feed; a store with search off is 404', async () => {
      const found = await feed2('/opds/v2/search?query=harbor', basic('ana@example.com', anaKey));
      expect((found.publications ?? []).map(idOf)).toContain(1002);
      const nothing = await feed2('/opds/v2/search?query=zzzzqqq', basic('ana@example.com', anaKey));
      expect(nothing.publications).toBeUndefined();
      const carla = await sharedLogin('carla@example.com');
      expect((await opds2('/opds/v2/search?query=livro', { authorization: `Bearer ${carla.access_token}` }, ATLANTICA)).status).toBe(404);
      expect((await opds2('/opds/v2/search?query=x', basic('ana@example.com', anaKey))).status).toBe(422);
    });

    it('when a page past the end or an unknown collection is asked, then a valid empty feed or 404', async () => {
      const empty = await feed2('/opds/v2/publications?page=500', basic('ana@example.com', anaKey));
      expect(empty.publications).toBeUndefined();
      expect((await opds2('/opds/v2/publications?collection=no-such-shelf', basic('ana@example.com', anaKey))).status).toBe(404);
    });
  });

  describe('OPDS 1.2', () => {
    it('when the catalog is read, then it is an Atom navigation feed with OPDS rels and an OpenSearch description', async () => {
      const response = await api('GET', '/opds/v1.2/catalog', { headers: { host: NORTHWIND, ...basic('ana@example.com', anaKey) } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/atom\+xml;\s*profile=opds-catalog;\s*kind=navigation/);
      const root = atom(response.text);
      expect(root.lookupNamespaceURI('opds')).toBe(OPDS);
      const links = children(root, ATOM, 'link').filter((link) => link.parentNode === root);
      const rels = links.map((link) => link.getAttribute('rel'));
      expect(rels).toEqual(expect.arrayContaining(['self', 'start', 'search', 'http://opds-spec.org/shelf']));
      const entries = children(root, ATOM, 'entry');
      expect(entries.length).toBeGreaterThanOrEqual(3);
      for (const entry of entries) {
        const link = children(entry, ATOM, 'link')[0]!;
        expect(link.getAttribute('rel')).toBe('subsection');
        expect(link.getAttribute('type')).toMatch(/profile=opds-catalog/);
      }

      const search = links.find((link) => link.getAttribute('rel') === 'search')!;
      expect(search.getAttribute('type')).toBe('application/opensearchdescription+xml');
      const description = await api('GET', pathOf(search.getAttribute('href')!), { headers: { host: NORTHWIND } });
      expect(description.status).toBe(200);
      const osd = new DOMParser().parseFromString(description.text, 'text/xml').documentElement!;
      expect(osd.namespaceURI).toBe('http://a9.com/-/spec/opensearch/1.1/');
      const template = children(osd, 'http://a9.com/-/spec/opensearch/1.1/', 'Url')[0]!.getAttribute('template')!;
      expect(template).toBe('http://northwind.localhost:8080/opds/v1.2/search?query={searchTerms}');
      const results = await api('GET', pathOf(template.replace('{searchTerms}', 'harbor')), {
        headers: { host: NORTHWIND, ...basic('ana@example.com', anaKey) },
      });
      expect(results.status).toBe(200);
      expect(children(atom(results.text), ATOM, 'entry').length).toBeGreaterThan(0);
    });

    it('when the publications are read, then entries carry OPDS acquisition links with prices on buy links', async () => {
      const response = await api('GET', '/opds/v1.2/publications', { headers: { host: NORTHWIND, ...basic('ana@example.com', anaKey) } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/kind=acquisition/);
      const entries = children(atom(response.text), ATOM, 'entry');
      const linkOf = (issueId: number) => {
        const entry = entries.find((e) => children(e, ATOM, 'id')[0]!.textContent!.endsWith(`:${issueId}`))!;
        return children(entry, ATOM, 'link').find((link) => link.getAttribute('rel')!.startsWith('http://opds-spec.org/acquisition'))!;
      };
      expect(linkOf(1001).getAttribute('rel')).toBe(REL.acquisition);
      expect(linkOf(1003).getAttribute('rel')).toBe(REL.openAccess);
      const buy = linkOf(1002);
      expect(buy.getAttribute('rel')).toBe(REL.buy);
      const price = children(buy, OPDS, 'price')[0]!;
      expect([price.getAttribute('currencycode'), price.textContent]).toEqual(['USD', '2.49']);
      expect(children(buy, OPDS, 'indirectAcquisition')[0]!.getAttribute('type')).toBe('application/pdf');
      // Covers as PNG (e-readers draw no SVG), the audiobook's playing time as an ISO 8601 duration.
      const entryOf = (issueId: number) => entries.find((e) => children(e, ATOM, 'id')[0]!.textContent!.endsWith(`:${issueId}`))!;
      const image = children(entryOf(1001), ATOM, 'link').find((link) => link.getAttribute('rel') === 'http://opds-spec.org/image')!;
      expect(image.getAttribute('type')).toBe('image/png');
      expect(children(entryOf(1003), 'http://purl.org/dc/terms/', 'extent')[0]?.textContent).toMatch(/^PT(\d+H)?(\d+M)?(\d+S)?$/);
    });
  });

  describe('downloads', () => {
    it('when a free issue is downloaded through its open-access link, then the bytes are the EPUB the reader session serves', async () => {
      const fresh = await loginByEmail(uniqueEmail('opds-free'), { appTenantId: 4 });
      const key = await deviceKey(fresh.access_token);
      const email = JSON.parse(Buffer.from(fresh.access_token.split('.')[1]!, 'base64url').toString()).email as string;
      const publications = await allPublications(basic(email, key), AURORA);
      const link = acquisitionOf(publications.find((publication) => idOf(publication) === 4001)!)!;
      expect(link).toMatchObject({ rel: REL.openAccess, type: 'application/epub+zip' });

      const redirect = await api('GET', pathOf(link.href), { headers: { host: AURORA, ...basic(email, key) } });
      expect(redirect.status).toBe(302);
      const downloaded = await fetchContent(redirect.headers.get('location')!);
      expect(downloaded.status).toBe(200);
      const served = await fetchContent((await session(fresh.access_token, 4, 4001)).file_url!);
      expect(downloaded.bytes.equals(served.bytes)).toBe(true);
    });

    it('when an issue the user cannot read is downloaded, then 403; without credentials 401', async () => {
      expect((await api('GET', '/opds/download/1002', { headers: { host: NORTHWIND, ...basic('ana@example.com', anaKey) } })).status).toBe(403);
      expect((await api('GET', '/opds/download/1001', { headers: { host: NORTHWIND } })).status).toBe(401);
    });

    it('when an audiobook is downloaded, then a Readium audiobook manifest of playable tracks', async () => {
      const response = await api('GET', '/opds/download/1003', { headers: { host: NORTHWIND, ...basic('ana@example.com', anaKey) } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/audiobook\+json/);
      expect(schemaErrors(SCHEMA.webpubManifest, response.body)).toEqual([]);
      // The audiobook profile, and the issue's one identifier (the feeds' and the reader manifest's).
      expect(response.body.metadata).toMatchObject({ conformsTo: 'https://readium.org/webpub-manifest/profiles/audiobook', identifier: 'urn:folio:1:1003' });
      const first = await fetchContent(response.body.readingOrder[0].href, { range: 'bytes=0-15' });
      expect(first.status).toBe(206);
    });
  });
});
