// Readium Web Publication Manifest, end to end against ./dev up:
// GET /api/v2/reader/{issue_id}/manifest for an EPUB, a PDF and an audiobook
// validates against the published Readium schema (vendored in
// tests/e2e/fixtures/schemas), every link in it fetches, and the access and
// preview rules are those of opening a reader session. The manifest links its
// Readium positions list (GET /api/v2/reader/{issue_id}/positions), whose
// hrefs are the reading order's.
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, type Tokens } from './client.js';
import { schemaErrors, SCHEMA } from './json-schemas.js';
import { api, fetchContent, pngSize, sharedLogin, v2 } from './reader-helpers.js';

interface Link {
  href: string;
  type: string;
  title?: string;
  duration?: number;
  width?: number;
  height?: number;
  rel?: string[];
}
interface Manifest {
  '@context': string;
  metadata: Record<string, unknown>;
  links: Link[];
  readingOrder: Link[];
  resources: Link[];
  toc: Link[];
}

const POSITION_LIST = 'application/vnd.readium.position-list+json';

interface PositionList {
  total: number;
  positions: { href: string; type: string; title?: string; locations: { position: number; progression: number; totalProgression: number } }[];
}

const manifestOf = (jwt: string, tenantId: number, issueId: number, preview = false) =>
  api<Manifest>('GET', `/api/v2/reader/${issueId}/manifest${preview ? '?preview=true' : ''}`, { token: jwt, headers: v2(tenantId) });

/** The links of the API (the manifest itself, its positions list): asked for with credentials. */
const isApiLink = (link: Link) => Boolean(link.rel?.includes('self')) || link.type === POSITION_LIST;

/** Every link of the manifest but `self` and the positions list (asked for with credentials apart), without fragments. */
const contentLinks = (manifest: Manifest) =>
  [...manifest.readingOrder, ...manifest.resources, ...manifest.toc, ...manifest.links.filter((link) => !isApiLink(link))].map((link) => ({
    ...link,
    href: link.href.split('#')[0]!,
  }));

/** The positions list the manifest links, fetched with the credentials of the manifest. */
async function positionsOf(manifest: Manifest, jwt: string, tenantId: number) {
  const link = manifest.links.find((candidate) => candidate.type === POSITION_LIST)!;
  const url = new URL(link.href);
  return api<PositionList>('GET', url.pathname + url.search, { token: jwt, headers: v2(tenantId) });
}

async function expectEveryLinkFetches(manifest: Manifest): Promise<void> {
  for (const link of contentLinks(manifest)) {
    const fetched = await fetchContent(link.href);
    expect(fetched.status, link.href).toBe(200);
    expect(fetched.headers.get('content-type'), link.href).toBe(link.type);
  }
}

