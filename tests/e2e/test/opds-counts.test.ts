// OPDS feeds count what their pages list, end to end against ./dev up: every
// page of every feed (the publications, each collection, a few searches), in
// OPDS 2.0 (`numberOfItems`) and OPDS 1.2 (`opensearch:totalResults`), walked
// by `next` until the last page, holds exactly as many publications as the
// count says, each once, and `last` is the page the walk ends on. A client
// that pages by the count asks only for pages that exist.
import { DOMParser, type Element } from '@xmldom/xmldom';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedLogin, type ApiResponse } from './client.js';
import { api } from './reader-helpers.js';

const NORTHWIND = 'northwind.localhost:8080';
const ATOM = 'http://www.w3.org/2005/Atom';
const OPENSEARCH = 'http://a9.com/-/spec/opensearch/1.1/';
const SEARCHES = ['harbor', 'lighthouse', 'mara', 'the', 'zzzzqqq'];

const basic = (email: string, key: string) => ({ authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` });
const pathOf = (href: string) => {
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
};

interface Walked {
  /** The count each page announced. */
  counts: number[];
  /** Every publication's identifier, page after page. */
  identifiers: string[];
  pages: number;
  /** The `last` link of the first page, and the path the walk ended on. */
  last?: string;
  ended: string;
}

interface Opds2Page {
  metadata: { numberOfItems?: number; itemsPerPage?: number };
  links: { rel?: string | string[]; href: string }[];
  publications?: { metadata: { identifier: string } }[];
}

async function walk2(start: string, headers: Record<string, string>): Promise<Walked> {
  const walked: Walked = { counts: [], identifiers: [], pages: 0, ended: start };
  let path: string | undefined = start;
  while (path !== undefined) {
    const response: ApiResponse<Opds2Page> = await api<Opds2Page>('GET', path, { headers: { host: NORTHWIND, ...headers } });
    expect(response.status, `${path}: ${response.text}`).toBe(200);
    const page: Opds2Page = response.body;
    walked.pages++;
    walked.ended = path;
    walked.counts.push(page.metadata.numberOfItems!);
    walked.identifiers.push(...(page.publications ?? []).map((publication) => publication.metadata.identifier));
    const linkOf = (rel: string): string | undefined => page.links.find((link) => link.rel === rel)?.href;
    const last = linkOf('last');
    if (walked.pages === 1 && last) walked.last = pathOf(last);
    const next = linkOf('next');
    path = next ? pathOf(next) : undefined;
    expect(walked.pages).toBeLessThan(100);
  }
  return walked;
}

async function walk1(start: string, headers: Record<string, string>): Promise<Walked> {
  const walked: Walked = { counts: [], identifiers: [], pages: 0, ended: start };
  let path: string | undefined = start;
  while (path !== undefined) {
    const response: ApiResponse = await api('GET', path, { headers: { host: NORTHWIND, ...headers } });
    expect(response.status, `${path}: ${response.text}`).toBe(200);
    const root: Element = new DOMParser().parseFromString(response.text, 'text/xml').documentElement!;
    const own = (ns: string, name: string): Element[] => Array.from(root.getElementsByTagNameNS(ns, name)).filter((element) => element.parentNode === root);
    walked.pages++;
    walked.ended = path;
    walked.counts.push(Number(own(OPENSEARCH, 'totalResults')[0]?.textContent));
    walked.identifiers.push(...own(ATOM, 'entry').map((entry) => entry.getElementsByTagNameNS(ATOM, 'id')[0]!.textContent!));
    const linkOf = (rel: string): string | undefined =>
      own(ATOM, 'link')
        .find((link) => link.getAttribute('rel') === rel)
        ?.getAttribute('href') ?? undefined;
    const last = linkOf('last');
    if (walked.pages === 1 && last) walked.last = pathOf(last);
    const next = linkOf('next');
    path = next ? pathOf(next) : undefined;
    expect(walked.pages).toBeLessThan(100);
  }
  return walked;
}

function expectHonest(walked: Walked, feed: string) {
  const count = walked.counts[0]!;
  expect(walked.counts, `${feed}: every page announces the same count`).toEqual(walked.counts.map(() => count));
  expect(walked.identifiers.length, `${feed}: the count is what the pages list`).toBe(count);
  expect(new Set(walked.identifiers).size, `${feed}: each publication once`).toBe(count);
  if (walked.last) expect(walked.ended, `${feed}: the walk ends on the last page`).toBe(walked.last);
}

describe('OPDS counts (running stack)', () => {
  let headers: Record<string, string>;
  let collections: string[];
  beforeAll(async () => {
    const ana = await sharedLogin('ana@example.com');
    const created = await api('POST', '/api/v2/user/device-keys', { token: ana.access_token, body: { label: 'OPDS counts e2e' } });
    expect(created.status).toBe(201);
    headers = basic('ana@example.com', created.body.key as string);
    const catalog = await api<Opds2Page & { navigation: { href: string }[] }>('GET', '/opds/v2/catalog', { headers: { host: NORTHWIND, ...headers } });
    expect(catalog.status).toBe(200);
    collections = catalog.body.navigation.map((link) => new URL(link.href).searchParams.get('collection')).filter((slug): slug is string => slug !== null);
    expect(collections.length).toBeGreaterThan(0);
  });

  const feeds = () => ['/publications', ...collections.map((slug) => `/publications?collection=${slug}`), ...SEARCHES.map((query) => `/search?query=${query}`)];

  it('when every page of every OPDS 2.0 feed is walked, then numberOfItems equals what the pages list', async () => {
    for (const feed of feeds()) expectHonest(await walk2(`/opds/v2${feed}`, headers), `v2${feed}`);
  });

  it('when every page of every OPDS 1.2 feed is walked, then opensearch:totalResults equals what the pages list', async () => {
    for (const feed of feeds()) expectHonest(await walk1(`/opds/v1.2${feed}`, headers), `v1.2${feed}`);
  });

  it('when both versions list a feed, then they list the same publications in the same order', async () => {
    for (const feed of feeds()) {
      const [v2, v1] = [await walk2(`/opds/v2${feed}`, headers), await walk1(`/opds/v1.2${feed}`, headers)];
      expect(v1.identifiers, feed).toEqual(v2.identifiers);
    }
  });
});