describe('Readium Web Publication Manifest (running stack)', () => {
  let ana: Tokens;
  let bruno: Tokens;
  let fresh: Tokens;
  beforeAll(async () => {
    [ana, bruno, fresh] = await Promise.all([sharedLogin('ana@example.com'), sharedLogin('bruno@example.com'), loginByEmail(uniqueEmail('manifest'))]);
  });

  it('when ana asks for her EPUB 1001, then a valid manifest lists the three chapters, each served from the package, and every link fetches', async () => {
    const response = await manifestOf(ana.access_token, 1, 1001);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/webpub\+json/);
    const manifest = response.body;
    expect(schemaErrors(SCHEMA.webpubManifest, manifest)).toEqual([]);
    expect(manifest.metadata).toMatchObject({
      conformsTo: 'https://readium.org/webpub-manifest/profiles/epub',
      title: "The Lighthouse Keeper's Atlas",
      identifier: 'urn:folio:1:1001',
      author: ['Mara Ellison'],
    });
    expect(manifest.readingOrder.map((link) => link.type)).toEqual(['application/xhtml+xml', 'application/xhtml+xml', 'application/xhtml+xml']);
    expect(manifest.readingOrder.map((link) => new URL(link.href).pathname.split('/').slice(-2).join('/'))).toEqual([
      'text/chapter-1.xhtml',
      'text/chapter-2.xhtml',
      'text/chapter-3.xhtml',
    ]);
    expect(manifest.toc.map((link) => link.title)).toEqual(['Chapter 1: The Lamp', 'Chapter 2: The Atlas', 'Chapter 3: The Compass']);
    expect(manifest.links.find((link) => link.rel?.includes('alternate'))?.type).toBe('application/epub+zip');

    const chapter = await fetchContent(manifest.readingOrder[0]!.href);
    expect(chapter.bytes.toString('utf8')).toContain('The keeper climbed the spiral stairs at dusk');
    // A publication's own scripts never run on our origin.
    expect(chapter.headers.get('content-security-policy')).toContain("default-src 'none'");
    await expectEveryLinkFetches(manifest);

    const self = manifest.links.find((link) => link.rel?.includes('self'))!;
    expect(new URL(self.href).search).toBe('');
    const again = await api('GET', new URL(self.href).pathname, { token: ana.access_token, headers: v2(1) });
    expect(again.status).toBe(200);
  });

  it('when a package link is tampered with or points outside the package, then it is refused', async () => {
    const manifest = (await manifestOf(ana.access_token, 1, 1001)).body;
    const href = manifest.readingOrder[0]!.href;
    expect((await fetchContent(href.replace('/1/1001/', '/1/1009/'))).status).toBe(403);
    expect((await fetchContent(href.replace(/~(\d+)~/, (_all, exp: string) => `~${Number(exp) + 1}~`))).status).toBe(403);
    expect((await fetchContent(href.replace('text/chapter-1.xhtml', 'text/chapter-9.xhtml'))).status).toBe(404);
  });

  it('when ana asks for the PDF 2002 of Editorial Sur, then the reading order is its three page images with their sizes', async () => {
    const response = await manifestOf(ana.access_token, 2, 2002);
    expect(response.status).toBe(200);
    const manifest = response.body;
    expect(schemaErrors(SCHEMA.webpubManifest, manifest)).toEqual([]);
    expect(manifest.metadata).toMatchObject({ conformsTo: 'https://readium.org/webpub-manifest/profiles/divina', numberOfPages: 3 });
    expect(manifest.readingOrder).toHaveLength(3);
    for (const link of manifest.readingOrder) {
      expect(link.type).toBe('image/png');
      const page = await fetchContent(link.href);
      expect(pngSize(page.bytes)).toEqual({ width: link.width, height: link.height });
    }
    await expectEveryLinkFetches(manifest);
  });

  it('when a member asks for the free audiobook 1003, then the tracks carry durations and media types', async () => {
    const response = await manifestOf(fresh.access_token, 1, 1003);
    expect(response.status).toBe(200);
    const manifest = response.body;
    expect(schemaErrors(SCHEMA.webpubManifest, manifest)).toEqual([]);
    expect(manifest.metadata).toMatchObject({ '@type': 'http://schema.org/Audiobook', conformsTo: 'https://readium.org/webpub-manifest/profiles/audiobook' });
    expect(manifest.readingOrder.map((link) => link.title)).toEqual(['Track one: the harbour at dawn', 'Track two: the night ferry']);
    for (const link of manifest.readingOrder) {
      expect(link.type).toBe('audio/mpeg');
      expect(link.duration).toBeGreaterThan(2);
    }
    expect(manifest.metadata.duration).toBeCloseTo(manifest.readingOrder.reduce((sum, link) => sum + link.duration!, 0));
    await expectEveryLinkFetches(manifest);
  });

  it('when bruno has no access, then 403; with preview=true, then only the preview share, and its links fetch', async () => {
    expect((await manifestOf(bruno.access_token, 1, 1002)).status).toBe(403);
    const response = await manifestOf(bruno.access_token, 1, 1002, true);
    expect(response.status).toBe(200);
    expect(schemaErrors(SCHEMA.webpubManifest, response.body)).toEqual([]);
    expect(response.body.readingOrder).toHaveLength(1);
    await expectEveryLinkFetches(response.body);
    // The base URL navigators resolve against is the manifest's, without a query; the preview is named on the positions link.
    expect(response.body.links.find((link) => link.rel?.includes('self'))!.href).toMatch(/\/api\/v2\/reader\/1002\/manifest$/);
    const positions = await positionsOf(response.body, bruno.access_token, 1);
    expect(positions.status).toBe(200);
    expect(positions.body.positions.map((locator) => locator.href)).toEqual([response.body.readingOrder[0]!.href]);
  });

  it('when a reader follows the positions link of a manifest, then every position points at a reading-order href, numbered as Readium numbers them', async () => {
    const epub = (await manifestOf(ana.access_token, 1, 1001)).body;
    const response = await positionsOf(epub, ana.access_token, 1);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/vnd\.readium\.position-list\+json/);
    const list = response.body;
    expect(list.total).toBe(list.positions.length);
    expect(list.positions.map((locator) => locator.locations.position)).toEqual(list.positions.map((_, index) => index + 1));
    expect([...new Set(list.positions.map((locator) => locator.href))]).toEqual(epub.readingOrder.map((link) => link.href));
    // One position per 1024 bytes of each chapter document, at least one.
    for (const link of epub.readingOrder) {
      const bytes = (await fetchContent(link.href)).bytes.length;
      expect(list.positions.filter((locator) => locator.href === link.href)).toHaveLength(Math.max(1, Math.ceil(bytes / 1024)));
    }

    const pdf = (await manifestOf(ana.access_token, 2, 2002)).body;
    const pages = (await positionsOf(pdf, ana.access_token, 2)).body;
    expect(pages.positions.map((locator) => [locator.href, locator.locations.position])).toEqual(pdf.readingOrder.map((link, index) => [link.href, index + 1]));

    const audiobook = (await manifestOf(fresh.access_token, 1, 1003)).body;
    expect(audiobook.metadata).toMatchObject({ identifier: 'urn:folio:1:1003', conformsTo: 'https://readium.org/webpub-manifest/profiles/audiobook' });
    const tracks = (await positionsOf(audiobook, fresh.access_token, 1)).body;
    expect(tracks.positions.map((locator) => locator.href)).toEqual(audiobook.readingOrder.map((link) => link.href));
    expect(tracks.positions[1]!.locations.totalProgression).toBeCloseTo(audiobook.readingOrder[0]!.duration! / (audiobook.metadata.duration as number));
  });

  it('when the positions list is asked without access, for a future signing time, or unsigned, then 403, 422, or positions signed now', async () => {
    expect((await api('GET', '/api/v2/reader/1002/positions', { token: bruno.access_token, headers: v2(1) })).status).toBe(403);
    const future = Math.floor(Date.now() / 1000) + 3600;
    const refused = await api('GET', `/api/v2/reader/1001/positions?signed_at=${future}`, { token: ana.access_token, headers: v2(1) });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('signed_at');
    const now = await api<PositionList>('GET', '/api/v2/reader/1001/positions', { token: ana.access_token, headers: v2(1) });
    expect(now.status).toBe(200);
    expect((await fetchContent(now.body.positions[0]!.href)).status).toBe(200);
  });

  it('when the issue is unknown in the tenant, physical, or the tenant header is missing, then 404, 422 and 412', async () => {
    expect((await manifestOf(ana.access_token, 1, 2002)).status).toBe(404);
    expect((await manifestOf(ana.access_token, 1, 1005)).status).toBe(422);
    expect((await api('GET', '/api/v2/reader/1001/manifest', { token: ana.access_token })).status).toBe(412);
    expect((await api('GET', '/api/v2/reader/1001/manifest', { headers: v2(1) })).status).toBe(401);
  });
});
